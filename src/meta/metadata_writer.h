// Writing metadata documents with the text of an earlier one reused.
//
// Every commit writes a whole new document, and with a long history almost all of it is
// snapshots the previous document already held, unchanged: a snapshot never changes once
// added (MetadataBuilder adds and removes snapshots, it never edits one). Keeping the text a
// document was written with lets its successor copy those snapshots instead of serializing
// them again. The bytes are exactly WriteTableMetadata's.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "meta/table_metadata.h"

namespace floe {

// A document's text and where each snapshot's text lies in it: a document floe wrote
// (WriteTableMetadataText) or one it read (ParseTableMetadataReusing, metadata_reuse.h). Only
// the first kind may be a writer's `previous`: the writer copies its text verbatim.
struct MetadataText {
  std::string text;
  int format_version = 0;
  std::vector<int64_t> snapshot_ids;                  // in document order
  std::vector<std::pair<size_t, size_t>> snapshot_spans;  // [begin, end) in `text`, same order
  // The snapshot-log's entries, [begin, end) in `text`, in order: a parse reuses them too.
  std::vector<std::pair<size_t, size_t>> snapshot_log_spans;
  // False when a string of the snapshots or logs was not UTF-8 and was written with
  // replacement characters: parsing `text` then does not give back the metadata written.
  bool reparses_exactly = true;
};

// Writes `m`, as WriteTableMetadata does. Snapshots of `m` found in `previous` (same id, same
// format version) are copied from its text: `previous` must be the text of a document `m` was
// built from (or of `m` itself), so that a snapshot id names the same snapshot in both.
std::shared_ptr<const MetadataText> WriteTableMetadataText(const TableMetadata& m, const MetadataText* previous);

}  // namespace floe
