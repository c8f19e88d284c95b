// The schema text people type: "order_id long, country string not null, price decimal(10,2)".
#pragma once

#include <string_view>

#include "types/schema.h"

namespace floe {

// Fields are numbered from 1 in order. "not null" (or "required") makes a field required.
// Nested types are not part of the text form.
Result<Schema> ParseSchemaText(std::string_view text);

// The inverse for printing: "order_id long not null, country string".
std::string SchemaToText(const Schema& schema);

}  // namespace floe
