// The human JSON form of column values, nested ones included: what scan and cat print (JSON,
// JSON lines, a CSV or table cell) and what JSON-lines input reads.
//
//   struct                  -> an object keyed by field name, in field order
//   list                    -> an array
//   map with string keys    -> an object {"k": v, ...}
//   map with other keys     -> an array of {"key": K, "value": V}
//   primitive               -> as floe's JSON-lines scan output prints it (Literal::ToJson:
//                              numbers, strings; dates, times, timestamps, decimals and UUIDs as
//                              strings; binary as hex; variant as its JSON)
//
// Input accepts the same forms; a string-keyed map also accepts the array-of-entries form.
// This is not Iceberg's single-value JSON (Literal::ToJson), which keys structs by field id and
// writes maps as {"keys": [...], "values": [...]} for default values and metadata.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "floe/result.h"
#include "types/column_batch.h"

namespace floe {

// Appends the compact JSON text of row `row` of `column` (any type; null -> "null") to *out.
// Strings that are not well-formed UTF-8 print with U+FFFD, as the scan output does.
void AppendCellJson(const Column& column, size_t row, std::string* out);

// The same value as a JSON document (for callers that build JSON trees).
nlohmann::json CellJson(const Column& column, size_t row);

// Appends one value read from its human JSON form to *column (null -> a null row). On a value
// that does not fit the type: InvalidArgument naming the place inside the value ("tags[2]",
// "addr.zip", "attrs['k']"), and *column is left as it was.
Status AppendJsonValue(const nlohmann::json& value, Column* column);

// The human JSON value as a Literal of `type` (Literal::Nested for nested types); errors as above.
Result<Literal> LiteralFromCellJson(const TypePtr& type, const nlohmann::json& value);

// The human JSON form of a Literal (Literal::ToString of a nested value prints this).
nlohmann::json LiteralToCellJson(const Literal& value);

}  // namespace floe
