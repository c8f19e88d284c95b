// Shared by meta/'s tests only: where the fixtures are, and small tables to build on.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "meta/metadata_builder.h"

namespace floe::testing {

// $FLOE_FIXTURES, else the shared fixtures beside the source tree; empty when neither exists.
inline std::filesystem::path FixturesDir() {
  if (const char* env = std::getenv("FLOE_FIXTURES"); env && *env && std::filesystem::exists(env)) return env;
  std::filesystem::path beside = std::filesystem::path(FLOE_SOURCE_DIR) / ".." / "shared" / "fixtures";
  if (std::filesystem::exists(beside)) return beside;
  return {};
}

inline std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// id: long (required, identifier), data: string, ts: timestamptz.
inline Schema SampleSchema() {
  return Schema(0,
                {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "data", Type::String(), false, ""},
                 NestedField{3, "ts", Type::TimestampTz(), false, ""}},
                {1});
}

inline Snapshot MakeSnapshot(int64_t id, std::optional<int64_t> parent, int64_t seq, int64_t ts) {
  Snapshot s;
  s.snapshot_id = id;
  s.parent_snapshot_id = parent;
  s.sequence_number = seq;
  s.timestamp_ms = ts;
  s.manifest_list = "s3://bucket/t/metadata/snap-" + std::to_string(id) + ".avro";
  s.summary = {{"operation", "append"}, {"added-data-files", "1"}};
  s.schema_id = 0;
  return s;
}

inline SnapshotRef Branch(int64_t id) { return SnapshotRef{id, RefType::kBranch, {}, {}, {}}; }

// A fresh v2 table: sample schema, partitioned by day(ts), no snapshots.
inline TableMetadata NewSampleTable(int format_version = 2, int64_t now_ms = 1000) {
  std::vector<PartitionField> fields{PartitionField{3, 1000, "ts_day", Transform::Day()}};
  auto updates = NewTableUpdates(SampleSchema(), PartitionSpec(0, fields), SortOrder::Unsorted(), "s3://bucket/t", {},
                                 format_version);
  auto builder = MetadataBuilder::ForNewTable(format_version);
  (void)builder.ApplyAll(*updates);
  return *builder.Build(now_ms);
}

}  // namespace floe::testing
