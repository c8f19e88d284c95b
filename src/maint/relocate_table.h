// Relocating a table that was copied or moved: the metadata tree rewritten so that every path
// under the location the table records points under the place it is now, and the table can be
// registered there and read by any engine, not only one told about the move.
//
// Data files and equality delete files are not rewritten: they hold no paths. What holds paths
// is rewritten into new files under the new location, never over the old ones:
//   - every manifest list and manifest reachable from the document (all snapshots, so time
//     travel keeps working), each entry keeping its status, snapshot id and sequence numbers;
//   - every position delete file (its file_path column names data files);
//   - the document itself: location, write.data.path / write.metadata.path when they lay under
//     the old location, statistics and partition-statistics paths, the metadata log.
// Paths outside the recorded location (files the table shares with another place) stay as they
// are. Deletion vectors are refused: floe cannot read them, so it cannot rewrite them either.
#pragma once

#include <string>
#include <vector>

#include "floe/file_io.h"
#include "meta/table_metadata.h"
#include "table_files/moved_paths_file_io.h"

namespace floe {

struct RelocatedTable {
  std::string metadata_location;    // the new document, under the new location's metadata folder
  TableMetadata metadata;
  std::vector<std::string> written;  // every file written, the document last
};

// Reads the table described by `metadata` (as its document records it) from `new_location` and
// writes its relocated metadata tree there through `io`. `io` reads and writes plain paths: the
// mapping from the recorded location is done here. `metadata_location` is where the document
// was read, for its version number. On any error the files written so far are deleted.
// Errors: NotFound naming a manifest list, manifest or delete file missing under the new
// location; Corrupt for an unreadable one; NotSupported for a deletion vector.
Result<RelocatedTable> RelocateTable(FileIO& io, const TableMetadata& metadata, const std::string& metadata_location,
                                     const std::string& new_location);

// The document's own paths relocated (location, the write.*.path properties under it, manifest
// lists, statistics files, the metadata log), nothing read or written: what a moved table's
// document says once its paths are read where they are now.
void RelocateDocumentPaths(TableMetadata& metadata, const MovedPathsFileIO& moved);

// Deletes what a RelocateTable wrote (a register that failed afterwards).
void DiscardRelocation(FileIO& io, const RelocatedTable& relocated);

}  // namespace floe
