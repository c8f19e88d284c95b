#include "avro/avro_describe.h"

#include "avro/avro_file.h"
#include "avro/manifest_list.h"
#include "avro/manifest_reader.h"
#include "avro/manifest_schema.h"
#include "util/strings.h"

namespace floe {

namespace {

using nlohmann::json;

// A bound in binary form shown as its value when its type is known and it decodes.
json BoundToJson(const TypePtr& type, const std::string& bytes) {
  if (type && type->is_primitive()) {
    if (auto lit = Literal::FromBinary(type, bytes)) return lit->ToJson();
  }
  return Hex(bytes);
}

template <typename V>
json IdMap(const FlatMap<int, V>& m) {
  json out = json::object();
  for (const auto& [k, v] : m) out[std::to_string(k)] = v;
  return out;
}

json JsonOrNull(const std::optional<int64_t>& v) { return v ? json(*v) : json(nullptr); }

std::string_view StatusName(EntryStatus s) {
  switch (s) {
    case EntryStatus::kExisting: return "EXISTING";
    case EntryStatus::kAdded: return "ADDED";
    case EntryStatus::kDeleted: return "DELETED";
  }
  return "?";
}

json DescribeEntry(const ManifestEntry& e, const ManifestInfo& info) {
  const DataFile& f = e.file;
  json partition = json::object();
  const auto& pfields = info.partition_type->fields();
  for (size_t i = 0; i < pfields.size() && i < f.partition.size(); ++i) {
    partition[pfields[i].name] = f.partition[i].is_null() ? json(nullptr) : f.partition[i].ToJson();
  }
  auto bounds = [&](const FlatMap<int, std::string>& m) {
    json out = json::object();
    for (const auto& [id, bytes] : m) {
      const NestedField* field = info.schema ? info.schema->FindField(id) : nullptr;
      out[std::to_string(id)] = BoundToJson(field ? field->type : nullptr, bytes);
    }
    return out;
  };
  json df = {
      {"content", FileContentName(f.content)},
      {"file_path", f.file_path},
      {"file_format", FileFormatName(f.file_format)},
      {"spec_id", f.spec_id},
      {"partition", std::move(partition)},
      {"record_count", f.record_count},
      {"file_size_in_bytes", f.file_size_in_bytes},
      {"column_sizes", IdMap(f.column_sizes)},
      {"value_counts", IdMap(f.value_counts)},
      {"null_value_counts", IdMap(f.null_value_counts)},
      {"nan_value_counts", IdMap(f.nan_value_counts)},
      {"lower_bounds", bounds(f.lower_bounds)},
      {"upper_bounds", bounds(f.upper_bounds)},
      {"key_metadata", f.key_metadata ? json(Hex(*f.key_metadata)) : json(nullptr)},
      // Optional lists: an empty one is how a null reads (and is written back as null).
      {"split_offsets", f.split_offsets.empty() ? json(nullptr) : json(f.split_offsets.ToVector())},
      {"equality_ids", f.equality_ids.empty() ? json(nullptr) : json(f.equality_ids)},
      {"sort_order_id", f.sort_order_id ? json(*f.sort_order_id) : json(nullptr)},
  };
  if (f.first_row_id) df["first_row_id"] = *f.first_row_id;
  if (f.referenced_data_file) df["referenced_data_file"] = *f.referenced_data_file;
  if (f.content_offset) df["content_offset"] = *f.content_offset;
  if (f.content_size_in_bytes) df["content_size_in_bytes"] = *f.content_size_in_bytes;
  return json{{"status", StatusName(e.status)},
              {"snapshot_id", JsonOrNull(e.snapshot_id)},
              {"sequence_number", JsonOrNull(e.sequence_number)},
              {"file_sequence_number", JsonOrNull(e.file_sequence_number)},
              {"data_file", std::move(df)}};
}

Result<json> DescribeManifest(std::string_view bytes, std::string_view path, const TableMetadata* table) {
  ManifestReadOptions options;
  options.table = table;
  FLOE_ASSIGN_OR_RETURN(ManifestReader reader, ManifestReader::Open(bytes, path, options));
  const ManifestInfo& info = reader.info();
  json entries = json::array();
  ManifestEntry e;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, reader.Next(&e));
    if (!more) break;
    entries.push_back(DescribeEntry(e, info));
  }
  json partition_fields = json::array();
  for (const auto& f : info.partition_type->fields()) {
    partition_fields.push_back({{"field-id", f.id}, {"name", f.name}, {"type", f.type->ToString()}});
  }
  return json{{"kind", "manifest"},
              {"path", std::string(path)},
              {"format-version", info.format_version},
              {"content", info.content == ManifestContent::kData ? "data" : "deletes"},
              {"partition-spec-id", info.spec_id},
              {"partition-type", std::move(partition_fields)},
              {"metadata", info.metadata},
              {"entries", std::move(entries)}};
}

Result<json> DescribeManifestList(std::string_view bytes, std::string_view path, const TableMetadata* table) {
  FLOE_ASSIGN_OR_RETURN(ManifestListContents list, ReadManifestList(bytes, path));
  json manifests = json::array();
  for (const ManifestFile& m : list.manifests) {
    TypePtr ptype;
    if (table && !table->schemas.empty()) {
      if (const PartitionSpec* spec = table->SpecById(m.partition_spec_id)) {
        if (auto t = spec->PartitionType(table->CurrentSchema())) ptype = *t;
      }
    }
    json partitions = json::array();
    for (size_t i = 0; i < m.partitions.size(); ++i) {
      const PartitionFieldSummary& s = m.partitions[i];
      TypePtr type = ptype && i < ptype->fields().size() ? ptype->fields()[i].type : nullptr;
      json p = {{"contains_null", s.contains_null},
                {"contains_nan", s.contains_nan ? json(*s.contains_nan) : json(nullptr)},
                {"lower_bound", s.lower_bound ? BoundToJson(type, *s.lower_bound) : json(nullptr)},
                {"upper_bound", s.upper_bound ? BoundToJson(type, *s.upper_bound) : json(nullptr)}};
      if (ptype && i < ptype->fields().size()) p["field"] = ptype->fields()[i].name;
      partitions.push_back(std::move(p));
    }
    json entry = {{"manifest_path", m.manifest_path},
                  {"manifest_length", m.manifest_length},
                  {"partition_spec_id", m.partition_spec_id},
                  {"content", m.content == ManifestContent::kData ? "data" : "deletes"},
                  {"sequence_number", m.sequence_number},
                  {"min_sequence_number", m.min_sequence_number},
                  {"added_snapshot_id", m.added_snapshot_id},
                  {"added_files_count", m.added_files_count},
                  {"existing_files_count", m.existing_files_count},
                  {"deleted_files_count", m.deleted_files_count},
                  {"added_rows_count", m.added_rows_count},
                  {"existing_rows_count", m.existing_rows_count},
                  {"deleted_rows_count", m.deleted_rows_count},
                  {"partitions", std::move(partitions)},
                  {"key_metadata", m.key_metadata ? json(Hex(*m.key_metadata)) : json(nullptr)}};
    if (m.first_row_id) entry["first_row_id"] = *m.first_row_id;
    manifests.push_back(std::move(entry));
  }
  return json{{"kind", "manifest-list"},
              {"path", std::string(path)},
              {"format-version", list.format_version},
              {"metadata", list.metadata},
              {"manifests", std::move(manifests)}};
}

}  // namespace

Result<nlohmann::json> DescribeAvroFile(std::string_view bytes, std::string_view path, const TableMetadata* table) {
  try {
    FLOE_ASSIGN_OR_RETURN(avro::FileReader file, avro::FileReader::Open(bytes, path));
    const avro::Node& root = file.schema().root();
    if (root.kind == avro::NodeKind::kRecord) {
      if (root.FindField(avro::ids::kManifestPath, "manifest_path")) return DescribeManifestList(bytes, path, table);
      if (root.FindField(avro::ids::kDataFile, "data_file")) return DescribeManifest(bytes, path, table);
    }
    return InvalidArgument(std::string(path) + ": an Avro file but neither a manifest nor a manifest list");
  } catch (const std::exception& e) {
    // nlohmann::json throws on invalid UTF-8 in strings it is asked to serialise later; keep
    // exceptions inside the library either way.
    return Corrupt(std::string(path) + ": " + e.what());
  }
}

}  // namespace floe
