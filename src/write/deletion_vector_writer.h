// DeletionVectorWriter: "rows <positions> of data file <path> are deleted" on a format 3 table,
// written as deletion vectors (parquet/deletion_vector.h): one Puffin file per write, holding
// one vector per data file.
//
// A table holds at most one vector per data file, and a reader that finds one ignores the
// older position deletes of that file: a new vector therefore carries every position already
// deleted from its file (Carry), and the commit removes the delete files it replaces (the old
// vector, and position delete files that point at that data file alone).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "floe/file_io.h"
#include "meta/data_file.h"
#include "meta/table_metadata.h"
#include "table_files/file_namer.h"

namespace floe {

// How many distinct row positions `positions` holds (a write may name a row twice).
int64_t DistinctPositions(std::vector<int64_t> positions);

class DeletionVectorWriter {
 public:
  // With `names`, the Puffin file's name is recorded in the write's intent first.
  DeletionVectorWriter(FileIO& io, const TableMetadata& table, FileNamer* names = nullptr);

  // Rows `positions` of `data_file` are deleted by this write. Duplicates count once.
  void Delete(const DataFile& data_file, const std::vector<int64_t>& positions);
  // Positions of `data_file` deleted before this write, and the delete files holding them that
  // its new vector replaces. Ignored for a data file this write deletes nothing from.
  void Carry(const DataFile& data_file, const std::vector<int64_t>& positions, std::vector<DataFile> replaced);
  bool carried(const std::string& data_file_path) const;

  struct Output {
    std::vector<DataFile> vectors;   // one per data file, all in one Puffin file
    std::vector<DataFile> replaced;  // delete files the vectors replace: the commit removes them
    std::vector<DataFile> targets;   // the data files that get a vector
  };
  // Writes the Puffin file (none when nothing was deleted).
  Result<Output> Finish();
  // Deletes the file written, if any (the commit certainly failed or was never made).
  void Abort();

  // Rows this write deletes (carried positions not counted).
  int64_t deleted_rows() const;
  // The data files this write deletes from: a row delta must find them still live at commit.
  std::vector<std::string> referenced_data_files() const;

 private:
  struct Target {
    DataFile data_file;
    std::vector<int64_t> added;
    std::vector<int64_t> carried;
    std::vector<DataFile> replaced;
    bool has_carry = false;
  };
  FileIO& io_;
  const TableMetadata& table_;
  FileNamer* names_;
  std::map<std::string, Target> targets_;  // by data file path
  std::string written_;
};

}  // namespace floe
