// The rows a merge-on-read write deletes by position, in the form the table's format asks for:
// position delete files on a v2 table, deletion vectors on a v3 one (the spec forbids new
// position delete files there).
//
// On v3 a data file's new vector carries every position already deleted from it: the deletes
// that applied to it in the snapshot the write read (its scan task's position deletes, old
// vectors and v2 position delete files of an upgraded table alike). The vector replaces the old
// vector and position delete files that point at that data file alone; position delete files
// of a whole partition stay, since they apply to other data files too.
//
// A commit that loses its race to another that added a vector for one of the same data files is
// not redone: Remerge reads that vector (one ranged read), unions its positions into ours and
// writes one new Puffin file, and the commit is retried with the new vectors (DESIGN.md, What
// conflicts: delete (v3)). The data rows are not read again.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "floe/file_io.h"
#include "commit/files_operation.h"
#include "meta/table_metadata.h"
#include "scan/table_scan.h"
#include "table_files/file_namer.h"
#include "write/deletion_vector_writer.h"
#include "write/position_delete_writer.h"

namespace floe {

class RowPositionDeletes {
 public:
  RowPositionDeletes(FileIO& io, const TableMetadata& table, FileNamer* names);

  // Rows `positions` of the task's data file are deleted. On v3 the first call for a data file
  // reads the position deletes that already apply to it (task.deletes).
  Status Delete(const FileScanTask& task, const std::vector<int64_t>& positions);

  int64_t deleted_rows() const;
  // The data files some delete points at: a row delta must find them still live at commit.
  std::vector<std::string> referenced_data_files() const;

  struct Files {
    std::vector<DataFile> added;     // position delete files or deletion vectors
    std::vector<DataFile> replaced;  // delete files the new vectors replace (v3)
    std::vector<DataFile> targets;   // data files given a new vector (v3)
  };
  Result<Files> Finish();
  // After Finish (v3): `others` are vectors other commits added meanwhile for data files this
  // write has vectors for; `gone` the delete files (by ContentFileKey) this write replaced
  // that are gone meanwhile. Writes new vectors carrying both writes' positions, replacing
  // `others` and what is left of the old replaced files. Earlier Puffin files stay until
  // DropSuperseded or Abort.
  Result<Files> Remerge(const std::vector<DataFile>& others, const std::set<std::string>& gone);
  // The commit landed with the last vectors: the Puffin files written before them are garbage.
  void DropSuperseded();
  // Deletes every file written.
  void Abort();

  // Adds what Finish returned to a row delta: the replaced files are removed in the same
  // commit, and the targets are checked for deletes added meanwhile.
  static void AddTo(Files files, FilesChange* change);

 private:
  // Writes this write's vectors into a new Puffin file.
  Result<Files> WriteVectors();

  struct Target {
    DataFile data_file;
    std::vector<int64_t> added;    // by this write
    std::vector<int64_t> carried;  // by earlier (or concurrent, once merged) commits
    std::vector<DataFile> replaced;
    bool has_carry = false;
  };
  FileIO& io_;
  const TableMetadata& table_;
  FileNamer* names_;
  bool vectors_;
  PositionDeleteWriter files_;
  std::map<std::string, Target> targets_;  // v3: by data file path
  std::vector<std::unique_ptr<DeletionVectorWriter>> written_;  // v3: one per Puffin file, last is live
};

}  // namespace floe
