// SqlConnection on SQLite: one database file, shared by any number of processes.
//
// The file is opened in WAL mode with synchronous=FULL, so a commit is durable when it returns
// and readers never wait for writers. Writers do wait for each other: instead of SQLite's
// busy_timeout (whose growing sleeps let one of two racing processes take every write for
// seconds, see PERFORMANCE.md) a busy handler sleeps a short random time on each try, so
// waiting writers share the lock fairly.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "catalog/sql/sql_connection.h"

struct sqlite3;
struct sqlite3_stmt;

namespace floe {

class SqliteConnection : public SqlConnection {
 public:
  // Opens (creating if absent) the database at `path`; ":memory:" is a private in-memory one.
  // A writer that cannot get the lock within `busy_timeout_ms` gets Unavailable.
  static Result<std::unique_ptr<SqliteConnection>> Open(const std::string& path, int64_t busy_timeout_ms = 30000);
  ~SqliteConnection() override;

  Result<std::vector<SqlRow>> Query(std::string_view sql, const std::vector<SqlValue>& params = {}) override;
  Result<int64_t> Execute(std::string_view sql, const std::vector<SqlValue>& params = {}) override;
  Status BeginWrite() override;
  Status Commit() override;
  void Rollback() override;
  Status CreateTableIfAbsent(std::string_view create_table_sql) override;
  Result<bool> HasColumn(std::string_view table, std::string_view column) override;
  std::string description() const override { return "sqlite:" + path_; }

 private:
  SqliteConnection(sqlite3* db, std::string path, int64_t busy_timeout_ms);
  static int BusyHandler(void* self, int attempt);
  Result<sqlite3_stmt*> Prepare(std::string_view sql);
  // Runs a prepared statement to completion; rows go to `rows` when not null.
  Status Run(sqlite3_stmt* stmt, std::string_view sql, const std::vector<SqlValue>& params,
             std::vector<SqlRow>* rows);

  sqlite3* db_;
  std::string path_;
  int64_t busy_timeout_ms_;
  int64_t busy_since_us_ = 0;  // when the current wait for the lock began
  std::unordered_map<std::string, sqlite3_stmt*> statements_;  // prepared once, reused
};

}  // namespace floe
