// SqlConnection on PostgreSQL through libpq.
//
// Statements with parameters are prepared once per connection and reused. If the connection
// breaks, the statement in flight reports CommitStateUnknown when it was an autocommit write or
// a COMMIT (the server may have committed before the answer was lost), Unavailable otherwise;
// the next statement reconnects. A SELECT or BEGIN outside a transaction that finds its
// connection dead reconnects and is sent once more.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include "catalog/sql/sql_connection.h"

struct pg_conn;

namespace floe {

class PostgresConnection : public SqlConnection {
 public:
  // `conninfo` is anything libpq accepts: "postgresql://user@host:port/db" or "host=... dbname=...".
  static Result<std::unique_ptr<PostgresConnection>> Open(const std::string& conninfo);
  ~PostgresConnection() override;

  Result<std::vector<SqlRow>> Query(std::string_view sql, const std::vector<SqlValue>& params = {}) override;
  Result<int64_t> Execute(std::string_view sql, const std::vector<SqlValue>& params = {}) override;
  Status BeginWrite() override;
  Status Commit() override;
  void Rollback() override;
  Status CreateTableIfAbsent(std::string_view create_table_sql) override;
  Result<bool> HasColumn(std::string_view table, std::string_view column) override;
  std::string description() const override { return description_; }

 private:
  PostgresConnection(pg_conn* conn, std::string description);
  Status EnsureConnected();
  Status Run(std::string_view sql, const std::vector<SqlValue>& params, std::vector<SqlRow>* rows,
             int64_t* changed);
  Status RunOnce(std::string_view sql, const std::vector<SqlValue>& params, std::vector<SqlRow>* rows,
                 int64_t* changed);

  pg_conn* conn_;
  std::string description_;
  bool in_transaction_ = false;
  bool broken_ = false;  // the connection was found dead although libpq may not know yet
  std::unordered_map<std::string, std::string> prepared_;  // sql text -> prepared statement name
};

// '?' placeholders to PostgreSQL's $1, $2, ... ('?' inside single quotes is left alone).
std::string NumberPlaceholders(std::string_view sql);

}  // namespace floe
