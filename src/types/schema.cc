#include "types/schema.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "util/strings.h"

namespace floe {

Schema::Schema(int schema_id, std::vector<NestedField> fields, std::vector<int> identifier_field_ids)
    : schema_id_(schema_id), fields_(std::move(fields)), identifier_field_ids_(std::move(identifier_field_ids)) {
  Index();
}

void Schema::Index() {
  struct_type_ = Type::Struct(fields_);
  by_id_.clear();
  name_by_id_.clear();
  id_by_name_.clear();
  id_by_lower_name_.clear();
  // Index the fields of struct_type_ (which owns stable copies) so pointers stay valid.
  auto visit = [&](auto&& self, const Type& type, const std::string& prefix) -> void {
    for (const auto& f : type.fields()) {
      std::string name;
      if (type.id() == TypeId::kStruct) {
        name = prefix.empty() ? f.name : prefix + "." + f.name;
      } else {
        name = prefix + "." + f.name;  // list element / map key and value
      }
      by_id_.emplace(f.id, &f);
      name_by_id_.emplace(f.id, name);
      id_by_name_.emplace(name, f.id);
      id_by_lower_name_.emplace(AsciiLower(name), f.id);
      if (f.type->is_nested()) self(self, *f.type, name);
    }
  };
  visit(visit, *struct_type_, "");
}

const NestedField* Schema::FindField(int field_id) const {
  auto it = by_id_.find(field_id);
  return it == by_id_.end() ? nullptr : it->second;
}

const NestedField* Schema::FindField(std::string_view name, bool case_sensitive) const {
  if (case_sensitive) {
    auto it = id_by_name_.find(std::string(name));
    return it == id_by_name_.end() ? nullptr : FindField(it->second);
  }
  auto it = id_by_lower_name_.find(AsciiLower(name));
  return it == id_by_lower_name_.end() ? nullptr : FindField(it->second);
}

std::string Schema::FindColumnName(int field_id) const {
  auto it = name_by_id_.find(field_id);
  return it == name_by_id_.end() ? std::string() : it->second;
}

int Schema::HighestFieldId() const {
  int highest = 0;
  for (const auto& [id, _] : by_id_) highest = std::max(highest, id);
  return highest;
}

Status Schema::Validate() const {
  std::set<int> ids;
  auto check = [&](auto&& self, const Type& type, const std::string& where) -> Status {
    std::set<std::string> names;
    for (const auto& f : type.fields()) {
      if (!ids.insert(f.id).second)
        return InvalidArgument("schema " + std::to_string(schema_id_) + ": duplicate field id " + std::to_string(f.id));
      if (type.id() == TypeId::kStruct && !names.insert(f.name).second)
        return InvalidArgument("schema " + std::to_string(schema_id_) + ": duplicate field name '" +
                               (where.empty() ? f.name : where + "." + f.name) + "'");
      if (f.type->is_nested()) FLOE_RETURN_IF_ERROR(self(self, *f.type, where.empty() ? f.name : where + "." + f.name));
    }
    return Ok();
  };
  FLOE_RETURN_IF_ERROR(check(check, *struct_type_, ""));
  for (int id : identifier_field_ids_) {
    const NestedField* f = FindField(id);
    if (!f) return InvalidArgument("identifier field id " + std::to_string(id) + " is not in the schema");
    std::string name = FindColumnName(id);
    // The type first: a list, map or struct never qualifies, required or not.
    if (!f->type->is_primitive()) return InvalidArgument("identifier field '" + name + "' must be a primitive type");
    if (!f->required) return InvalidArgument("identifier field '" + name + "' must be required");
    if (f->type->id() == TypeId::kFloat || f->type->id() == TypeId::kDouble)
      return InvalidArgument("identifier field '" + name + "' cannot be float or double");
    // An identifier field may not be nested inside a list or map.
    for (size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1)) {
      const NestedField* parent = FindField(name.substr(0, dot));
      if (parent && (parent->type->id() == TypeId::kList || parent->type->id() == TypeId::kMap))
        return InvalidArgument("identifier field '" + name + "' cannot be nested in a list or map");
      if (parent && !parent->required)
        return InvalidArgument("identifier field '" + name + "' cannot be nested in an optional struct");
    }
  }
  return Ok();
}

bool Schema::SameStructure(const Schema& other) const {
  return struct_type_->Equals(*other.struct_type_) && identifier_field_ids_ == other.identifier_field_ids_;
}

}  // namespace floe
