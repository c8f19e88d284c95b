// A Schema: a struct type with an id, identifier fields, and lookups by id and name.
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "types/type.h"

namespace floe {

class Schema {
 public:
  Schema() = default;
  Schema(int schema_id, std::vector<NestedField> fields, std::vector<int> identifier_field_ids = {});

  int schema_id() const { return schema_id_; }
  const std::vector<NestedField>& fields() const { return fields_; }
  const std::vector<int>& identifier_field_ids() const { return identifier_field_ids_; }
  TypePtr AsStruct() const { return struct_type_; }

  // Any field, nested ones included, by id; nullptr when absent.
  const NestedField* FindField(int field_id) const;
  // By dotted name ("location.lat"); case-insensitive on request.
  const NestedField* FindField(std::string_view name, bool case_sensitive = true) const;
  // Dotted full name of a field id ("location.lat"); empty when absent.
  std::string FindColumnName(int field_id) const;
  // Highest field id anywhere in the schema (0 when empty).
  int HighestFieldId() const;

  // Checks the rules of a valid schema: unique ids, unique sibling names, identifier fields
  // that exist, are required, primitive, and not float/double.
  Status Validate() const;

  bool SameStructure(const Schema& other) const;  // equal ignoring schema id

 private:
  void Index();

  int schema_id_ = 0;
  std::vector<NestedField> fields_;
  std::vector<int> identifier_field_ids_;
  TypePtr struct_type_;
  std::unordered_map<int, const NestedField*> by_id_;
  std::unordered_map<int, std::string> name_by_id_;
  std::map<std::string, int> id_by_name_;
  std::map<std::string, int> id_by_lower_name_;
};

}  // namespace floe
