// One value given as text appended to a column: the conversions CSV input needs, without
// building a Literal for the common types (numbers, booleans, dates, timestamps, strings).
#pragma once

#include <string_view>

#include "types/column_batch.h"

namespace floe {

// Appends `text` converted to the column's type; an error (and the column unchanged) when it
// does not convert. Numbers accept what Literal's string cast accepts.
Status AppendTextValue(Column* column, std::string_view text);

}  // namespace floe
