// What the public handles (include/floe/) hold: floe's internal catalog, identifiers and
// expressions. Only src/api/ sees these.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "expr/expression.h"
#include "floe/catalog.h"
#include "floe/filter.h"
#include "floe/rows.h"
#include "floe/schema_info.h"
#include "floe/table.h"
#include "floe/transaction.h"
#include "meta/data_file.h"
#include "commit/commit_report.h"
#include "commit/transaction.h"
#include "rows/row_write_options.h"
#include "types/column_batch.h"

namespace floe {

struct Connection::Impl {
  std::shared_ptr<Catalog> catalog;
};

struct Table::Impl {
  std::shared_ptr<Catalog> catalog;
  TableIdentifier id;
  std::string name;
};

struct TableTransaction::Impl {
  Impl(std::shared_ptr<Catalog> c, TableIdentifier table) : catalog(std::move(c)), id(std::move(table)), tx(*catalog, id) {}
  std::shared_ptr<Catalog> catalog;  // before tx, which refers to it
  TableIdentifier id;
  Transaction tx;
  std::vector<DataFile> appended;        // committed as one append, on the branch Commit names
  std::vector<std::string> written;      // their paths, deleted if the commit certainly fails
  int64_t rows_added = 0;
};

struct Filter::Impl {
  Expr expr;  // null: every row
};

// `rows` as a batch of `schema` (columns matched by name, the rest null).
Result<ColumnBatch> RowsToBatch(const Rows& rows, const Schema& schema);
Rows BatchToRows(const ColumnBatch& batch);

CommitInfo ToCommitInfo(const CommitReport& report);
CommitInfo ToCommitInfo(const RowWriteResult& result);
RowWriteOptions ToRowWriteOptions(const WriteOptions& options);

// The current schema and default spec of `metadata` as floe/schema_info.h shows them.
SchemaInfo SchemaInfoOf(const TableMetadata& metadata);

}  // namespace floe
