#include "txn/schema_update.h"

#include <algorithm>
#include <set>

namespace floe {

struct SchemaUpdate::Working {
  const TableMetadata* base = nullptr;
  std::vector<NestedField> fields;
  std::vector<int> identifier_ids;
  int last_column_id = 0;
};

namespace {

using Working = SchemaUpdate::Working;

std::vector<std::string> SplitName(const std::string& name) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t dot = name.find('.', start);
    parts.push_back(name.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

// The index path of a column, through structs.
Result<std::vector<size_t>> Locate(const std::vector<NestedField>& top, const std::string& name) {
  if (name.empty()) return InvalidArgument("a column name is empty");
  std::vector<size_t> path;
  const std::vector<NestedField>* fields = &top;
  std::vector<std::string> parts = SplitName(name);
  for (size_t p = 0; p < parts.size(); ++p) {
    auto it = std::find_if(fields->begin(), fields->end(), [&](const NestedField& f) { return f.name == parts[p]; });
    if (it == fields->end()) return InvalidArgument("column '" + name + "' is not in the table's schema");
    path.push_back(static_cast<size_t>(it - fields->begin()));
    if (p + 1 < parts.size()) {
      if (it->type->id() != TypeId::kStruct)
        return InvalidArgument("column '" + name + "': '" + parts[p] + "' is not a struct");
      fields = &it->type->fields();
    }
  }
  return path;
}

const NestedField& At(const std::vector<NestedField>& top, const std::vector<size_t>& path) {
  const std::vector<NestedField>* fields = &top;
  for (size_t d = 0; d + 1 < path.size(); ++d) fields = &(*fields)[path[d]].type->fields();
  return (*fields)[path.back()];
}

// Runs fn on the field list at `path` (a struct's children; the top level when empty),
// rebuilding the struct types on the way back up (types are immutable).
Status MutateList(std::vector<NestedField>& fields, const std::vector<size_t>& path, size_t depth,
                  const std::function<Status(std::vector<NestedField>&)>& fn) {
  if (depth == path.size()) return fn(fields);
  NestedField& f = fields[path[depth]];
  std::vector<NestedField> children = f.type->fields();
  FLOE_RETURN_IF_ERROR(MutateList(children, path, depth + 1, fn));
  f.type = Type::Struct(std::move(children));
  return Ok();
}

// Runs fn on the siblings holding the column `name` and its index among them.
Status MutateColumn(Working& w, const std::string& name, const std::function<Status(std::vector<NestedField>&, size_t)>& fn) {
  FLOE_ASSIGN_OR_RETURN(std::vector<size_t> path, Locate(w.fields, name));
  size_t index = path.back();
  path.pop_back();
  return MutateList(w.fields, path, 0, [&](std::vector<NestedField>& siblings) { return fn(siblings, index); });
}

void CollectIds(const NestedField& f, std::vector<int>* ids) {
  ids->push_back(f.id);
  for (const auto& c : f.type->fields()) CollectIds(c, ids);
}

std::string LeafName(const std::string& name) {
  size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

Status Move(Working& w, const std::string& name, const std::string* other, bool after) {
  FLOE_ASSIGN_OR_RETURN(std::vector<size_t> path, Locate(w.fields, name));
  std::vector<size_t> parent(path.begin(), path.end() - 1);
  if (other) {
    FLOE_ASSIGN_OR_RETURN(std::vector<size_t> other_path, Locate(w.fields, *other));
    if (std::vector<size_t>(other_path.begin(), other_path.end() - 1) != parent)
      return InvalidArgument("Cannot move column '" + name + "' next to '" + *other + "': they are in different structs");
    if (*other == name) return InvalidArgument("Cannot move column '" + name + "' relative to itself");
  }
  return MutateList(w.fields, parent, 0, [&](std::vector<NestedField>& siblings) -> Status {
    NestedField moving = siblings[path.back()];
    siblings.erase(siblings.begin() + static_cast<long>(path.back()));
    size_t at = 0;
    if (other) {
      std::string target = LeafName(*other);
      auto it = std::find_if(siblings.begin(), siblings.end(), [&](const NestedField& f) { return f.name == target; });
      at = static_cast<size_t>(it - siblings.begin()) + (after ? 1 : 0);
    }
    siblings.insert(siblings.begin() + static_cast<long>(at), std::move(moving));
    return Ok();
  });
}

}  // namespace

bool CanPromote(const Type& from, const Type& to) {
  if (from.Equals(to)) return true;
  if (from.id() == TypeId::kInt && to.id() == TypeId::kLong) return true;
  if (from.id() == TypeId::kFloat && to.id() == TypeId::kDouble) return true;
  if (from.id() == TypeId::kDecimal && to.id() == TypeId::kDecimal)
    return to.scale() == from.scale() && to.precision() >= from.precision();
  return false;
}

SchemaUpdate& SchemaUpdate::AddColumn(std::string name, TypePtr type, std::string doc) {
  steps_.push_back([=](Working& w) -> Status {
    if (!type) return InvalidArgument("Cannot add column '" + name + "': no type given");
    if (!type->is_primitive())
      return InvalidArgument("Cannot add column '" + name + "': only primitive types can be added (got " +
                             type->ToString() + ")");
    std::vector<std::string> parts = SplitName(name);
    const std::string leaf = parts.back();
    if (leaf.empty()) return InvalidArgument("Cannot add a column with an empty name ('" + name + "')");
    std::vector<size_t> parent;
    if (parts.size() > 1) {
      std::string parent_name = name.substr(0, name.size() - leaf.size() - 1);
      FLOE_ASSIGN_OR_RETURN(parent, Locate(w.fields, parent_name));
      if (At(w.fields, parent).type->id() != TypeId::kStruct)
        return InvalidArgument("Cannot add column '" + name + "': '" + parent_name + "' is not a struct");
    }
    return MutateList(w.fields, parent, 0, [&](std::vector<NestedField>& siblings) -> Status {
      for (const auto& f : siblings)
        if (f.name == leaf) return InvalidArgument("Cannot add column '" + name + "': a column of that name already exists");
      siblings.push_back(NestedField{++w.last_column_id, leaf, type, false, doc});
      return Ok();
    });
  });
  return *this;
}

SchemaUpdate& SchemaUpdate::RenameColumn(std::string name, std::string new_name) {
  steps_.push_back([=](Working& w) {
    if (new_name.empty() || new_name.find('.') != std::string::npos)
      return Status(InvalidArgument("Cannot rename column '" + name + "' to '" + new_name +
                                    "': a new name must be non-empty and hold no '.'"));
    return MutateColumn(w, name, [&](std::vector<NestedField>& siblings, size_t i) -> Status {
      for (size_t j = 0; j < siblings.size(); ++j)
        if (j != i && siblings[j].name == new_name)
          return InvalidArgument("Cannot rename column '" + name + "' to '" + new_name +
                                 "': a column of that name already exists");
      siblings[i].name = new_name;
      return Ok();
    });
  });
  return *this;
}

SchemaUpdate& SchemaUpdate::DropColumn(std::string name) {
  steps_.push_back([=](Working& w) {
    return MutateColumn(w, name, [&](std::vector<NestedField>& siblings, size_t i) -> Status {
      std::vector<int> ids;
      CollectIds(siblings[i], &ids);
      for (int id : ids) {
        if (std::count(w.identifier_ids.begin(), w.identifier_ids.end(), id))
          return InvalidArgument("Cannot delete identifier field '" + name +
                                 "'; remove it from the identifier fields first");
        for (const auto& pf : w.base->DefaultSpec().fields())
          if (pf.source_id == id)
            return InvalidArgument("Cannot drop column '" + name + "': partition field '" + pf.name +
                                   "' of the default partition spec uses it (remove that partition field first)");
        if (const SortOrder* order = w.base->SortOrderById(w.base->default_sort_order_id))
          for (const auto& sf : order->fields())
            if (sf.source_id == id)
              return InvalidArgument("Cannot drop column '" + name + "': the default sort order uses it");
      }
      if (&siblings == &w.fields && siblings.size() == 1)
        return InvalidArgument("Cannot drop column '" + name + "': a table needs at least one column");
      siblings.erase(siblings.begin() + static_cast<long>(i));
      return Ok();
    });
  });
  return *this;
}

SchemaUpdate& SchemaUpdate::UpdateColumnType(std::string name, TypePtr type) {
  steps_.push_back([=](Working& w) {
    return MutateColumn(w, name, [&](std::vector<NestedField>& siblings, size_t i) -> Status {
      if (!type) return InvalidArgument("Cannot change the type of column '" + name + "': no type given");
      const Type& from = *siblings[i].type;
      if (!CanPromote(from, *type))
        return InvalidArgument("Cannot change column type: " + name + ": " + from.ToString() + " -> " +
                               type->ToString() +
                               " (allowed: int -> long, float -> double, decimal(P,S) -> decimal(P',S) with P' >= P)");
      siblings[i].type = type;
      return Ok();
    });
  });
  return *this;
}

SchemaUpdate& SchemaUpdate::MakeColumnOptional(std::string name) {
  steps_.push_back([=](Working& w) {
    return MutateColumn(w, name, [&](std::vector<NestedField>& siblings, size_t i) -> Status {
      if (std::count(w.identifier_ids.begin(), w.identifier_ids.end(), siblings[i].id))
        return InvalidArgument("Cannot make identifier field '" + name + "' optional");
      siblings[i].required = false;
      return Ok();
    });
  });
  return *this;
}

SchemaUpdate& SchemaUpdate::MoveFirst(std::string name) {
  steps_.push_back([=](Working& w) { return Move(w, name, nullptr, false); });
  return *this;
}

SchemaUpdate& SchemaUpdate::MoveBefore(std::string name, std::string other) {
  steps_.push_back([=](Working& w) { return Move(w, name, &other, false); });
  return *this;
}

SchemaUpdate& SchemaUpdate::MoveAfter(std::string name, std::string other) {
  steps_.push_back([=](Working& w) { return Move(w, name, &other, true); });
  return *this;
}

SchemaUpdate& SchemaUpdate::SetIdentifierFields(std::vector<std::string> names) {
  steps_.push_back([=](Working& w) -> Status {
    std::vector<int> ids;
    for (const auto& n : names) {
      FLOE_ASSIGN_OR_RETURN(std::vector<size_t> path, Locate(w.fields, n));
      int id = At(w.fields, path).id;
      if (std::count(ids.begin(), ids.end(), id)) return InvalidArgument("identifier field '" + n + "' is named twice");
      ids.push_back(id);
    }
    w.identifier_ids = std::move(ids);
    return Ok();
  });
  return *this;
}

Result<Schema> SchemaUpdate::Apply(const TableMetadata& base) const {
  const Schema& current = base.CurrentSchema();
  Working w;
  w.base = &base;
  w.fields = current.fields();
  w.identifier_ids = current.identifier_field_ids();
  w.last_column_id = base.last_column_id;
  for (const auto& step : steps_) FLOE_RETURN_IF_ERROR(step(w));
  int next_id = 0;
  for (const auto& s : base.schemas) next_id = std::max(next_id, s.schema_id() + 1);
  Schema schema(next_id, w.fields, w.identifier_ids);
  if (auto valid = schema.Validate(); !valid)
    return InvalidArgument("schema change refused: " + valid.error().message);
  return schema;
}

Result<MetadataChange> SchemaUpdate::Plan(const TableMetadata& base) const {
  FLOE_ASSIGN_OR_RETURN(Schema schema, Apply(base));
  MetadataChange change;
  change.what = "schema change";
  if (schema.SameStructure(base.CurrentSchema())) return change;
  int last_column_id = std::max(base.last_column_id, schema.HighestFieldId());
  change.requirements.push_back(AssertTableUuid{base.table_uuid});
  change.requirements.push_back(AssertCurrentSchemaId{base.current_schema_id});
  change.requirements.push_back(AssertLastAssignedFieldId{base.last_column_id});
  change.updates.push_back(AddSchema{schema, last_column_id});
  change.updates.push_back(SetCurrentSchema{-1});
  return change;
}

Result<LoadedTable> UpdateSchema(Catalog& catalog, const TableIdentifier& id, const SchemaUpdate& update) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  FLOE_ASSIGN_OR_RETURN(MetadataChange change, update.Plan(table.metadata));
  return CommitMetadataChange(catalog, id, change);
}

Result<LoadedTable> AddColumn(Catalog& catalog, const TableIdentifier& id, const std::string& name, TypePtr type,
                              const std::string& doc) {
  return UpdateSchema(catalog, id, SchemaUpdate().AddColumn(name, std::move(type), doc));
}

Result<LoadedTable> RenameColumn(Catalog& catalog, const TableIdentifier& id, const std::string& name,
                                 const std::string& new_name) {
  return UpdateSchema(catalog, id, SchemaUpdate().RenameColumn(name, new_name));
}

Result<LoadedTable> DropColumn(Catalog& catalog, const TableIdentifier& id, const std::string& name) {
  return UpdateSchema(catalog, id, SchemaUpdate().DropColumn(name));
}

Result<LoadedTable> UpdateColumnType(Catalog& catalog, const TableIdentifier& id, const std::string& name,
                                     TypePtr type) {
  return UpdateSchema(catalog, id, SchemaUpdate().UpdateColumnType(name, std::move(type)));
}

Result<LoadedTable> SetIdentifierFields(Catalog& catalog, const TableIdentifier& id,
                                        const std::vector<std::string>& names) {
  return UpdateSchema(catalog, id, SchemaUpdate().SetIdentifierFields(names));
}

}  // namespace floe
