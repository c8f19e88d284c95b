// PositionDeleteWriter: "row <pos> of data file <path> is deleted", collected in memory and
// written as Iceberg position delete files.
//
// A position delete file holds the columns file_path (string, field id 2147483546) and pos
// (long, field id 2147483545), sorted by file_path then pos as the spec requires. It lives in
// the partition (spec id and tuple) of the data files it points at, so a reader considers it
// only for those; file_path bounds are kept in full so readers and validators can prune by
// path. A file pointing at exactly one data file also records it as referenced_data_file.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "floe/file_io.h"
#include "meta/data_file.h"
#include "meta/table_metadata.h"
#include "table_files/file_namer.h"
#include "types/schema.h"

namespace floe {


// The schema of a position delete file.
const Schema& PositionDeleteSchema();

class PositionDeleteWriter {
 public:
  // With `names`, each delete file's name is recorded in the write's intent first (table_files/file_namer.h).
  PositionDeleteWriter(FileIO& io, const TableMetadata& table, FileNamer* names = nullptr);
  ~PositionDeleteWriter() = default;

  // Row `position` of `data_file` is deleted. Duplicates are written once.
  void Delete(const DataFile& data_file, int64_t position);
  void Delete(const DataFile& data_file, const std::vector<int64_t>& positions);

  // Writes one delete file per partition; the files to commit (none when nothing was deleted).
  Result<std::vector<DataFile>> Finish();
  // Deletes every file written so far (the commit certainly failed or was never made).
  void Abort();

  int64_t deleted_rows() const;
  // The data files some delete points at: a row delta must find them still live at commit.
  std::vector<std::string> referenced_data_files() const;

 private:
  struct Group {
    int spec_id = 0;
    std::vector<Literal> partition;
    std::map<std::string, std::vector<int64_t>> positions;  // by data file path (sorted)
  };
  FileIO& io_;
  const TableMetadata& table_;
  FileNamer* names_;
  std::map<std::string, Group> groups_;  // by partition key
  std::vector<std::string> written_;
};

}  // namespace floe
