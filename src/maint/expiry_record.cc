#include "maint/expiry_record.h"

#include <set>

#include <nlohmann/json.hpp>

#include "meta/json_fields.h"
#include "table_files/metadata_location.h"
#include "util/uuid.h"

namespace floe {
namespace {

using Json = nlohmann::json;

Result<ExpiryRecord> ParseRecord(const std::string& text, const std::string& location) {
  namespace jf = json_fields;
  Json j = Json::parse(text, nullptr, false);
  auto bad = [&](const std::string& why) { return Corrupt("expiry record " + location + ": " + why); };
  if (!j.is_object()) return bad("not a JSON object");
  ExpiryRecord record;
  record.location = location;
  auto created = jf::GetLong(j, "created-ms");
  if (!created) return bad(created.error().message);
  record.created_ms = *created;
  const Json* snapshots = jf::Find(j, "snapshots");
  if (!snapshots || !snapshots->is_array()) return bad("missing 'snapshots' list");
  for (const Json& s : *snapshots) {
    Snapshot snapshot;
    auto id = jf::GetLong(s, "snapshot-id");
    auto list = jf::GetString(s, "manifest-list");
    if (!id || !list) return bad("a snapshot without snapshot-id or manifest-list");
    snapshot.snapshot_id = *id;
    snapshot.manifest_list = *list;
    if (const Json* v1 = jf::Find(s, "manifests")) {
      auto manifests = jf::ToStringList(*v1, "manifests");
      if (!manifests) return bad(manifests.error().message);
      snapshot.v1_manifests = std::move(*manifests);
    }
    record.snapshots.push_back(std::move(snapshot));
  }
  if (const Json* stats = jf::Find(j, "statistics")) {
    auto paths = jf::ToStringList(*stats, "statistics");
    if (!paths) return bad(paths.error().message);
    record.statistics = std::move(*paths);
  }
  return record;
}

}  // namespace

bool IsExpiryRecord(std::string_view path) {
  size_t slash = path.rfind('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return name.starts_with(kExpiryRecordPrefix) && name.ends_with(".json");
}

Result<ExpiryRecord> WriteExpiryRecord(FileIO& io, const TableMetadata& table, const std::vector<int64_t>& snapshot_ids,
                                       int64_t now_ms) {
  ExpiryRecord record;
  record.location = MetadataFolder(table) + "/" + kExpiryRecordPrefix + RandomUuidString() + ".json";
  record.created_ms = now_ms;
  std::set<int64_t> ids(snapshot_ids.begin(), snapshot_ids.end());
  Json j = {{"table-uuid", table.table_uuid}, {"created-ms", now_ms}, {"snapshots", Json::array()}};
  for (const auto& s : table.snapshots) {
    if (!ids.contains(s.snapshot_id)) continue;
    Json entry = {{"snapshot-id", s.snapshot_id}, {"manifest-list", s.manifest_list}};
    if (!s.v1_manifests.empty()) entry["manifests"] = s.v1_manifests;
    j["snapshots"].push_back(std::move(entry));
    Snapshot kept;
    kept.snapshot_id = s.snapshot_id;
    kept.manifest_list = s.manifest_list;
    kept.v1_manifests = s.v1_manifests;
    record.snapshots.push_back(std::move(kept));
  }
  for (const auto& s : table.statistics)
    if (ids.contains(s.snapshot_id)) record.statistics.push_back(s.statistics_path);
  for (const auto& s : table.partition_statistics)
    if (ids.contains(s.snapshot_id)) record.statistics.push_back(s.statistics_path);
  j["statistics"] = record.statistics;
  FLOE_RETURN_IF_ERROR(io.CreateIfAbsent(record.location, j.dump()));
  return record;
}

Result<std::vector<ExpiryRecord>> ListExpiryRecords(FileIO& io, const TableMetadata& table) {
  FLOE_ASSIGN_OR_RETURN(auto files, io.ListPrefix(MetadataFolder(table) + "/" + kExpiryRecordPrefix));
  std::vector<ExpiryRecord> records;
  for (const auto& f : files) {
    if (!IsExpiryRecord(f.path)) continue;
    auto text = io.ReadAll(f.path);
    if (!text) {
      if (text.error().kind == ErrorKind::kNotFound) continue;  // another run finished it
      return std::unexpected(text.error());
    }
    FLOE_ASSIGN_OR_RETURN(ExpiryRecord record, ParseRecord(*text, f.path));
    records.push_back(std::move(record));
  }
  return records;
}

}  // namespace floe
