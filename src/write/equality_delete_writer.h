// EqualityDeleteWriter: "every row whose key columns equal these values is deleted", written as
// Iceberg equality delete files.
//
// The file's schema is the key columns with their table field ids, and its entry lists them as
// equality_ids. Keys default to the table's identifier fields. An equality delete applies
// only to data files of its spec and partition with a lower data sequence number (or to every
// data file when its spec is unpartitioned), so the writer puts each row into the partition
// each of its target specs gives it: callers must make sure those partitions are where the
// rows to delete live (keys that include every target spec's partition source columns, for
// each spec that still holds data files), or use position deletes instead.
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

// The field ids of top-level key columns named in `columns`, or the schema's identifier fields
// when `columns` is empty. InvalidArgument names a missing or nested column, or a table
// without identifier fields.
Result<std::vector<int>> ResolveEqualityIds(const Schema& schema, const std::vector<std::string>& columns);

class EqualityDeleteWriter {
 public:
  // With `names`, each delete file's name is recorded in the write's intent first (table_files/file_namer.h).
  // `spec_ids`: the partition specs to write the deletes under, each row once per spec (empty:
  // the table's default spec). A spec id the table lacks is InvalidArgument at the first call.
  EqualityDeleteWriter(FileIO& io, const TableMetadata& table, std::vector<int> equality_ids,
                       FileNamer* names = nullptr, std::vector<int> spec_ids = {});

  // Deletes the keys of `rows` (columns matched by field id; the key columns and the source
  // columns of the target specs' non-void partition fields must be present).
  Status Delete(const ColumnBatch& rows);
  // One file per spec and partition; none when nothing was deleted.
  Result<std::vector<DataFile>> Finish();
  void Abort();

  const std::vector<int>& equality_ids() const { return equality_ids_; }
  const Schema& delete_schema() const { return delete_schema_; }

 private:
  struct Group {
    int spec_id = 0;
    std::vector<Literal> partition;
    ColumnBatch rows;
  };
  FileIO& io_;
  const TableMetadata& table_;
  FileNamer* names_;
  std::vector<int> equality_ids_;
  std::vector<const PartitionSpec*> specs_;
  Schema delete_schema_;
  std::map<std::string, Group> groups_;
  std::vector<std::string> written_;
  Status init_error_ = Ok();
};

}  // namespace floe
