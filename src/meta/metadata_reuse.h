// Parsing a metadata document with the parsed snapshots of an earlier one reused.
//
// Every commit writes a whole new document holding the table's whole history, and a writer
// that loses a compare-and-swap must parse the winner's. That document differs from one
// already parsed (its predecessor, or our own lost attempt) by a few snapshots, log entries
// and header fields, and a snapshot never changes once added. So the snapshots' text is
// located by a scan (json_scan.h), each snapshot whose bytes equal a snapshot's bytes in the
// earlier document's text is taken from the earlier parse, and only the others and the rest
// of the document go through the JSON parser. The snapshot-log, the other list that grows
// with history, is reused the same way.
//
// Bytes decide, never ids: a snapshot is reused only when its text is byte-identical, so the
// result is exactly ParseTableMetadata's, whatever engine wrote either document. Anything
// unusual (no single top-level "snapshots" array of objects, a key spelled with escapes, an
// error anywhere) falls back to ParseTableMetadata, so bad documents get its errors too.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "meta/metadata_writer.h"
#include "meta/table_metadata.h"

namespace floe {

// An earlier parsed document and its text; both null when there is none.
struct PreviousDocument {
  std::shared_ptr<const TableMetadata> metadata;
  // text->snapshot_spans[i] is metadata->snapshots[i]; text->snapshot_log_spans[i] is
  // metadata->snapshot_log[i].
  std::shared_ptr<const MetadataText> text;
  // The caller hands `metadata` over: it was created non-const and, when the parse runs, no
  // one else holds it. Its snapshots are then moved into the result, not copied (a long
  // history's copy costs about as much as all the rest of the parse).
  bool handed_over = false;
};

struct IndexedMetadata {
  TableMetadata metadata;
  // The document's text with its snapshots' spans, to be the previous of a later parse; null
  // when the scan could not locate them.
  std::shared_ptr<const MetadataText> text;
  size_t reused_snapshots = 0;  // how many snapshots came from the previous document
};

// Parses `text` as ParseTableMetadata does, reusing `previous`'s snapshots where their text is
// byte-identical. `previous` may be any document (of another table, or none: then nothing is
// reused), but `previous.text` must be the text `previous.metadata` was parsed from or
// written as.
Result<IndexedMetadata> ParseTableMetadataReusing(std::string text, const PreviousDocument& previous);

// The same, with the previous document chosen after the scan, by the document's table-uuid
// (empty when it has none): a cache hands out its latest document of that table.
using FindPreviousDocument = std::function<PreviousDocument(std::string_view table_uuid)>;
Result<IndexedMetadata> ParseTableMetadataReusing(std::string text, const FindPreviousDocument& find_previous);

}  // namespace floe
