// The JSON forms of table metadata and its parts, per the Iceberg table spec.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "meta/table_metadata.h"

namespace floe {

// Parses a metadata document (v1, v2, v3) and checks it (TableMetadata::Validate). Errors
// name the problem, e.g. "Unsupported format version: 42", "partition-specs must exist in
// format v2", "Cannot find schema with current-schema-id=2", "Cannot parse type from json ...".
// A view document is refused as "not a table metadata document: this is a view, not a table".
// Error kind: Corrupt, or NotSupported for a format version floe does not know. The parts'
// parsers below (schema, spec, ...) return InvalidArgument.
//
// Reading fills what older versions leave implicit: v1's single schema / partition-spec, the
// unsorted order, last-sequence-number 0, and a main branch at current-snapshot-id when the
// document has no main ref. Fields' v3 defaults (initial-default / write-default) are kept and
// written back. Not modelled (read past, not written back): encryption-keys.
Result<TableMetadata> ParseTableMetadata(std::string_view json_text);
Result<TableMetadata> TableMetadataFromJson(const nlohmann::json& j);
nlohmann::json TableMetadataToJson(const TableMetadata& m);
// Pretty JSON in Iceberg's key order; v1 documents also carry "schema" and "partition-spec"
// for older readers; no current snapshot is written as -1.
std::string WriteTableMetadata(const TableMetadata& m);

// Parse then write: what `floe inspect` prints for a metadata document. The error is the
// parser's (kind Corrupt, or NotSupported for an unknown format version).
Result<std::string> NormalizeMetadataJson(std::string_view json_text);

nlohmann::json TypeToJson(const Type& t);
Result<TypePtr> TypeFromJson(const nlohmann::json& j);
nlohmann::json SchemaToJson(const Schema& s);
Result<Schema> SchemaFromJson(const nlohmann::json& j);
nlohmann::json PartitionSpecToJson(const PartitionSpec& s);       // {"spec-id":..,"fields":[..]}
Result<PartitionSpec> PartitionSpecFromJson(const nlohmann::json& j, int default_spec_id = 0);  // object or v1 array
nlohmann::json PartitionFieldsToJson(const PartitionSpec& s);     // the bare fields array
nlohmann::json SortOrderToJson(const SortOrder& o);
Result<SortOrder> SortOrderFromJson(const nlohmann::json& j);
nlohmann::json SnapshotToJson(const Snapshot& s);
Result<Snapshot> SnapshotFromJson(const nlohmann::json& j);
nlohmann::json SnapshotRefToJson(const SnapshotRef& r);
Result<SnapshotRef> SnapshotRefFromJson(const nlohmann::json& j);

}  // namespace floe
