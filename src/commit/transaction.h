// A transaction: several changes to one table committed as one compare-and-swap.
//
//   Transaction tx(catalog, id);
//   FLOE_RETURN_IF_ERROR(tx.Begin());
//   FLOE_RETURN_IF_ERROR(tx.UpdateSchema(SchemaUpdate().AddColumn("note", Type::String())));
//   DataWriter writer(io, tx.staged(), tx.names());  // new schema; names in the write intent
//   ... tx.AddOperation(std::make_unique<FilesOperation>(FastAppend(files)));
//   FLOE_ASSIGN_OR_RETURN(CommitReport r, tx.Commit());
//
// Metadata changes are planned against the staged metadata when added (the base plus the
// changes before them) and keep the requirements they were planned with. Snapshot operations
// are prepared once and validated and applied on every attempt, in order, each on top of the
// snapshot the one before produced. The commit carries the union of all requirements and the
// updates of every step, and runs through the commit engine (commit_engine.h) like any other:
// retried as a whole when the swap is lost, paced, reconciled after a lost answer; a metadata
// change's failed requirement is final (see metadata_commit.h), as is a failed validation.
// An idempotency key is stored in the summary of the last snapshot and looked for in that
// snapshot's branch (main for a transaction without snapshots): found, nothing is written.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "catalog/catalog.h"
#include "commit/commit_options.h"
#include "commit/metadata_commit.h"
#include "commit/commit_base.h"
#include "commit/schema_update.h"
#include "commit/snapshot_operation.h"
#include "commit/spec_update.h"

namespace floe {

class CommitPlan;

class Transaction {
 public:
  Transaction(Catalog& catalog, TableIdentifier id) : catalog_(catalog), id_(std::move(id)) {}

  // Loads the base the changes are planned against.
  Status Begin();
  const TableMetadata& base() const { return *base_; }
  // The base with the metadata changes added so far applied (write data files against this).
  const TableMetadata& staged() const { return staged_; }
  // Names the transaction's new files (data and delete files the caller writes, then the
  // commit's manifests) in one write intent of the table (table_files/file_namer.h), which the commit
  // clears once it landed or certainly failed. Valid after Begin.
  FileNamer* names() const { return names_.get(); }

  Status AddMetadataChange(const MetadataChange& change);
  Status UpdateSchema(const SchemaUpdate& update);
  Status UpdateSpec(const SpecUpdate& update);
  Status UpdateProperties(const std::map<std::string, std::string>& set, const std::vector<std::string>& remove = {});
  // A snapshot operation on `branch` (e.g. a FilesOperation from operations.h).
  void AddOperation(std::unique_ptr<SnapshotOperation> operation, std::string branch = kMainBranch);

  // Commits everything. options.branch is ignored (each operation names its branch); the
  // others apply. The report is the last snapshot's.
  Result<CommitReport> Commit(const CommitOptions& options = {});

 private:
  friend Result<std::vector<CommitReport>> CommitTransactions(Catalog&, const std::vector<Transaction*>&,
                                                              const CommitOptions&);
  // The plan of everything added so far (its operations stay this transaction's).
  Result<std::unique_ptr<CommitPlan>> Plan(const CommitOptions& options);

  struct SnapshotStep {
    std::unique_ptr<SnapshotOperation> operation;
    std::string branch;
  };
  using Step = std::variant<MetadataChange, SnapshotStep>;

  Catalog& catalog_;
  TableIdentifier id_;
  // The base as loaded, also handed to the commit's first attempt (commit/commit_base.h) when
  // this transaction commits alone; kept alive here, as base() may be read after.
  std::shared_ptr<CommitBase> handed_;
  std::shared_ptr<const TableMetadata> base_;
  TableMetadata staged_;
  std::unique_ptr<FileNamer> names_;
  bool begun_ = false;
  bool committed_ = false;
  std::vector<Step> steps_;
};

// Commits `transactions`, one per table of `catalog`, as one commit (commit_engine.h,
// RunMultiTableCommit): all land or none does. The idempotency key, if any, goes into every
// table's last snapshot. Reports in the order given. InvalidArgument: a table twice, a
// transaction of another catalog, or one already committed; NotSupported: a catalog that
// cannot swap several tables at once; otherwise the errors of Transaction::Commit.
Result<std::vector<CommitReport>> CommitTransactions(Catalog& catalog, const std::vector<Transaction*>& transactions,
                                                     const CommitOptions& options = {});

}  // namespace floe
