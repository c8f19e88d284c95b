// A column brought to the table schema's type before it is written: the rows a caller hands
// over may carry an older or narrower type (an int where the table now has a long, a struct
// without a field added since), and nested columns must keep every value on the way.
#pragma once

#include <string>

#include "types/column_batch.h"

namespace floe {

// The column with `target`'s type, row for row. Struct fields are matched by field id (a field
// the source lacks is null in every row; InvalidArgument when it is required); lists and maps
// keep their offsets and convert their children; primitives are cast value by value. `name`
// names the column in errors.
Result<Column> ConformColumn(const Column& source, const TypePtr& target, const std::string& name);

// A column of `rows` nulls of type `type` (nested ones laid out as types/column_batch.h says).
Column NullColumn(const TypePtr& type, size_t rows);

}  // namespace floe
