// Reading typed fields out of JSON objects with errors that name the field.
//
// Internal to meta/: the metadata, update and requirement parsers all read JSON the same way,
// so a missing or mistyped field always reads "missing required field 'location'" or
// "field 'last-column-id' must be an int, got \"x\"" whatever document it came from.
// None of these functions throws.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "floe/result.h"

namespace floe::json_fields {

using Json = nlohmann::json;

// The value at `key`, or nullptr when the key is absent or null.
const Json* Find(const Json& obj, std::string_view key);
Result<const Json*> Require(const Json& obj, std::string_view key);
// The JSON text of a value, shortened for error messages.
std::string Snippet(const Json& value);

// Conversions of one value; `what` names it in errors.
Result<int64_t> ToLong(const Json& value, std::string_view what);
Result<int> ToInt(const Json& value, std::string_view what);
Result<std::string> ToString(const Json& value, std::string_view what);
Result<bool> ToBool(const Json& value, std::string_view what);

Result<int64_t> GetLong(const Json& obj, std::string_view key);
Result<int> GetInt(const Json& obj, std::string_view key);
Result<std::string> GetString(const Json& obj, std::string_view key);
Result<bool> GetBool(const Json& obj, std::string_view key);
// Absent or null gives nullopt; a value of the wrong type is still an error.
Result<std::optional<int64_t>> GetOptionalLong(const Json& obj, std::string_view key);
Result<std::optional<int>> GetOptionalInt(const Json& obj, std::string_view key);
Result<std::optional<std::string>> GetOptionalString(const Json& obj, std::string_view key);
Result<std::optional<bool>> GetOptionalBool(const Json& obj, std::string_view key);

// A JSON object of strings (numbers and booleans are accepted and kept as their text).
Result<std::map<std::string, std::string>> ToStringMap(const Json& value, std::string_view what);
Result<std::vector<std::string>> ToStringList(const Json& value, std::string_view what);
Result<std::vector<int>> ToIntList(const Json& value, std::string_view what);
Result<std::vector<int64_t>> ToLongList(const Json& value, std::string_view what);

// The array at `key`; InvalidArgument when it is present but not an array.
Result<const Json*> GetArray(const Json& obj, std::string_view key);
Result<const Json*> GetObject(const Json& obj, std::string_view key);

}  // namespace floe::json_fields
