#include "write/json_type_guess.h"

#include "types/literal.h"
#include "util/strings.h"

namespace floe {

void ScalarGuess::See(const std::string& text) {
  if (text.empty()) return;
  any = true;
  is_long = is_long && Literal::String(text).CastTo(Type::Long()).has_value();
  is_double = is_double && Literal::String(text).CastTo(Type::Double()).has_value();
  std::string l = AsciiLower(text);
  is_bool = is_bool && (l == "true" || l == "false");
  is_date = is_date && Literal::String(text).CastTo(Type::Date()).has_value();
  is_timestamp = is_timestamp && text.size() > 10 && Literal::String(text).CastTo(Type::Timestamp()).has_value();
}

TypePtr ScalarGuess::Guess() const {
  if (!any) return Type::String();
  if (is_bool) return Type::Boolean();
  if (is_long) return Type::Long();
  if (is_double) return Type::Double();
  if (is_date) return Type::Date();
  if (is_timestamp) return Type::Timestamp();
  return Type::String();
}

namespace {

const char* KindName(const nlohmann::ordered_json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  return "a scalar";
}

}  // namespace

Status JsonTypeGuess::See(const nlohmann::ordered_json& value, const std::string& path, const std::string& where) {
  if (value.is_null()) return Ok();
  Kind kind = value.is_object() ? Kind::kObject : value.is_array() ? Kind::kArray : Kind::kScalar;
  if (kind_ != Kind::kNone && kind_ != kind) {
    const char* before = kind_ == Kind::kObject ? "an object" : kind_ == Kind::kArray ? "an array" : "a scalar";
    return InvalidArgument(where + ": '" + path + "' holds " + KindName(value) + " here and " + before +
                           " in an earlier row; one column has one type (give the schema with --schema)");
  }
  kind_ = kind;
  switch (kind) {
    case Kind::kScalar:
      scalar_.See(value.is_string() ? value.get<std::string>() : value.dump());
      return Ok();
    case Kind::kArray:
      if (!element_) element_ = std::make_shared<JsonTypeGuess>();
      for (const auto& item : value) FLOE_RETURN_IF_ERROR(element_->See(item, path + "[]", where));
      return Ok();
    case Kind::kObject:
      for (auto it = value.begin(); it != value.end(); ++it) {
        Member* member = nullptr;
        for (auto& m : members_)
          if (m.name == it.key()) member = &m;
        if (!member) member = &members_.emplace_back(Member{it.key(), {}});
        FLOE_RETURN_IF_ERROR(member->guess.See(it.value(), path.empty() ? it.key() : path + "." + it.key(), where));
      }
      return Ok();
    case Kind::kNone: break;
  }
  return Ok();
}

Result<std::vector<NestedField>> JsonTypeGuess::FieldsOf(const std::string& path, int* next_id) const {
  if (members_.empty())
    return InvalidArgument("'" + path + "' holds only empty objects; a struct needs a field (give the schema with --schema)");
  std::vector<NestedField> fields;
  for (const auto& m : members_) fields.push_back(NestedField{(*next_id)++, m.name, nullptr, false, ""});
  for (size_t i = 0; i < fields.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(fields[i].type,
                          members_[i].guess.TypeOf(path.empty() ? fields[i].name : path + "." + fields[i].name, next_id));
  }
  return fields;
}

Result<TypePtr> JsonTypeGuess::TypeOf(const std::string& path, int* next_id) const {
  switch (kind_) {
    case Kind::kObject: {
      FLOE_ASSIGN_OR_RETURN(auto fields, FieldsOf(path, next_id));
      return Type::Struct(std::move(fields));
    }
    case Kind::kArray: {
      NestedField element{(*next_id)++, "element", nullptr, false, ""};
      if (element_) {
        FLOE_ASSIGN_OR_RETURN(element.type, element_->TypeOf(path + ".element", next_id));
      } else {
        element.type = Type::String();  // only empty arrays seen
      }
      return Type::List(std::move(element));
    }
    case Kind::kScalar:
    case Kind::kNone: break;
  }
  return scalar_.Guess();
}

Result<std::vector<NestedField>> JsonTypeGuess::Columns() const {
  int next_id = 1;
  return FieldsOf("", &next_id);
}

}  // namespace floe
