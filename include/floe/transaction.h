// TableTransaction: several changes to one table committed as one swap of its pointer.
//
//   FLOE_ASSIGN_OR_RETURN(floe::TableTransaction tx, table.NewTransaction());
//   FLOE_RETURN_IF_ERROR(tx.AddColumn("note", "string"));
//   FLOE_RETURN_IF_ERROR(tx.Append(rows_with_a_note));
//   FLOE_ASSIGN_OR_RETURN(floe::CommitInfo done, tx.Commit());
//
// Changes are planned against the table as it was when the transaction began (the base),
// each on top of the ones before it: rows appended after AddColumn may fill the new column.
// Nothing is visible to anyone until Commit. If another writer commits first, Commit retries
// the whole transaction on top of it, as a single write would; a schema or property change
// that another writer's commit contradicts is refused (CommitConflict), never re-applied on
// top of it.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/result.h"
#include "floe/rows.h"
#include "floe/table.h"

namespace floe {

class TableTransaction {
 public:
  // Adds an optional column at the end. InvalidArgument: the name is taken or the type is not
  // one of Iceberg's ("long", "string", "decimal(10,2)", "timestamp", ...).
  Status AddColumn(const std::string& name, const std::string& type);

  // Column names below are dotted paths to nested fields: "loc.lat" (a struct's field),
  // "points.element" (a list's element), "tags.key" / "tags.value" (a map's key and value).
  // Each change is refused with InvalidArgument naming the column, changing nothing, when the
  // column does not exist or Iceberg does not allow the change.
  struct ColumnUpdate {
    std::string type;                // a new type: "long" for an int, "double" for a float, a
                                     // wider decimal(P',S); on format v3 "timestamp" for a date
    bool make_optional = false;      // let it hold nulls (never the other way)
    std::optional<std::string> doc;  // its doc comment; "" removes it
  };
  Status UpdateColumn(const std::string& name, const ColumnUpdate& update);
  // Moves a column within its struct: first, or just before / after `other` (a field of the
  // same struct, full dotted name).
  enum class Position { kFirst, kBefore, kAfter };
  Status MoveColumn(const std::string& name, Position position, const std::string& other = "");
  // The column keeps its field id: files written before read under the new name.
  Status RenameColumn(const std::string& name, const std::string& new_name);
  // InvalidArgument also when an identifier field, the partition spec or the sort order uses it.
  Status DropColumn(const std::string& name);
  // InvalidArgument: a value floe cannot use for a property it reads.
  Status SetProperties(const std::map<std::string, std::string>& set, const std::vector<std::string>& remove = {});
  // Writes `rows` against the schema as changed so far; they land with the commit. The errors
  // of Table::Append that concern the rows.
  Status Append(const Rows& rows);

  // Commits every change. options.branch is where the appends go. CommitConflict: a schema or
  // property change was contradicted by another commit (plan the transaction again), or the
  // retries ran out; CommitStateUnknown: the answer was lost and could not be checked (a retry
  // with the same idempotency key is safe); InvalidArgument: the transaction was committed
  // already. The files a failed transaction wrote are deleted, unless its outcome is unknown.
  Result<CommitInfo> Commit(const WriteOptions& options = {});

  struct Impl;
  explicit TableTransaction(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

 private:
  friend Result<std::vector<CommitInfo>> CommitTogether(const std::vector<TableTransaction*>& transactions,
                                                        const WriteOptions& options);
  std::shared_ptr<Impl> impl_;
};

// Commits transactions on several tables of one connection as one commit: every table's
// changes become visible at once, or none do (a reader never sees one table changed and not
// the other). Retried as a whole when another writer commits to any of the tables first.
// options apply to every table (the appends go to options.branch of each; the idempotency key
// is recorded in each). Infos in the order given. InvalidArgument: a table twice, tables of
// different connections, or a transaction already committed; NotSupported: a catalog that
// cannot swap several tables at once (a storage-only catalog: file://, s3://); otherwise the
// errors of TableTransaction::Commit.
Result<std::vector<CommitInfo>> CommitTogether(const std::vector<TableTransaction*>& transactions,
                                               const WriteOptions& options = {});

}  // namespace floe
