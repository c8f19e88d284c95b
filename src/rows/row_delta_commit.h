// How a merge-on-read write commits its row delta on a format 3 table, where its deletion
// vectors may meet vectors that other commits added meanwhile for the same data files.
//
// A table holds one vector per data file, and each carries every delete of its file. Losing the
// race to a commit that added a vector for one of our data files is therefore no reason to redo
// the write (read its rows again): the retry reads the winner's vector (one ranged read), unions
// its positions into ours, writes one new Puffin file and commits again with metadata rebuilt,
// removing the winner's vector in the same commit (row_position_deletes.h Remerge). Any other
// refusal stays what the commit engine says (a redo when only inputs moved, a final refusal
// naming the files where isolation demands it).
//
// The write's intent (`names`) is the caller's to clear: the engine's first refusal must not
// discard the data files an update wrote, which the merged retry still commits. Once the commit
// landed it is cleared here; when it certainly failed `abort` runs (deleting every file written
// and clearing it); when its outcome is unknown both stay.
#pragma once

#include <functional>

#include "catalog/catalog.h"
#include "commit/commit_report.h"
#include "commit/files_operation.h"
#include "rows/row_position_deletes.h"
#include "rows/row_write_options.h"
#include "table_files/file_namer.h"

namespace floe {

// `change` holds `deletes`' Finish output (RowPositionDeletes::AddTo done). `rebase_possible`
// as in CommitWrittenFiles. `merges` counts the merged retries.
Result<CommitReport> CommitRowDelta(Catalog& catalog, const TableIdentifier& id, FilesChange change,
                                    RowPositionDeletes& deletes, const RowWriteOptions& options, FileNamer& names,
                                    const std::function<void()>& abort, bool* rebase_possible, int* merges);

}  // namespace floe
