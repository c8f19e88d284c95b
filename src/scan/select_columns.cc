// SelectColumns (table_scan.h).
#include <algorithm>
#include <set>

#include "meta/row_lineage.h"
#include "scan/table_scan.h"

namespace floe {

namespace {

bool Contains(const Type& type, int id) {
  for (const auto& f : type.fields()) {
    if (f.id == id) return true;
    if (f.type->is_nested() && Contains(*f.type, id)) return true;
  }
  return false;
}

// `field` pruned to the selected ids: whole when selected itself, else a struct of only the
// children that are or hold selections (through lists' elements and maps' values too).
NestedField Prune(const NestedField& field, const std::set<int>& selected) {
  if (selected.count(field.id) || field.type->is_primitive()) return field;
  if (field.type->id() == TypeId::kList || field.type->id() == TypeId::kMap) {
    // A list's element, a map's value: pruned in turn (a map's key is always read whole).
    NestedField out = field;
    std::vector<NestedField> parts = field.type->fields();
    NestedField& inner = parts.back();
    bool holds = false;
    for (int id : selected) holds |= id == inner.id || (inner.type->is_nested() && Contains(*inner.type, id));
    if (holds) inner = Prune(inner, selected);
    out.type = parts.size() == 1 ? Type::List(parts[0]) : Type::Map(parts[0], parts[1]);
    return out;
  }
  std::vector<NestedField> children;
  for (const auto& c : field.type->fields()) {
    if (selected.count(c.id)) {
      children.push_back(c);
      continue;
    }
    bool holds = false;
    for (int id : selected) holds |= c.type->is_nested() && Contains(*c.type, id);
    if (holds) children.push_back(Prune(c, selected));
  }
  NestedField out = field;
  out.type = Type::Struct(std::move(children));
  return out;
}

}  // namespace

Result<Schema> SelectColumns(const Schema& schema, const std::vector<std::string>& columns, bool case_sensitive) {
  if (columns.empty()) return schema;
  std::set<int> selected;
  std::vector<int> top_order;  // top-level field ids in the order first named
  for (const std::string& name : columns) {
    const NestedField* f = schema.FindField(name, case_sensitive);
    if (!f) {
      // Row lineage's metadata columns, unless a table column has the name.
      if (const NestedField* m = RowLineageField(name)) {
        if (std::find(top_order.begin(), top_order.end(), m->id) == top_order.end()) top_order.push_back(m->id);
        continue;
      }
      return InvalidArgument("column '" + name + "' not found in schema " + std::to_string(schema.schema_id()));
    }
    selected.insert(f->id);
    for (const auto& top : schema.fields()) {
      if (top.id == f->id || (top.type->is_nested() && Contains(*top.type, f->id))) {
        if (std::find(top_order.begin(), top_order.end(), top.id) == top_order.end()) top_order.push_back(top.id);
        break;
      }
    }
  }
  std::vector<NestedField> fields;
  for (int id : top_order) {
    if (IsRowLineageField(id)) {  // reserved ids: no table column has one
      for (const NestedField& m : RowLineageFields())
        if (m.id == id) fields.push_back(m);
      continue;
    }
    for (const auto& top : schema.fields())
      if (top.id == id) fields.push_back(Prune(top, selected));
  }
  return Schema(schema.schema_id(), std::move(fields));
}

}  // namespace floe
