// SchemaInfo (floe/schema_info.h) from a table's metadata: the fields in schema order, each
// nested field right after its parent, under its dotted name.
#include "floe/schema_info.h"

#include <algorithm>

#include "api/api_internal.h"
#include "meta/metadata_json.h"
#include "types/schema_text.h"

namespace floe {
namespace {

void AddColumns(const Schema& schema, const std::vector<NestedField>& fields, const std::string& prefix,
                std::vector<ColumnInfo>& out) {
  const std::vector<int>& identifiers = schema.identifier_field_ids();
  for (const auto& f : fields) {
    bool identifier = std::find(identifiers.begin(), identifiers.end(), f.id) != identifiers.end();
    // A nested type in the schema text's form ("struct<street: string, zip int>"), which
    // `floe create --schema` and `schema add-column` take back; its fields follow on their own rows.
    std::string type = f.type->is_nested() ? TypeToText(*f.type) : f.type->ToString();
    out.push_back({f.id, prefix + f.name, std::move(type), f.required, identifier, f.doc});
    if (f.type->is_nested()) AddColumns(schema, f.type->fields(), prefix + f.name + ".", out);
  }
}

}  // namespace

SchemaInfo SchemaInfoOf(const TableMetadata& metadata) {
  const Schema& schema = metadata.CurrentSchema();
  SchemaInfo info;
  info.schema_id = schema.schema_id();
  AddColumns(schema, schema.fields(), "", info.columns);
  info.spec_id = metadata.default_spec_id;
  info.partition_spec = metadata.DefaultSpec().ToString(schema);
  nlohmann::json json = SchemaToJson(schema);
  json["partition-spec"] = PartitionSpecToJson(metadata.DefaultSpec());
  info.json = json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return info;
}

Result<SchemaInfo> Table::CurrentSchema() const {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, impl_->catalog->LoadTable(impl_->id));
  return SchemaInfoOf(table.metadata);
}

}  // namespace floe
