// Internal to meta/: insertion-ordered JSON writers behind metadata_json.h.
//
// Metadata documents are written with Iceberg's own key order (format-version first, ...), so
// the writers build nlohmann::ordered_json; the public *ToJson functions convert to
// nlohmann::json for callers that only need the values.
#pragma once

#include <nlohmann/json.hpp>

#include "meta/snapshot.h"
#include "meta/table_metadata.h"
#include "types/partition_spec.h"
#include "types/schema.h"
#include "types/sort_order.h"

namespace floe::internal {

using Ordered = nlohmann::ordered_json;

// Appends a member to an ordered object without looking for an existing key. ordered_json's
// operator[] searches its members one by one, so filling an object of n keys through it takes
// n^2/2 comparisons (a table of 300,000 properties: minutes); callers whose keys are already
// unique (they come from a std::map) append in constant time instead.
inline void AppendUnique(Ordered& object, std::string key, Ordered value) {
  using Members = std::vector<std::pair<const std::string, Ordered>>;
  static_cast<Members&>(object.get_ref<Ordered::object_t&>()).emplace_back(std::move(key), std::move(value));
}

Ordered TypeToOrdered(const Type& t);
Ordered SchemaToOrdered(const Schema& s);
Ordered PartitionFieldsToOrdered(const PartitionSpec& s);
Ordered PartitionSpecToOrdered(const PartitionSpec& s);
Ordered SortOrderToOrdered(const SortOrder& o);
Ordered SnapshotToOrdered(const Snapshot& s);
Ordered SnapshotRefToOrdered(const SnapshotRef& r);
Ordered StatisticsFileToOrdered(const StatisticsFile& f);
Ordered PartitionStatisticsFileToOrdered(const PartitionStatisticsFile& f);

// A metadata document in parts, for the writer (metadata_writer.cc): the fields from
// format-version to refs, then the two statistics lists. Snapshots and the logs, the parts that
// grow with history, are written by hand there.
Ordered MetadataHeadToOrdered(const TableMetadata& m);
Ordered StatisticsToOrdered(const TableMetadata& m);
Ordered PartitionStatisticsToOrdered(const TableMetadata& m);
// The document as nlohmann writes it from one ordered value: what WriteTableMetadata must
// produce byte for byte (tests compare the two).
std::string WriteTableMetadataReference(const TableMetadata& m);

// TableMetadataFromJson with some of the long lists already parsed: each one given (moved
// from) stands for the document's own list of that name, which `j` then need not hold. The
// incremental parse (metadata_reuse.cc) reads the rest of a document this way.
struct ParsedLists {
  std::vector<Snapshot>* snapshots = nullptr;             // "snapshots"
  std::vector<SnapshotLogEntry>* snapshot_log = nullptr;  // "snapshot-log"
};
Result<TableMetadata> TableMetadataFromJson(const nlohmann::json& j, const ParsedLists& parsed);
// The JSON of a metadata document, nested at most 512 deep (so the recursive type readers
// cannot exhaust the stack); Corrupt with a byte offset, never the text, when it is not JSON.
Result<nlohmann::json> ParseMetadataText(std::string_view text);
Result<SnapshotLogEntry> SnapshotLogEntryFromJson(const nlohmann::json& j);

Result<StatisticsFile> StatisticsFileFromJson(const nlohmann::json& j);
Result<PartitionStatisticsFile> PartitionStatisticsFileFromJson(const nlohmann::json& j);

}  // namespace floe::internal
