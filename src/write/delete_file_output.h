// Writing one delete file: a batch of delete rows into a new Parquet file under
// <location>/data/ (in the partition's folder), returned as the DataFile a manifest lists.
//
// Shared by the position and equality delete writers; the caller picks the content, the
// partition the file belongs to (a delete file only applies within its partition, or
// everywhere when its spec is unpartitioned) and, for equality deletes, the field ids.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "floe/file_io.h"
#include "meta/data_file.h"
#include "meta/table_metadata.h"
#include "table_files/file_namer.h"
#include "types/column_batch.h"

namespace floe {

struct DeleteFileSpec {
  FileContent content = FileContent::kPositionDeletes;
  int spec_id = 0;
  std::vector<Literal> partition;
  std::vector<int> equality_ids;                   // equality deletes only
  std::map<std::string, std::string> properties;   // parquet and metrics properties
  FileNamer* names = nullptr;                      // records the name first (table_files/file_namer.h)
};

// Writes `rows` (in `schema`) as one delete file. The path is unique (UUID). On failure nothing
// is left behind.
Result<DataFile> WriteDeleteFile(FileIO& io, const TableMetadata& table, const Schema& schema, const ColumnBatch& rows,
                                 const DeleteFileSpec& spec);

}  // namespace floe
