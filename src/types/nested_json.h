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
// Input accepts the same forms (binary and fixed as hex, as printed; other primitives from a JSON
// number, boolean or string cast to the type); a string-keyed map also accepts the
// array-of-entries form, and a map with other primitive keys an object of their text.
// This is not Iceberg's single-value JSON (Literal::ToJson), which keys structs by field id and
// writes maps as {"keys": [...], "values": [...]} for default values and metadata.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "floe/result.h"
#include "types/column_batch.h"

namespace floe {

// Appends `s` as a JSON string, escaped as nlohmann's compact dump escapes it (UTF-8 kept,
// controls escaped); bytes that are not well-formed UTF-8 print as U+FFFD. The one string
// escaper of the scan output, nested or not.
void AppendJsonString(std::string_view s, std::string* out);

// Appends the compact JSON text of row `row` of `column` (any type; null -> "null") to *out.
// Strings that are not well-formed UTF-8 print with U+FFFD, as the scan output does.
void AppendCellJson(const Column& column, size_t row, std::string* out);

// The same text for a Literal (Literal::ToString of a nested value is this).
void AppendLiteralJson(const Literal& value, std::string* out);

// The value of AppendCellJson as a JSON document, struct fields kept in field order.
nlohmann::ordered_json CellJson(const Column& column, size_t row);

// Appends one value read from its human JSON form to *column (null -> a null row). On a value
// that does not fit the type: InvalidArgument naming the place inside the value, from
// `column_name` ("tags[2]", "addr.zip", "attrs['k']"), and *column is left as it was.
Status AppendJsonValue(const nlohmann::json& value, Column* column, std::string_view column_name = {});

// The human JSON value as a Literal of `type` (Literal::Nested for nested types); errors as
// above. A null is a null of `type` (whether the place may be null is the caller's check).
Result<Literal> LiteralFromCellJson(const TypePtr& type, const nlohmann::json& value,
                                    std::string_view column_name = {});

}  // namespace floe
