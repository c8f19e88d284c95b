// The deletion vectors of a format 3 table's current snapshot, per data file, for the web view
// (ui_pages.h): which data files have rows deleted by a vector, how many, and where the vector
// is. Read from the current snapshot's manifests only (the cost of planning a full scan); a
// table below format 3 has none.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "floe/file_io.h"
#include "meta/table_metadata.h"

namespace floe {

struct UiDeletionVector {
  std::string data_file;     // the data file the vector deletes from
  int64_t data_rows = -1;    // its record count; -1 when the snapshot does not list it
  int64_t deleted_rows = 0;  // the vector's cardinality
  std::string puffin_file;   // the Puffin file holding the vector
  int64_t offset = 0;        // the blob's offset and length in it
  int64_t length = 0;
};

struct UiDeletionVectors {
  std::vector<UiDeletionVector> shown;  // the data files with most rows deleted first, at most `limit`
  int64_t vectors = 0;                  // all the live vectors of the snapshot
  int64_t deleted_rows = 0;             // their cardinalities summed
};

// The live deletion vectors of `table`'s current snapshot. IOError or Corrupt from reading the
// manifest list or a manifest.
Result<UiDeletionVectors> DeletionVectorsOf(FileIO& io, const TableMetadata& table, size_t limit);

}  // namespace floe
