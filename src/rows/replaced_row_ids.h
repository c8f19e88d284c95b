// Row lineage through an upsert (format 3): a row that replaces an old row with the same key is
// the old row's new version, so it keeps the old row's `_row_id`, as an update does; a row whose
// key was not there is an insert and gets a new id. Either way the row was written by this
// commit, so its `_last_updated_sequence_number` is null in the file and inherits the commit's.
//
// The ids are collected while the upsert reads the files that may hold its keys (which it must,
// on a v3 table, whatever the write mode: an equality delete never learns the id of the row it
// deletes).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "types/column_batch.h"

namespace floe {

class ReplacedRowIds {
 public:
  // `rows` were read with the lineage columns (meta/row_lineage.h WithRowLineage);
  // `key_columns` are indexes into them. Rows r with replaced[r] set are being replaced.
  void Collect(const ColumnBatch& rows, const std::vector<int>& key_columns, const std::vector<uint8_t>& replaced);

  // `input` with `_row_id` (the replaced row's id, or null) and a null
  // `_last_updated_sequence_number` as its last two columns, replacing any it had.
  ColumnBatch Stamp(const ColumnBatch& input, const std::vector<int>& input_key_columns) const;

  size_t size() const { return ids_.size(); }

 private:
  std::unordered_map<std::string, int64_t> ids_;  // by key (key_validation.h KeyOfRow)
};

}  // namespace floe
