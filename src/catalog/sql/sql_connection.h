// SqlConnection: the little of a SQL database the SQL catalog needs, over SQLite or PostgreSQL.
//
// Statements are written once with '?' placeholders (the PostgreSQL connection renumbers them
// to $1, $2, ...). Every value travels as text or NULL: the catalog's tables hold only strings.
//
// Error kinds a statement may return, and what they promise about its effect:
//   AlreadyExists       a unique/primary key was violated: the statement changed nothing;
//   Unavailable         the database was busy or unreachable before the statement ran: it
//                       changed nothing;
//   CommitStateUnknown  the connection broke while a write was in flight: it may or may not have
//                       taken effect (only possible for an autocommit write or a COMMIT);
//   IOError             anything else the database reported.
// A connection is not thread-safe; the SQL catalog serializes its use.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/result.h"

namespace floe {

using SqlValue = std::optional<std::string>;  // nullopt is SQL NULL
using SqlRow = std::vector<SqlValue>;

class SqlConnection {
 public:
  virtual ~SqlConnection() = default;

  // Runs one statement and returns its rows (empty for statements without a result).
  virtual Result<std::vector<SqlRow>> Query(std::string_view sql, const std::vector<SqlValue>& params = {}) = 0;
  // Runs one statement and returns how many rows it changed.
  virtual Result<int64_t> Execute(std::string_view sql, const std::vector<SqlValue>& params = {}) = 0;

  // A write transaction. BeginWrite takes the database's write lock up front (SQLite's BEGIN
  // IMMEDIATE), so a transaction that reads before it writes cannot be refused half-way for a
  // lock upgrade. Rollback never fails: a broken connection has rolled back already.
  virtual Status BeginWrite() = 0;
  virtual Status Commit() = 0;
  virtual void Rollback() = 0;

  // Creates the table only if absent; safe when several processes do it at once.
  virtual Status CreateTableIfAbsent(std::string_view create_table_sql) = 0;
  virtual Result<bool> HasColumn(std::string_view table, std::string_view column) = 0;

  // "sqlite:/path/catalog.db" or "postgresql://host:port/db", for messages.
  virtual std::string description() const = 0;
};

}  // namespace floe
