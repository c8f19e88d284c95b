// Data and delete files as manifests list them, and the manifest entry around each.
#pragma once

#include <cstdint>
#include <map>

#include <optional>
#include <string>
#include <vector>

#include "types/literal.h"
#include "util/flat_map.h"
#include "util/optional_long.h"
#include "util/optional_string.h"
#include "util/small_list.h"

namespace floe {

// Field ids of the columns of a position delete file (reserved by the spec).
inline constexpr int kDeleteFilePathFieldId = 2147483546;
inline constexpr int kDeletePosFieldId = 2147483545;

// One byte each: a planned data file is held per task, so its padding counts (see DataFile).
enum class FileContent : uint8_t { kData = 0, kPositionDeletes = 1, kEqualityDeletes = 2 };
enum class FileFormat : uint8_t { kParquet, kAvro, kOrc, kPuffin };

std::string_view FileContentName(FileContent c);  // "DATA", "POSITION_DELETES", "EQUALITY_DELETES"
std::string_view FileFormatName(FileFormat f);    // "PARQUET", "AVRO", "ORC", "PUFFIN"
Result<FileFormat> ParseFileFormat(std::string_view text);  // case-insensitive

// A plan holds one per task (millions for a large table, every byte a fresh page), so the
// layout is kept tight: the small fields share the first 8 bytes, and the rare fields are
// 8 bytes each when absent (OptionalString, OptionalLong) instead of std::optional's 16-40.
struct DataFile {
  FileContent content = FileContent::kData;
  FileFormat file_format = FileFormat::kParquet;
  int spec_id = 0;                 // the partition spec the tuple below follows
  std::string file_path;
  std::vector<Literal> partition;  // one value per field of that spec
  int64_t record_count = 0;
  int64_t file_size_in_bytes = 0;
  // Column metrics keyed by field id; bounds in Iceberg's single-value binary form.
  FlatMap<int, int64_t> column_sizes;
  FlatMap<int, int64_t> value_counts;
  FlatMap<int, int64_t> null_value_counts;
  FlatMap<int, int64_t> nan_value_counts;
  FlatMap<int, std::string> lower_bounds;
  FlatMap<int, std::string> upper_bounds;
  OptionalString key_metadata;  // rare: one pointer, not a 40-byte std::optional
  SmallList<int64_t> split_offsets;  // one per row group: one value needs no heap block
  std::vector<int> equality_ids;  // equality delete files only
  std::optional<int> sort_order_id;
  // v3
  OptionalLong first_row_id;
  OptionalString referenced_data_file;  // set on delete files only
  OptionalLong content_offset;          // deletion vectors only, with the size below
  OptionalLong content_size_in_bytes;
};

// Is `f` a deletion vector (format 3): a blob of a Puffin file holding the deleted positions of
// the one data file it references?
bool IsDeletionVector(const DataFile& f);
// What tells a content file apart from every other live one of a table: its path, and for a
// deletion vector also the blob's offset, since one Puffin file holds the vectors of many data
// files and each is added and removed on its own.
std::string ContentFileKey(const DataFile& f);

enum class EntryStatus { kExisting = 0, kAdded = 1, kDeleted = 2 };

// A manifest entry. New entries leave snapshot_id and both sequence numbers empty: they are
// inherited from the manifest list when read (DESIGN.md invariant 3), so a retried commit
// reuses its manifests unchanged.
struct ManifestEntry {
  EntryStatus status = EntryStatus::kAdded;
  std::optional<int64_t> snapshot_id;
  std::optional<int64_t> sequence_number;       // data sequence number
  std::optional<int64_t> file_sequence_number;
  DataFile file;
};

}  // namespace floe
