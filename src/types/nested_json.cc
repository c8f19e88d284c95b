#include "types/nested_json.h"

#include <charconv>
#include <set>

#include "types/value_text.h"
#include "util/strings.h"
#include "util/utf8.h"

namespace floe {
namespace {

// A non-null primitive literal as the JSON-lines output prints it: Literal::ToJson.
void AppendPrimitiveJson(const Literal& v, std::string* out) {
  if (v.type()->id() == TypeId::kString) {
    AppendJsonString(v.AsBytes(), out);
    return;
  }
  *out += v.ToJson().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool HasStringKeys(const Type& map) { return map.fields()[0].type->id() == TypeId::kString; }

}  // namespace

void AppendJsonString(std::string_view s, std::string* out) {
  if (!IsValidUtf8(s)) {
    *out += nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return;
  }
  out->push_back('"');
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\b': *out += "\\b"; break;
      case '\f': *out += "\\f"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
      default:
        if (c < 0x20) {
          static const char kHex[] = "0123456789abcdef";
          *out += "\\u00";
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 15]);
        } else {
          out->push_back(ch);
        }
    }
  }
  out->push_back('"');
}

void AppendCellJson(const Column& c, size_t row, std::string* out) {
  if (c.IsNull(row)) {
    *out += "null";
    return;
  }
  const Type& type = *c.type;
  switch (type.id()) {
    case TypeId::kStruct:
      out->push_back('{');
      for (size_t i = 0; i < c.children.size(); ++i) {
        if (i) out->push_back(',');
        AppendJsonString(type.fields()[i].name, out);
        out->push_back(':');
        AppendCellJson(c.children[i], row, out);
      }
      out->push_back('}');
      return;
    case TypeId::kList:
      out->push_back('[');
      for (uint32_t i = c.offsets[row]; i < c.offsets[row + 1]; ++i) {
        if (i != c.offsets[row]) out->push_back(',');
        AppendCellJson(c.children[0], i, out);
      }
      out->push_back(']');
      return;
    case TypeId::kMap: {
      const Column& keys = c.children[0];
      const bool as_object = HasStringKeys(type);
      out->push_back(as_object ? '{' : '[');
      for (uint32_t i = c.offsets[row]; i < c.offsets[row + 1]; ++i) {
        if (i != c.offsets[row]) out->push_back(',');
        if (as_object) {
          AppendJsonString(keys.IsNull(i) ? std::string_view("null") : keys.BytesAt(i), out);
          out->push_back(':');
        } else {
          *out += "{\"key\":";
          AppendCellJson(keys, i, out);
          *out += ",\"value\":";
        }
        AppendCellJson(c.children[1], i, out);
        if (!as_object) out->push_back('}');
      }
      out->push_back(as_object ? '}' : ']');
      return;
    }
    // The common primitives without a Literal; the same text Literal::ToJson gives.
    case TypeId::kBoolean: *out += c.bools[row] ? "true" : "false"; return;
    case TypeId::kInt: AppendInteger(c.ints[row], out); return;
    case TypeId::kLong: AppendInteger(c.longs[row], out); return;
    case TypeId::kString: AppendJsonString(c.BytesAt(row), out); return;
    case TypeId::kDate:
      out->push_back('"');
      AppendDate(c.ints[row], out);
      out->push_back('"');
      return;
    case TypeId::kDecimal:
      out->push_back('"');
      AppendDecimal(c.decimals[row], type.scale(), out);
      out->push_back('"');
      return;
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      const TypeId id = type.id();
      const int64_t units = id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs ? 1000000000 : 1000000;
      out->push_back('"');
      if (id == TypeId::kTime) {
        AppendTimeOfDay(c.longs[row], units, out);
      } else {
        AppendTimestamp(c.longs[row], units, id == TypeId::kTimestampTz || id == TypeId::kTimestampTzNs, out);
      }
      out->push_back('"');
      return;
    }
    default: AppendPrimitiveJson(c.Get(row), out); return;
  }
}

void AppendLiteralJson(const Literal& v, std::string* out) {
  if (!v.type() || v.is_null()) {
    *out += "null";
    return;
  }
  const Type& type = *v.type();
  if (type.is_primitive() || !std::holds_alternative<NestedItems>(v.value())) {
    AppendPrimitiveJson(v, out);
    return;
  }
  const std::vector<Literal>& items = v.AsItems();
  switch (type.id()) {
    case TypeId::kStruct:
      out->push_back('{');
      for (size_t i = 0; i < items.size() && i < type.fields().size(); ++i) {
        if (i) out->push_back(',');
        AppendJsonString(type.fields()[i].name, out);
        out->push_back(':');
        AppendLiteralJson(items[i], out);
      }
      out->push_back('}');
      return;
    case TypeId::kList:
      out->push_back('[');
      for (size_t i = 0; i < items.size(); ++i) {
        if (i) out->push_back(',');
        AppendLiteralJson(items[i], out);
      }
      out->push_back(']');
      return;
    default: {
      const bool as_object = HasStringKeys(type);
      out->push_back(as_object ? '{' : '[');
      for (size_t i = 0; i + 1 < items.size(); i += 2) {
        if (i) out->push_back(',');
        if (as_object) {
          AppendJsonString(items[i].is_null() ? "null" : items[i].AsBytes(), out);
          out->push_back(':');
        } else {
          *out += "{\"key\":";
          AppendLiteralJson(items[i], out);
          *out += ",\"value\":";
        }
        AppendLiteralJson(items[i + 1], out);
        if (!as_object) out->push_back('}');
      }
      out->push_back(as_object ? '}' : ']');
      return;
    }
  }
}

nlohmann::ordered_json CellJson(const Column& column, size_t row) {
  std::string text;
  AppendCellJson(column, row, &text);
  return nlohmann::ordered_json::parse(text, nullptr, false);
}

namespace {

std::string Describe(const nlohmann::json& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  std::string text = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

std::unexpected<Error> Fail(const std::string& path, const std::string& message) {
  return InvalidArgument(path.empty() ? message : path + ": " + message);
}

std::string FieldPath(const std::string& path, std::string_view field) {
  return path.empty() ? std::string(field) : path + "." + std::string(field);
}

// A primitive as JSON-lines input reads it: JSON numbers, booleans and strings, each cast to
// the type; a variant takes the JSON value itself; binary and fixed are hex, as printed.
Result<Literal> PrimitiveFromJson(const TypePtr& type, const nlohmann::json& v) {
  if (type->id() == TypeId::kVariant) return Literal::FromJson(type, v);
  if ((type->id() == TypeId::kBinary || type->id() == TypeId::kFixed) && v.is_string()) {
    auto bytes = Literal::FromJson(type, v);
    if (!bytes) return InvalidArgument("expected the hex digits of " + type->ToString() + ", got " + Describe(v));
    return bytes;
  }
  if (v.is_boolean()) return Literal::Boolean(v.get<bool>()).CastTo(type);
  if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
    return InvalidArgument(Describe(v) + " does not fit " + type->ToString());
  if (v.is_number_integer()) return Literal::Long(v.get<int64_t>()).CastTo(type);
  if (v.is_number_float()) {
    if (type->id() == TypeId::kDecimal) return Literal::String(v.dump()).CastTo(type);
    return Literal::Double(v.get<double>()).CastTo(type);
  }
  if (v.is_string()) return Literal::String(v.get<std::string>()).CastTo(type);
  return InvalidArgument("expected " + type->ToString() + ", got " + Describe(v));
}

Result<Literal> FromCell(const TypePtr& type, const nlohmann::json& v, const std::string& path);

// A place that may not hold null (a required field, element or value, or a map key).
Result<Literal> RequiredFromCell(const NestedField& field, const nlohmann::json& v, const std::string& path,
                                 bool required) {
  if (v.is_null() && required) return Fail(path, "is required but the value has null");
  return FromCell(field.type, v, path);
}

Result<Literal> StructFromCell(const TypePtr& type, const nlohmann::json& v, const std::string& path) {
  if (!v.is_object()) return Fail(path, "expected an object for " + type->ToString() + ", got " + Describe(v));
  const auto& fields = type->fields();
  std::vector<const nlohmann::json*> given(fields.size(), nullptr);
  for (auto it = v.begin(); it != v.end(); ++it) {
    size_t index = fields.size();
    for (size_t i = 0; i < fields.size() && index == fields.size(); ++i)
      if (fields[i].name == it.key()) index = i;
    for (size_t i = 0; i < fields.size() && index == fields.size(); ++i)
      if (AsciiLower(fields[i].name) == AsciiLower(it.key())) index = i;
    if (index == fields.size()) return Fail(path, "the struct has no field '" + it.key() + "'");
    given[index] = &it.value();
  }
  static const nlohmann::json kNull;
  std::vector<Literal> items;
  items.reserve(fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(Literal item, RequiredFromCell(fields[i], given[i] ? *given[i] : kNull,
                                                         FieldPath(path, fields[i].name), fields[i].required));
    items.push_back(std::move(item));
  }
  return Literal::Nested(type, std::move(items));
}

Result<Literal> ListFromCell(const TypePtr& type, const nlohmann::json& v, const std::string& path) {
  if (!v.is_array()) return Fail(path, "expected an array for " + type->ToString() + ", got " + Describe(v));
  const NestedField& element = type->fields()[0];
  std::vector<Literal> items;
  items.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(Literal item,
                          RequiredFromCell(element, v[i], path + "[" + std::to_string(i) + "]", element.required));
    items.push_back(std::move(item));
  }
  return Literal::Nested(type, std::move(items));
}

// A map: an object {"k": v} (keys cast from their text to the key type) or an array of
// {"key": K, "value": V} entries. A key given twice is refused.
Result<Literal> MapFromCell(const TypePtr& type, const nlohmann::json& v, const std::string& path) {
  const NestedField& key_field = type->fields()[0];
  const NestedField& value_field = type->fields()[1];
  std::vector<Literal> items;
  std::set<Literal> seen;
  auto add = [&](const nlohmann::json& key, const nlohmann::json& value, size_t index) -> Status {
    std::string key_path = path + "[key " + std::to_string(index) + "]";
    FLOE_ASSIGN_OR_RETURN(Literal k, RequiredFromCell(key_field, key, key_path, true));
    std::string shown = k.ToString();
    if (!seen.insert(k).second) return Fail(path, "key '" + shown + "' appears twice");
    FLOE_ASSIGN_OR_RETURN(Literal val,
                          RequiredFromCell(value_field, value, path + "['" + shown + "']", value_field.required));
    items.push_back(std::move(k));
    items.push_back(std::move(val));
    return Ok();
  };
  if (v.is_object()) {
    if (!key_field.type->is_primitive())
      return Fail(path, "a map with " + key_field.type->ToString() + " keys is an array of {\"key\": ..., \"value\": ...}");
    size_t index = 0;
    for (auto it = v.begin(); it != v.end(); ++it) FLOE_RETURN_IF_ERROR(add(nlohmann::json(it.key()), it.value(), index++));
    return Literal::Nested(type, std::move(items));
  }
  if (!v.is_array())
    return Fail(path, "expected an object or an array of {\"key\": ..., \"value\": ...} for " + type->ToString() +
                          ", got " + Describe(v));
  static const nlohmann::json kNull;
  for (size_t i = 0; i < v.size(); ++i) {
    const nlohmann::json& entry = v[i];
    std::string where = path + "[" + std::to_string(i) + "]";
    if (!entry.is_object() || !entry.contains("key"))
      return Fail(where, "a map entry is an object {\"key\": ..., \"value\": ...}, got " + Describe(entry));
    for (auto it = entry.begin(); it != entry.end(); ++it)
      if (it.key() != "key" && it.key() != "value") return Fail(where, "a map entry has no member '" + it.key() + "'");
    auto value = entry.find("value");
    FLOE_RETURN_IF_ERROR(add(entry["key"], value == entry.end() ? kNull : *value, i));
  }
  return Literal::Nested(type, std::move(items));
}

Result<Literal> FromCell(const TypePtr& type, const nlohmann::json& v, const std::string& path) {
  if (v.is_null()) return Literal::Null(type);
  switch (type->id()) {
    case TypeId::kStruct: return StructFromCell(type, v, path);
    case TypeId::kList: return ListFromCell(type, v, path);
    case TypeId::kMap: return MapFromCell(type, v, path);
    default: {
      auto read = PrimitiveFromJson(type, v);
      if (!read) return Fail(path, read.error().message);
      return read;
    }
  }
}

}  // namespace

Result<Literal> LiteralFromCellJson(const TypePtr& type, const nlohmann::json& value, std::string_view column_name) {
  return FromCell(type, value, std::string(column_name));
}

Status AppendJsonValue(const nlohmann::json& value, Column* column, std::string_view column_name) {
  FLOE_ASSIGN_OR_RETURN(Literal v, LiteralFromCellJson(column->type, value, column_name));
  auto st = column->Append(v);
  if (!st) return Fail(std::string(column_name), st.error().message);
  return Ok();
}

}  // namespace floe
