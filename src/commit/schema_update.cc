#include "commit/schema_update.h"

#include "types/field_defaults.h"
#include "types/schema_text.h"

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

constexpr const char* kAllowedPromotions =
    "allowed: int -> long, float -> double, decimal(P,S) -> decimal(P',S) with P' > P; on format v3 also "
    "date -> timestamp or timestamp_ns";

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

std::string Quoted(const std::string& name) { return "'" + name + "'"; }

// The index path of a column through the nested types' fields(): a struct's fields, a list's
// one element (0), a map's key (0) and value (1). Their names ("element", "key", "value") are
// the fields' own names, so one lookup by name serves every kind.
Result<std::vector<size_t>> Locate(const std::vector<NestedField>& top, const std::string& name) {
  if (name.empty()) return InvalidArgument("a column name is empty");
  std::vector<size_t> path;
  const std::vector<NestedField>* fields = &top;
  const Type* container = nullptr;  // the nested type holding *fields; null at the top level
  std::vector<std::string> parts = SplitName(name);
  for (size_t p = 0; p < parts.size(); ++p) {
    auto it = std::find_if(fields->begin(), fields->end(), [&](const NestedField& f) { return f.name == parts[p]; });
    if (it == fields->end()) {
      std::string hint;
      if (container && container->id() == TypeId::kList) hint = " (a list's values are reached as '<list>.element')";
      if (container && container->id() == TypeId::kMap) hint = " (a map's key and value are reached as '<map>.key' and '<map>.value')";
      return InvalidArgument("column " + Quoted(name) + " is not in the table's schema" + hint);
    }
    path.push_back(static_cast<size_t>(it - fields->begin()));
    if (p + 1 < parts.size()) {
      if (it->type->is_primitive())
        return InvalidArgument("column " + Quoted(name) + ": '" + parts[p] + "' is a " + it->type->ToString() +
                               ", not a struct, list or map");
      container = it->type.get();
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

// The kind of type whose fields hold the field at `path`: kStruct at the top level.
TypeId ParentKind(const std::vector<NestedField>& top, const std::vector<size_t>& path) {
  if (path.size() < 2) return TypeId::kStruct;
  return At(top, std::vector<size_t>(path.begin(), path.end() - 1)).type->id();
}

// Whether the field at `path` is a map's key or lies inside one (map keys never change shape).
bool InMapKey(const std::vector<NestedField>& top, const std::vector<size_t>& path) {
  const std::vector<NestedField>* fields = &top;
  for (size_t d = 0; d + 1 < path.size(); ++d) {
    const NestedField& f = (*fields)[path[d]];
    if (f.type->id() == TypeId::kMap && path[d + 1] == 0) return true;
    fields = &f.type->fields();
  }
  return false;
}

// `like`'s kind of nested type, holding `children` (types are immutable: a change rebuilds
// every type on the way up).
TypePtr Rebuild(const Type& like, std::vector<NestedField> children) {
  switch (like.id()) {
    case TypeId::kList: return Type::List(std::move(children[0]));
    case TypeId::kMap: return Type::Map(std::move(children[0]), std::move(children[1]));
    default: return Type::Struct(std::move(children));
  }
}

// Runs fn on the field list at `path` (a nested type's fields; the top level when empty),
// rebuilding the types on the way back up.
Status MutateList(std::vector<NestedField>& fields, const std::vector<size_t>& path, size_t depth,
                  const std::function<Status(std::vector<NestedField>&)>& fn) {
  if (depth == path.size()) return fn(fields);
  NestedField& f = fields[path[depth]];
  std::vector<NestedField> children = f.type->fields();
  FLOE_RETURN_IF_ERROR(MutateList(children, path, depth + 1, fn));
  f.type = Rebuild(*f.type, std::move(children));
  return Ok();
}

// Runs fn on the siblings holding the column `name`, its index among them, and the kind of
// type they belong to (kStruct at the top level).
Status MutateColumn(Working& w, const std::string& name,
                    const std::function<Status(std::vector<NestedField>&, size_t, TypeId)>& fn) {
  FLOE_ASSIGN_OR_RETURN(std::vector<size_t> path, Locate(w.fields, name));
  TypeId parent_kind = ParentKind(w.fields, path);
  size_t index = path.back();
  path.pop_back();
  return MutateList(w.fields, path, 0,
                    [&](std::vector<NestedField>& siblings) { return fn(siblings, index, parent_kind); });
}

// Refuses a change that would rename, drop or move what a list or map holds.
Status RefuseFixedName(TypeId parent_kind, const std::string& name, const std::string& what) {
  if (parent_kind == TypeId::kList)
    return InvalidArgument("Cannot " + what + " " + Quoted(name) + ": it is a list's element, whose name is fixed");
  if (parent_kind == TypeId::kMap)
    return InvalidArgument("Cannot " + what + " " + Quoted(name) + ": it is a map's key or value, whose name is fixed");
  return Ok();
}

void CollectIds(const NestedField& f, std::vector<int>* ids) {
  ids->push_back(f.id);
  for (const auto& c : f.type->fields()) CollectIds(c, ids);
}

bool IsIdentifier(const Working& w, int id) {
  return std::count(w.identifier_ids.begin(), w.identifier_ids.end(), id) > 0;
}

// date -> timestamp keeps a partition value only for the transforms counting days or coarser
// (identity and bucket would give other values for the same rows after the promotion).
Status CheckPartitionsAllowPromotion(const Working& w, const std::string& name, const NestedField& field,
                                     const Type& to) {
  if (field.type->id() != TypeId::kDate) return Ok();
  for (const auto& spec : w.base->partition_specs)
    for (const auto& pf : spec.fields()) {
      if (pf.source_id != field.id) continue;
      TransformKind k = pf.transform.kind();
      if (k == TransformKind::kYear || k == TransformKind::kMonth || k == TransformKind::kDay ||
          k == TransformKind::kVoid)
        continue;
      return InvalidArgument("Cannot change column type: " + name + ": date -> " + to.ToString() + ": partition field '" +
                             pf.name + "' (" + pf.transform.ToString() + ", spec " + std::to_string(spec.spec_id()) +
                             ") would give other values after the promotion");
    }
  return Ok();
}

Status Move(Working& w, const std::string& name, const std::string* other, bool after) {
  FLOE_ASSIGN_OR_RETURN(std::vector<size_t> path, Locate(w.fields, name));
  FLOE_RETURN_IF_ERROR(RefuseFixedName(ParentKind(w.fields, path), name, "move"));
  std::vector<size_t> parent(path.begin(), path.end() - 1);
  size_t other_index = 0;
  if (other) {
    if (*other == name) return InvalidArgument("Cannot move column " + Quoted(name) + " relative to itself");
    FLOE_ASSIGN_OR_RETURN(std::vector<size_t> other_path, Locate(w.fields, *other));
    if (std::vector<size_t>(other_path.begin(), other_path.end() - 1) != parent)
      return InvalidArgument("Cannot move column " + Quoted(name) + " next to " + Quoted(*other) +
                             ": they are in different structs (a field moves only within its struct)");
    other_index = other_path.back();
  }
  return MutateList(w.fields, parent, 0, [&](std::vector<NestedField>& siblings) -> Status {
    size_t from = path.back();
    NestedField moving = std::move(siblings[from]);
    siblings.erase(siblings.begin() + static_cast<long>(from));
    size_t at = 0;
    if (other) at = (other_index > from ? other_index - 1 : other_index) + (after ? 1 : 0);
    siblings.insert(siblings.begin() + static_cast<long>(at), std::move(moving));
    return Ok();
  });
}

}  // namespace

bool CanPromote(const Type& from, const Type& to, int format_version) {
  if (from.Equals(to)) return true;
  if (from.id() == TypeId::kInt && to.id() == TypeId::kLong) return true;
  if (from.id() == TypeId::kFloat && to.id() == TypeId::kDouble) return true;
  if (from.id() == TypeId::kDecimal && to.id() == TypeId::kDecimal)
    return to.scale() == from.scale() && to.precision() > from.precision();
  // v3 only, and never to a timestamp with a time zone (a date names no instant).
  if (from.id() == TypeId::kDate && format_version >= 3)
    return to.id() == TypeId::kTimestamp || to.id() == TypeId::kTimestampNs;
  return false;
}

SchemaUpdate& SchemaUpdate::AddColumn(std::string name, TypePtr type, std::string doc,
                                      std::optional<Literal> default_value) {
  steps_.push_back([=](Working& w) -> Status {
    if (!type) return InvalidArgument("Cannot add column " + Quoted(name) + ": no type given");
    if (type->is_nested() && default_value && !default_value->is_null())
      return InvalidArgument("Cannot add column " + Quoted(name) + ": a " + type->ToString() +
                             " column cannot have a default value");
    std::optional<std::string> default_json;
    if (default_value && !default_value->is_null()) {
      auto cast = default_value->CastTo(type);
      if (!cast)
        return InvalidArgument("Cannot add column " + Quoted(name) + ": its default is not a " + type->ToString() +
                               ": " + cast.error().message);
      default_json = DefaultJson(*cast);
    }
    std::vector<std::string> parts = SplitName(name);
    const std::string leaf = parts.back();
    if (leaf.empty()) return InvalidArgument("Cannot add a column with an empty name (" + Quoted(name) + ")");
    std::vector<size_t> parent;
    if (parts.size() > 1) {
      std::string parent_name = name.substr(0, name.size() - leaf.size() - 1);
      FLOE_ASSIGN_OR_RETURN(parent, Locate(w.fields, parent_name));
      // "points.x" for a list of structs means its element's field, as "tags.x" means the
      // struct value's field of a map (Iceberg's own shorthand); the long forms work too.
      const Type* holder = At(w.fields, parent).type.get();
      if (holder->id() == TypeId::kList && holder->fields()[0].type->id() == TypeId::kStruct) parent.push_back(0);
      if (holder->id() == TypeId::kMap && holder->fields()[1].type->id() == TypeId::kStruct) parent.push_back(1);
      if (At(w.fields, parent).type->id() != TypeId::kStruct)
        return InvalidArgument("Cannot add column " + Quoted(name) + ": " + Quoted(parent_name) + " is a " +
                               At(w.fields, parent).type->ToString() + ", not a struct");
      if (InMapKey(w.fields, parent))
        return InvalidArgument("Cannot add column " + Quoted(name) + ": a map's key cannot gain fields");
    }
    return MutateList(w.fields, parent, 0, [&](std::vector<NestedField>& siblings) -> Status {
      for (const auto& f : siblings)
        if (f.name == leaf)
          return InvalidArgument("Cannot add column " + Quoted(name) + ": a column of that name already exists");
      // The column's id first, then what it nests, as Iceberg assigns fresh ids.
      const int added_id = ++w.last_column_id;
      NestedField added{added_id, leaf, AssignFreshIds(type, &w.last_column_id), false, doc};
      added.initial_default = default_json;  // v1/v2 tables refuse these (meta/builder_finish.h)
      added.write_default = default_json;
      siblings.push_back(std::move(added));
      return Ok();
    });
  });
  return *this;
}

SchemaUpdate& SchemaUpdate::RenameColumn(std::string name, std::string new_name) {
  steps_.push_back([=](Working& w) {
    if (new_name.empty() || new_name.find('.') != std::string::npos)
      return Status(InvalidArgument("Cannot rename column " + Quoted(name) + " to " + Quoted(new_name) +
                                    ": a new name must be non-empty and hold no '.'"));
    return MutateColumn(w, name, [&](std::vector<NestedField>& siblings, size_t i, TypeId parent_kind) -> Status {
      FLOE_RETURN_IF_ERROR(RefuseFixedName(parent_kind, name, "rename"));
      for (size_t j = 0; j < siblings.size(); ++j)
        if (j != i && siblings[j].name == new_name)
          return InvalidArgument("Cannot rename column " + Quoted(name) + " to " + Quoted(new_name) +
                                 ": a column of that name already exists");
      siblings[i].name = new_name;
      return Ok();
    });
  });
  return *this;
}

SchemaUpdate& SchemaUpdate::DropColumn(std::string name) {
  steps_.push_back([=](Working& w) -> Status {
    FLOE_ASSIGN_OR_RETURN(std::vector<size_t> path, Locate(w.fields, name));
    if (InMapKey(w.fields, path))
      return InvalidArgument("Cannot drop column " + Quoted(name) + ": a map's key cannot lose fields");
    return MutateColumn(w, name, [&](std::vector<NestedField>& siblings, size_t i, TypeId parent_kind) -> Status {
      FLOE_RETURN_IF_ERROR(RefuseFixedName(parent_kind, name, "drop"));
      std::vector<int> ids;
      CollectIds(siblings[i], &ids);
      for (int id : ids) {
        if (IsIdentifier(w, id))
          return InvalidArgument("Cannot delete identifier field " + Quoted(name) +
                                 "; remove it from the identifier fields first");
        for (const auto& pf : w.base->DefaultSpec().fields())
          if (pf.source_id == id)
            return InvalidArgument("Cannot drop column " + Quoted(name) + ": partition field '" + pf.name +
                                   "' of the default partition spec uses it (remove that partition field first)");
        if (const SortOrder* order = w.base->SortOrderById(w.base->default_sort_order_id))
          for (const auto& sf : order->fields())
            if (sf.source_id == id)
              return InvalidArgument("Cannot drop column " + Quoted(name) + ": the default sort order uses it");
      }
      if (siblings.size() == 1) {
        if (&siblings == &w.fields)
          return InvalidArgument("Cannot drop column " + Quoted(name) + ": a table needs at least one column");
        return InvalidArgument("Cannot drop column " + Quoted(name) +
                               ": it is its struct's only field (drop the struct instead)");
      }
      siblings.erase(siblings.begin() + static_cast<long>(i));
      return Ok();
    });
  });
  return *this;
}

SchemaUpdate& SchemaUpdate::UpdateColumnType(std::string name, TypePtr type) {
  steps_.push_back([=](Working& w) {
    return MutateColumn(w, name, [&](std::vector<NestedField>& siblings, size_t i, TypeId) -> Status {
      if (!type) return InvalidArgument("Cannot change the type of column " + Quoted(name) + ": no type given");
      const Type& from = *siblings[i].type;
      if (!from.is_primitive() || !type->is_primitive())
        return InvalidArgument("Cannot change column type: " + name + ": " + from.ToString() + " -> " +
                               type->ToString() + " (only primitive types are promoted)");
      const int version = w.base->format_version;
      if (!CanPromote(from, *type, version)) {
        bool needs_v3 = CanPromote(from, *type, 3);
        return InvalidArgument("Cannot change column type: " + name + ": " + from.ToString() + " -> " +
                               type->ToString() +
                               (needs_v3 ? " needs a format version 3 table (this one is version " +
                                               std::to_string(version) + ")"
                                         : std::string(" (") + kAllowedPromotions + ")"));
      }
      FLOE_RETURN_IF_ERROR(CheckPartitionsAllowPromotion(w, name, siblings[i], *type));
      siblings[i].type = type;
      return Ok();
    });
  });
  return *this;
}

SchemaUpdate& SchemaUpdate::MakeColumnOptional(std::string name) {
  steps_.push_back([=](Working& w) {
    return MutateColumn(w, name, [&](std::vector<NestedField>& siblings, size_t i, TypeId parent_kind) -> Status {
      if (IsIdentifier(w, siblings[i].id))
        return InvalidArgument("Cannot make identifier field " + Quoted(name) + " optional");
      if (parent_kind == TypeId::kMap && i == 0)
        return InvalidArgument("Cannot make map key " + Quoted(name) + " optional: map keys are always required");
      siblings[i].required = false;
      return Ok();
    });
  });
  return *this;
}

SchemaUpdate& SchemaUpdate::RequireColumn(std::string name) {
  steps_.push_back([=](Working& w) {
    return MutateColumn(w, name, [&](std::vector<NestedField>& siblings, size_t i, TypeId) -> Status {
      // Files written while it was optional may hold nulls: a required column cannot read them.
      if (!siblings[i].required)
        return InvalidArgument("cannot make optional column " + Quoted(name) +
                               " required: files written before may hold nulls in it");
      return Ok();
    });
  });
  return *this;
}

SchemaUpdate& SchemaUpdate::UpdateColumnDoc(std::string name, std::string doc) {
  steps_.push_back([=](Working& w) {
    return MutateColumn(w, name, [&](std::vector<NestedField>& siblings, size_t i, TypeId parent_kind) -> Status {
      if (parent_kind != TypeId::kStruct)
        return InvalidArgument("Cannot set the doc of " + Quoted(name) +
                               ": Iceberg keeps no doc for a list's element or a map's key or value");
      siblings[i].doc = doc;
      return Ok();
    });
  });
  return *this;
}

SchemaUpdate& SchemaUpdate::UpdateColumn(const std::string& name, const ColumnChange& change) {
  if (change.make_optional && change.make_required) {
    steps_.push_back([name](Working&) {
      return Status(InvalidArgument("Cannot make column " + Quoted(name) + " both optional and required"));
    });
    return *this;
  }
  if (change.type) UpdateColumnType(name, change.type);
  if (change.make_optional) MakeColumnOptional(name);
  if (change.make_required) RequireColumn(name);
  if (change.doc) UpdateColumnDoc(name, *change.doc);
  if (!change.type && !change.make_optional && !change.make_required && !change.doc)
    steps_.push_back([name](Working& w) -> Status {
      auto located = Locate(w.fields, name);  // names a column, even when it changes nothing
      if (!located) return std::unexpected(located.error());
      return Ok();
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

SchemaUpdate& SchemaUpdate::MoveColumn(const std::string& name, const ColumnPosition& position) {
  switch (position.where) {
    case ColumnPosition::Where::kFirst: return MoveFirst(name);
    case ColumnPosition::Where::kBefore: return MoveBefore(name, position.other);
    case ColumnPosition::Where::kAfter: return MoveAfter(name, position.other);
  }
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

Result<LoadedTable> UpdateColumn(Catalog& catalog, const TableIdentifier& id, const std::string& name,
                                 const ColumnChange& change) {
  return UpdateSchema(catalog, id, SchemaUpdate().UpdateColumn(name, change));
}

Result<LoadedTable> MoveColumn(Catalog& catalog, const TableIdentifier& id, const std::string& name,
                               const ColumnPosition& position) {
  return UpdateSchema(catalog, id, SchemaUpdate().MoveColumn(name, position));
}

Result<LoadedTable> SetIdentifierFields(Catalog& catalog, const TableIdentifier& id,
                                        const std::vector<std::string>& names) {
  return UpdateSchema(catalog, id, SchemaUpdate().SetIdentifierFields(names));
}

}  // namespace floe
