// A field's format 3 default values as literals of its type.
//
// NestedField keeps each default as the JSON text of Iceberg's single-value form; these read
// it. Defaults of primitive fields are supported; a non-null default of a struct, list or map
// field is NotSupported (floe neither writes nor fills those).
#pragma once

#include <optional>

#include "types/literal.h"
#include "types/type.h"

namespace floe {

// nullopt when the field has no such default or it is JSON null.
Result<std::optional<Literal>> InitialDefault(const NestedField& field);
Result<std::optional<Literal>> WriteDefault(const NestedField& field);
// Both defaults read as values of the field's type; InvalidArgument naming the field otherwise.
Status CheckFieldDefaults(const NestedField& field);
// The JSON text of `value` as a default (Iceberg's single-value form).
std::string DefaultJson(const Literal& value);

}  // namespace floe
