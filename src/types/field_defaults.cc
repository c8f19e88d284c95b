#include "types/field_defaults.h"

#include <nlohmann/json.hpp>

namespace floe {

namespace {

Result<std::optional<Literal>> Read(const NestedField& field, const std::optional<std::string>& text,
                                    const char* which) {
  if (!text) return std::optional<Literal>();
  const auto json = nlohmann::json::parse(*text, nullptr, false);
  if (json.is_discarded())
    return InvalidArgument("field '" + field.name + "': " + which + " is not JSON: " + text->substr(0, 80));
  if (json.is_null()) return std::optional<Literal>();
  if (!field.type->is_primitive())
    return NotSupported("field '" + field.name + "': a non-null " + which + " of a " + field.type->ToString() +
                        " field is not supported");
  auto value = Literal::FromJson(field.type, json);
  if (!value)
    return InvalidArgument("field '" + field.name + "': " + which + " " + json.dump() + " is not a " +
                           field.type->ToString() + ": " + value.error().message);
  return std::optional<Literal>(std::move(*value));
}

}  // namespace

Result<std::optional<Literal>> InitialDefault(const NestedField& field) {
  return Read(field, field.initial_default, "initial-default");
}

Result<std::optional<Literal>> WriteDefault(const NestedField& field) {
  return Read(field, field.write_default, "write-default");
}

Status CheckFieldDefaults(const NestedField& field) {
  for (auto [text, which] : {std::pair{&field.initial_default, "initial-default"},
                             std::pair{&field.write_default, "write-default"}}) {
    auto value = Read(field, *text, which);
    if (!value && value.error().kind != ErrorKind::kNotSupported) return std::unexpected(value.error());
  }
  return Ok();
}

std::string DefaultJson(const Literal& value) { return value.ToJson().dump(); }

}  // namespace floe
