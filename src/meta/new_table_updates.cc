// NewTableUpdates: the updates that create a table, with every field id assigned fresh.
//
// A user's schema may carry any ids (or ids from another table); a new table numbers its
// columns from 1 and its partition fields from 1000 so that ids never collide with history it
// does not have. Specs and sort orders refer to columns by id, so they are remapped through
// the same old-to-new map.
#include <charconv>

#include "meta/metadata_builder.h"
#include "meta/table_properties.h"
#include "util/uuid.h"

namespace floe {

namespace {

// Iceberg's order: a struct's own fields get consecutive ids first, then each field's nested
// type is numbered in turn (so top-level columns are 1..n).
class FreshIds {
 public:
  TypePtr Assign(const TypePtr& type) {
    switch (type->id()) {
      case TypeId::kStruct: {
        const auto& fields = type->fields();
        std::vector<int> ids;
        for (const auto& f : fields) ids.push_back(Take(f.id));
        std::vector<NestedField> out;
        for (size_t i = 0; i < fields.size(); ++i) {
          NestedField field = fields[i];  // name, doc and defaults as given
          field.id = ids[i];
          field.type = Assign(fields[i].type);
          out.push_back(std::move(field));
        }
        return Type::Struct(std::move(out));
      }
      case TypeId::kList: {
        const NestedField& e = type->fields()[0];
        int id = Take(e.id);
        return Type::List(NestedField{id, e.name, Assign(e.type), e.required, e.doc});
      }
      case TypeId::kMap: {
        const NestedField& k = type->fields()[0];
        const NestedField& v = type->fields()[1];
        int key_id = Take(k.id);
        int value_id = Take(v.id);
        NestedField key{key_id, k.name, Assign(k.type), true, k.doc};
        NestedField value{value_id, v.name, Assign(v.type), v.required, v.doc};
        return Type::Map(std::move(key), std::move(value));
      }
      default:
        return type;
    }
  }

  Result<int> Map(int old_id, const std::string& what) const {
    auto it = old_to_new_.find(old_id);
    if (it == old_to_new_.end())
      return InvalidArgument(what + " refers to source column id " + std::to_string(old_id) +
                             ", which is not in the schema");
    return it->second;
  }

  int last_assigned() const { return next_ - 1; }

 private:
  int Take(int old_id) {
    old_to_new_[old_id] = next_;
    return next_++;
  }

  int next_ = 1;
  std::map<int, int> old_to_new_;
};

}  // namespace

Result<std::vector<TableUpdate>> NewTableUpdates(const Schema& schema, const PartitionSpec& spec,
                                                 const SortOrder& order, const std::string& location,
                                                 const std::map<std::string, std::string>& properties,
                                                 int format_version) {
  if (location.empty()) return InvalidArgument("a new table needs a location");
  FLOE_RETURN_IF_ERROR(schema.Validate());

  // "format-version" is a reserved property: it chooses the version rather than being stored.
  std::map<std::string, std::string> props = properties;
  if (auto it = props.find(props::kFormatVersion); it != props.end()) {
    const std::string& text = it->second;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), format_version);
    if (ec != std::errc() || ptr != text.data() + text.size())
      return InvalidArgument("property format-version must be a number, got '" + text + "'");
    props.erase(it);
  }
  if (format_version < 1 || format_version > 3)
    return InvalidArgument("Unsupported format version for a new table: v" + std::to_string(format_version));

  FreshIds ids;
  TypePtr fresh_struct = ids.Assign(schema.AsStruct());
  std::vector<int> identifiers;
  for (int id : schema.identifier_field_ids()) {
    FLOE_ASSIGN_OR_RETURN(int fresh, ids.Map(id, "identifier field"));
    identifiers.push_back(fresh);
  }
  Schema fresh_schema(0, fresh_struct->fields(), std::move(identifiers));

  std::vector<PartitionField> spec_fields;
  for (const auto& f : spec.fields()) {
    FLOE_ASSIGN_OR_RETURN(int source, ids.Map(f.source_id, "partition field '" + f.name + "'"));
    std::vector<int> sources;
    for (int id : f.source_ids) {
      FLOE_ASSIGN_OR_RETURN(int fresh, ids.Map(id, "partition field '" + f.name + "'"));
      sources.push_back(fresh);
    }
    spec_fields.push_back(PartitionField{source, PartitionSpec::kFirstFieldId + static_cast<int>(spec_fields.size()),
                                         f.name, f.transform, std::move(sources)});
  }
  PartitionSpec fresh_spec(0, std::move(spec_fields));
  FLOE_RETURN_IF_ERROR(fresh_spec.Validate(fresh_schema));

  std::vector<SortField> order_fields;
  for (const auto& f : order.fields()) {
    SortField field = f;
    FLOE_ASSIGN_OR_RETURN(field.source_id, ids.Map(f.source_id, "sort field"));
    for (int& id : field.source_ids) {
      FLOE_ASSIGN_OR_RETURN(id, ids.Map(id, "sort field"));
    }
    order_fields.push_back(field);
  }
  SortOrder fresh_order(order_fields.empty() ? 0 : 1, std::move(order_fields));
  FLOE_RETURN_IF_ERROR(fresh_order.Validate(fresh_schema));

  std::vector<TableUpdate> updates;
  updates.push_back(AssignUuid{RandomUuidString()});
  updates.push_back(UpgradeFormatVersion{format_version});
  updates.push_back(AddSchema{fresh_schema, ids.last_assigned()});
  updates.push_back(SetCurrentSchema{-1});
  updates.push_back(AddPartitionSpec{fresh_spec});
  updates.push_back(SetDefaultSpec{-1});
  updates.push_back(AddSortOrder{fresh_order});
  updates.push_back(SetDefaultSortOrder{-1});
  updates.push_back(SetLocation{location});
  if (!props.empty()) updates.push_back(SetProperties{props});
  return updates;
}

namespace {

Result<TableMetadata> ApplyCreate(const std::vector<TableUpdate>& updates, int64_t now_ms) {
  // A create: the format version comes from the commit's own upgrade-format-version.
  int format_version = 2;
  for (const auto& u : updates)
    if (auto* v = std::get_if<UpgradeFormatVersion>(&u)) format_version = v->format_version;
  MetadataBuilder builder = MetadataBuilder::ForNewTable(format_version);
  FLOE_RETURN_IF_ERROR(builder.ApplyAll(updates));
  return builder.Build(now_ms);
}

}  // namespace

Result<TableMetadata> ApplyCommit(TableMetadata current, const std::string& current_location,
                                  const std::vector<TableRequirement>& requirements,
                                  const std::vector<TableUpdate>& updates, int64_t now_ms) {
  for (const auto& r : requirements) FLOE_RETURN_IF_ERROR(CheckRequirement(r, &current));
  MetadataBuilder builder = MetadataBuilder::From(std::move(current), current_location);
  FLOE_RETURN_IF_ERROR(builder.ApplyAll(updates));
  return builder.Build(now_ms);
}

Result<TableMetadata> ApplyCommit(const TableMetadata* current, const std::string& current_location,
                                  const std::vector<TableRequirement>& requirements,
                                  const std::vector<TableUpdate>& updates, int64_t now_ms) {
  // Requirements first: a commit that lost its race costs no copy of the history.
  for (const auto& r : requirements) FLOE_RETURN_IF_ERROR(CheckRequirement(r, current));
  if (!current) return ApplyCreate(updates, now_ms);
  return ApplyCommit(TableMetadata(*current), current_location, {}, updates, now_ms);
}

}  // namespace floe
