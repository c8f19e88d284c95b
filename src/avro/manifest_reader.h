// Reading Iceberg manifests (v1-v3, data and delete) from bytes, as any Iceberg writer makes them.
//
// Fields are matched to the spec by field id, then by name; unknown fields are skipped, absent
// optional fields read as empty. The partition spec and schema come from the file's key-value
// metadata, or, when a writer left them out, from the caller's table metadata; failing both,
// partition values are typed from the Avro schema itself.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "meta/data_file.h"
#include "meta/manifest_file.h"
#include "meta/table_metadata.h"

namespace floe {

namespace avro {
class Decoder;
class FileReader;
}

class ManifestHeaderCache;
struct ManifestLayout;  // what a header decides: field plans and ManifestInfo (manifest_reader.cc)

struct ManifestReadOptions {
  // The manifest's entry in its manifest list. When given, entries inherit snapshot id and
  // sequence numbers from it per the spec (null snapshot id: the manifest's added_snapshot_id;
  // null sequence numbers of ADDED entries, or of any entry in a v1 manifest: its
  // sequence_number; v3 first_row_id likewise). When absent, nulls stay null, except that v1
  // manifests' sequence numbers read as 0.
  const ManifestFile* manifest = nullptr;
  // Supplies schema and spec when the file's metadata lacks them.
  const TableMetadata* table = nullptr;
  // The columns (field ids) whose metrics (sizes, counts, bounds) entries get; absent = all.
  // The others are read past without being stored: a scan planner asks for the columns its
  // filter names, then for all of them (ReadAllMetrics) only for the files it keeps.
  std::optional<std::vector<int>> metric_field_ids = std::nullopt;
  // Shares the work of reading headers between the readers of one table's manifests; every
  // reader given one cache must be given the same `table`.
  ManifestHeaderCache* header_cache = nullptr;
  // Holds the manifest's decompressed blocks (avro::FileReader::Open): a caller reading many
  // manifests in turn passes one buffer, not used by two readers at once.
  std::string* block_buffer = nullptr;
};

// What the header says about the manifest.
struct ManifestInfo {
  int format_version = 1;
  ManifestContent content = ManifestContent::kData;
  int spec_id = 0;
  std::optional<Schema> schema;  // absent when neither the file nor the table gives one
  PartitionSpec spec;            // fields are empty when unknown (the partition type then comes from Avro)
  TypePtr partition_type;        // the struct type of every entry's partition tuple
  std::map<std::string, std::string> metadata;  // the header's key-value metadata, avro.* excluded
};

// What the readers of one table's manifests (a scan planning pass) can share: the manifests
// one writer wrote for one table repeat the same header, so its Avro schema, how its fields map
// to the spec's and the resolved ManifestInfo are worked out once per distinct header (and
// manifest list content and spec id) instead of once per manifest. Thread-safe; keeps at most
// kMaxHeaders headers, past which a new header is resolved but not kept.
class ManifestHeaderCache {
 public:
  static constexpr size_t kMaxHeaders = 64;
  ManifestHeaderCache();
  ~ManifestHeaderCache();
  ManifestHeaderCache(const ManifestHeaderCache&) = delete;
  ManifestHeaderCache& operator=(const ManifestHeaderCache&) = delete;

 private:
  friend class ManifestReader;
  Result<std::shared_ptr<const ManifestLayout>> Find(const avro::FileReader& file, std::string_view path,
                                                     const ManifestReadOptions& options);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Streams the entries of one manifest; `bytes` must outlive the reader.
class ManifestReader {
 public:
  // `path` names the file in error messages.
  static Result<ManifestReader> Open(std::string_view bytes, std::string_view path,
                                     const ManifestReadOptions& options = {});
  ManifestReader(ManifestReader&&) noexcept;
  ManifestReader& operator=(ManifestReader&&) noexcept;
  ~ManifestReader();

  const ManifestInfo& info() const;

  // Reads the next entry into *entry (overwriting it); false after the last.
  Result<bool> Next(ManifestEntry* entry);
  // The same, with the entry's data file decoded into *file instead of entry->file (left as
  // it is): a caller building its own records around DataFiles decodes each in its place.
  Result<bool> Next(ManifestEntry* entry, DataFile* file);

  // Every column's metrics of the entry Next returned last, into `file` (its metric maps are
  // replaced); call before the next Next.
  Status ReadAllMetrics(DataFile* file);

 private:
  struct State;
  explicit ManifestReader(std::unique_ptr<State> state);
  static Result<ManifestReader> OpenImpl(std::string_view bytes, std::string_view path,
                                         const ManifestReadOptions& options);
  Result<bool> NextImpl(ManifestEntry* entry, DataFile* file);
  static Status DecodeEntry(State& s, avro::Decoder& d, ManifestEntry* out, DataFile* file,
                            const std::vector<int>* metric_ids);
  static Status ReadOptionalLong(State& s, avro::Decoder& d, std::string_view field, OptionalLong* out);
  std::unique_ptr<State> state_;
};

struct ManifestContents {
  ManifestInfo info;
  std::vector<ManifestEntry> entries;
};

Result<ManifestContents> ReadManifest(std::string_view bytes, std::string_view path,
                                      const ManifestReadOptions& options = {});

// The manifest list entry describing a manifest, computed by reading it: counts, partition
// summaries, min sequence number. For v1 snapshots that list manifests without a manifest list
// (Snapshot::v1_manifests): `snapshot_id` stands in for entries without one.
Result<ManifestFile> SummarizeManifest(std::string_view bytes, std::string_view path, int64_t snapshot_id,
                                       const TableMetadata* table = nullptr);

}  // namespace floe
