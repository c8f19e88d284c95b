#include "write/text_values.h"

#include <charconv>
#include <limits>

#include <nlohmann/json.hpp>

#include "types/nested_json.h"
#include "types/schema_text.h"
#include "types/temporal.h"

namespace floe {
namespace {

template <typename T>
void Push(Column* column, std::vector<T>& values, T v) {
  values.push_back(v);
  if (!column->nulls.empty()) column->nulls.push_back(0);
  ++column->length;
}

template <typename T>
bool ParseNumber(std::string_view text, T* out) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *out);
  return ec == std::errc() && ptr == end;
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if ((a[i] | 0x20) != b[i]) return false;
  return true;
}

// The general path (and its error message): the string literal cast.
Status AppendByCast(Column* column, std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(Literal v, Literal::String(std::string(text)).CastTo(column->type));
  return column->Append(v);
}

// A struct, list or map cell holds the value's human JSON text (types/nested_json.h), as a scan
// to CSV writes it.
Status AppendNestedJsonText(Column* column, std::string_view text) {
  nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
  if (value.is_discarded())
    return InvalidArgument("not JSON text; a " + TypeToText(*column->type) +
                           " cell holds the value as JSON (an object for a struct or a map, an array for a list)");
  return AppendJsonValue(value, column);
}

}  // namespace

Status AppendTextValue(Column* column, std::string_view text) {
  switch (column->type->id()) {
    case TypeId::kString:
      column->bytes.append(text);
      column->offsets.push_back(static_cast<uint32_t>(column->bytes.size()));
      if (!column->nulls.empty()) column->nulls.push_back(0);
      ++column->length;
      return Ok();
    case TypeId::kLong: {
      int64_t v;
      if (!ParseNumber(text, &v)) return AppendByCast(column, text);
      Push(column, column->longs, v);
      return Ok();
    }
    case TypeId::kInt: {
      int32_t v;
      if (!ParseNumber(text, &v)) return AppendByCast(column, text);
      Push(column, column->ints, v);
      return Ok();
    }
    case TypeId::kDouble: {
      double v;
      if (!ParseNumber(text, &v)) return AppendByCast(column, text);
      Push(column, column->doubles, v);
      return Ok();
    }
    case TypeId::kFloat: {
      double v;
      if (!ParseNumber(text, &v)) return AppendByCast(column, text);
      Push(column, column->floats, static_cast<float>(v));
      return Ok();
    }
    case TypeId::kBoolean:
      if (EqualsIgnoringCase(text, "true")) {
        Push(column, column->bools, uint8_t{1});
        return Ok();
      }
      if (EqualsIgnoringCase(text, "false")) {
        Push(column, column->bools, uint8_t{0});
        return Ok();
      }
      return AppendByCast(column, text);
    case TypeId::kDate: {
      FLOE_ASSIGN_OR_RETURN(int32_t days, ParseDate(text));
      Push(column, column->ints, days);
      return Ok();
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: {
      FLOE_ASSIGN_OR_RETURN(int64_t micros, ParseTimestamp(text, 1000000));
      Push(column, column->longs, micros);
      return Ok();
    }
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap: return AppendNestedJsonText(column, text);
    default: return AppendByCast(column, text);
  }
}

}  // namespace floe
