// Judging a data or delete file against a row filter, from its manifest entry alone.
//
// Conservative on purpose: a file that might hold a matching row "may match"; only a file
// whose every row certainly matches "all match". Parts of a filter that the partition or the
// column metrics cannot judge (order_id % 2 = 0) never exclude a file.
#pragma once

#include "expr/expression.h"
#include "meta/data_file.h"
#include "meta/table_metadata.h"

namespace floe {

class FileFilter {
 public:
  // Binds `filter` (unbound or bound) to the table's current schema. A null filter matches all.
  static Result<FileFilter> Make(const Expr& filter, const TableMetadata& table, bool case_sensitive = true);

  // Might the file contain a row that matches? (partition projection, then column metrics)
  Result<bool> MayMatch(const DataFile& file) const;
  // Does every row of the file match? (strict projection or strict metrics)
  Result<bool> AllMatch(const DataFile& file) const;

  const Expr& bound() const { return bound_; }
  std::string ToString() const;  // Iceberg's message form of the filter

 private:
  Expr bound_;
  const TableMetadata* table_ = nullptr;
};

}  // namespace floe
