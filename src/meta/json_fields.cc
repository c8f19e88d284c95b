#include "meta/json_fields.h"

#include <limits>

namespace floe::json_fields {

const Json* Find(const Json& obj, std::string_view key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

Result<const Json*> Require(const Json& obj, std::string_view key) {
  if (!obj.is_object()) return InvalidArgument("expected a JSON object with field '" + std::string(key) + "', got " + Snippet(obj));
  const Json* v = Find(obj, key);
  if (!v) return InvalidArgument("missing required field '" + std::string(key) + "'");
  return v;
}

std::string Snippet(const Json& value) {
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  constexpr size_t kMax = 160;
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  return text;
}

Result<int64_t> ToLong(const Json& value, std::string_view what) {
  if (value.is_number_unsigned()) {
    uint64_t u = value.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return InvalidArgument("field '" + std::string(what) + "' is out of range for a long: " + Snippet(value));
    return static_cast<int64_t>(u);
  }
  if (value.is_number_integer()) return value.get<int64_t>();
  return InvalidArgument("field '" + std::string(what) + "' must be a long, got " + Snippet(value));
}

Result<int> ToInt(const Json& value, std::string_view what) {
  if (!value.is_number_integer())
    return InvalidArgument("field '" + std::string(what) + "' must be an int, got " + Snippet(value));
  FLOE_ASSIGN_OR_RETURN(int64_t v, ToLong(value, what));
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
    return InvalidArgument("field '" + std::string(what) + "' is out of range for an int: " + Snippet(value));
  return static_cast<int>(v);
}

Result<std::string> ToString(const Json& value, std::string_view what) {
  if (!value.is_string()) return InvalidArgument("field '" + std::string(what) + "' must be a string, got " + Snippet(value));
  return value.get<std::string>();
}

Result<bool> ToBool(const Json& value, std::string_view what) {
  if (!value.is_boolean()) return InvalidArgument("field '" + std::string(what) + "' must be a boolean, got " + Snippet(value));
  return value.get<bool>();
}

Result<int64_t> GetLong(const Json& obj, std::string_view key) {
  FLOE_ASSIGN_OR_RETURN(const Json* v, Require(obj, key));
  return ToLong(*v, key);
}

Result<int> GetInt(const Json& obj, std::string_view key) {
  FLOE_ASSIGN_OR_RETURN(const Json* v, Require(obj, key));
  return ToInt(*v, key);
}

Result<std::string> GetString(const Json& obj, std::string_view key) {
  FLOE_ASSIGN_OR_RETURN(const Json* v, Require(obj, key));
  return ToString(*v, key);
}

Result<bool> GetBool(const Json& obj, std::string_view key) {
  FLOE_ASSIGN_OR_RETURN(const Json* v, Require(obj, key));
  return ToBool(*v, key);
}

Result<std::optional<int64_t>> GetOptionalLong(const Json& obj, std::string_view key) {
  const Json* v = Find(obj, key);
  if (!v) return std::optional<int64_t>();
  FLOE_ASSIGN_OR_RETURN(int64_t x, ToLong(*v, key));
  return std::optional<int64_t>(x);
}

Result<std::optional<int>> GetOptionalInt(const Json& obj, std::string_view key) {
  const Json* v = Find(obj, key);
  if (!v) return std::optional<int>();
  FLOE_ASSIGN_OR_RETURN(int x, ToInt(*v, key));
  return std::optional<int>(x);
}

Result<std::optional<std::string>> GetOptionalString(const Json& obj, std::string_view key) {
  const Json* v = Find(obj, key);
  if (!v) return std::optional<std::string>();
  FLOE_ASSIGN_OR_RETURN(std::string x, ToString(*v, key));
  return std::optional<std::string>(std::move(x));
}

Result<std::optional<bool>> GetOptionalBool(const Json& obj, std::string_view key) {
  const Json* v = Find(obj, key);
  if (!v) return std::optional<bool>();
  FLOE_ASSIGN_OR_RETURN(bool x, ToBool(*v, key));
  return std::optional<bool>(x);
}

Result<std::map<std::string, std::string>> ToStringMap(const Json& value, std::string_view what) {
  if (!value.is_object()) return InvalidArgument("field '" + std::string(what) + "' must be an object, got " + Snippet(value));
  std::map<std::string, std::string> out;
  for (auto it = value.begin(); it != value.end(); ++it) {
    const Json& v = it.value();
    if (v.is_string()) {
      out[it.key()] = v.get<std::string>();
    } else if (v.is_number() || v.is_boolean()) {
      out[it.key()] = v.dump();
    } else {
      return InvalidArgument("field '" + std::string(what) + "." + it.key() + "' must be a string, got " + Snippet(v));
    }
  }
  return out;
}

Result<std::vector<std::string>> ToStringList(const Json& value, std::string_view what) {
  if (!value.is_array()) return InvalidArgument("field '" + std::string(what) + "' must be an array, got " + Snippet(value));
  std::vector<std::string> out;
  for (const Json& v : value) {
    FLOE_ASSIGN_OR_RETURN(std::string s, ToString(v, what));
    out.push_back(std::move(s));
  }
  return out;
}

Result<std::vector<int>> ToIntList(const Json& value, std::string_view what) {
  if (!value.is_array()) return InvalidArgument("field '" + std::string(what) + "' must be an array, got " + Snippet(value));
  std::vector<int> out;
  for (const Json& v : value) {
    FLOE_ASSIGN_OR_RETURN(int x, ToInt(v, what));
    out.push_back(x);
  }
  return out;
}

Result<std::vector<int64_t>> ToLongList(const Json& value, std::string_view what) {
  if (!value.is_array()) return InvalidArgument("field '" + std::string(what) + "' must be an array, got " + Snippet(value));
  std::vector<int64_t> out;
  for (const Json& v : value) {
    FLOE_ASSIGN_OR_RETURN(int64_t x, ToLong(v, what));
    out.push_back(x);
  }
  return out;
}

Result<const Json*> GetArray(const Json& obj, std::string_view key) {
  const Json* v = Find(obj, key);
  if (v && !v->is_array()) return InvalidArgument("field '" + std::string(key) + "' must be an array, got " + Snippet(*v));
  return v;
}

Result<const Json*> GetObject(const Json& obj, std::string_view key) {
  const Json* v = Find(obj, key);
  if (v && !v->is_object()) return InvalidArgument("field '" + std::string(key) + "' must be an object, got " + Snippet(*v));
  return v;
}

}  // namespace floe::json_fields
