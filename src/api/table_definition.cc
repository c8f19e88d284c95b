// floe/table_definition.h: a definition checked and turned into a catalog's create request.
#include "floe/table_definition.h"

#include <algorithm>
#include <fstream>

#include "api/create_request.h"
#include "parquet/parquet_reader.h"
#include "types/partition_spec.h"
#include "types/schema_text.h"
#include "write/text_rows.h"

namespace floe {
namespace {

// The schema of a sample file: Parquet's own schema, or one inferred from CSV / JSON lines.
Result<Schema> SchemaLike(const std::string& path) {
  if (path.ends_with(".parquet")) {
    FLOE_ASSIGN_OR_RETURN(auto file, parquet::ParquetFile::OpenPath(path));
    return Schema(0, file->schema().fields());
  }
  FLOE_ASSIGN_OR_RETURN(TextFormat format, TextFormatFor(path, ""));
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound("--like: cannot open '" + path + "'");
  return InferSchema(in, format, path);
}

Result<Schema> SchemaOf(const TableDefinition& definition) {
  if (!definition.schema.empty() && !definition.schema_like.empty())
    return InvalidArgument("a table definition takes a schema or a sample file (schema_like), not both");
  if (!definition.schema_like.empty()) return SchemaLike(definition.schema_like);
  return ParseSchemaText(definition.schema);
}

// `schema` with `columns` as its identifier fields, made required (a new table has no rows).
Result<Schema> WithIdentifier(const Schema& schema, const std::vector<std::string>& columns) {
  if (columns.empty()) return schema;
  std::vector<NestedField> fields = schema.fields();
  std::vector<int> ids;
  for (const std::string& name : columns) {
    auto field = std::find_if(fields.begin(), fields.end(), [&](const NestedField& f) { return f.name == name; });
    if (field == fields.end()) return InvalidArgument("'" + name + "' is not a top-level column of the schema");
    if (std::count(ids.begin(), ids.end(), field->id)) return InvalidArgument("'" + name + "' is named twice");
    field->required = true;
    ids.push_back(field->id);
  }
  Schema keyed(schema.schema_id(), std::move(fields), std::move(ids));
  FLOE_RETURN_IF_ERROR(keyed.Validate());
  return keyed;
}

}  // namespace

Result<CreateTableRequest> CreateRequestFor(const TableDefinition& definition, DefinitionPart* failed_part) {
  CreateTableRequest request;
  *failed_part = DefinitionPart::kSchema;
  FLOE_ASSIGN_OR_RETURN(Schema schema, SchemaOf(definition));
  *failed_part = DefinitionPart::kIdentifier;
  FLOE_ASSIGN_OR_RETURN(request.schema, WithIdentifier(schema, definition.identifier_columns));
  *failed_part = DefinitionPart::kPartitionBy;
  FLOE_ASSIGN_OR_RETURN(std::vector<PartitionField> fields,
                        ParsePartitionFields(definition.partition_by, request.schema, PartitionSpec::kFirstFieldId));
  request.spec = PartitionSpec(0, std::move(fields));
  *failed_part = DefinitionPart::kFormatVersion;
  if (definition.format_version < 1 || definition.format_version > 3)
    return InvalidArgument("format version must be 1, 2 or 3, not " + std::to_string(definition.format_version));
  request.format_version = definition.format_version;
  request.properties = definition.properties;
  request.location = definition.location;
  return request;
}

std::optional<DefinitionProblem> CheckTableDefinition(const TableDefinition& definition) {
  DefinitionPart part;
  auto request = CreateRequestFor(definition, &part);
  if (request) return std::nullopt;
  return DefinitionProblem{part, request.error()};
}

}  // namespace floe
