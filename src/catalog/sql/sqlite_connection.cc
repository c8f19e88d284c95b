#include "catalog/sql/sqlite_connection.h"

#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <random>
#include <thread>

namespace floe {
namespace {

int64_t SteadyMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Per-thread generator seeded from the kernel and the pid: forked processes must not draw the
// same waits, or they would wake in lock step and collide again.
std::minstd_rand& Rng() {
  thread_local std::minstd_rand rng(std::random_device{}() ^ static_cast<unsigned>(getpid()));
  return rng;
}

// A short random wait for the `attempt`-th retry: up to 100 us at first, growing to at most
// 2 ms. Short waits keep the lock busy; randomness keeps one writer from winning every time.
void JitteredSleep(int attempt) {
  int64_t cap = std::min<int64_t>(2000, 100LL << std::min(attempt, 5));
  std::uniform_int_distribution<int64_t> wait(10, cap);
  std::this_thread::sleep_for(std::chrono::microseconds(wait(Rng())));
}

bool IsBusy(int rc) { return (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED; }

}  // namespace

SqliteConnection::SqliteConnection(sqlite3* db, std::string path, int64_t busy_timeout_ms)
    : db_(db), path_(std::move(path)), busy_timeout_ms_(busy_timeout_ms) {}

SqliteConnection::~SqliteConnection() {
  for (auto& [sql, stmt] : statements_) sqlite3_finalize(stmt);
  sqlite3_close_v2(db_);
}

int SqliteConnection::BusyHandler(void* ctx, int attempt) {
  auto* self = static_cast<SqliteConnection*>(ctx);
  if (attempt == 0) self->busy_since_us_ = SteadyMicros();
  if (SteadyMicros() - self->busy_since_us_ > self->busy_timeout_ms_ * 1000) return 0;  // give up
  JitteredSleep(attempt);
  return 1;
}

Result<std::unique_ptr<SqliteConnection>> SqliteConnection::Open(const std::string& path, int64_t busy_timeout_ms) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                           nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return IOError("cannot open SQLite database " + path + ": " + message);
  }
  std::unique_ptr<SqliteConnection> conn(new SqliteConnection(db, path, busy_timeout_ms));
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_handler(db, &SqliteConnection::BusyHandler, conn.get());
  // WAL: readers never wait for a writer. FULL: the WAL is synced at every commit, so a commit
  // that returned survives a power cut (NORMAL would sync only at checkpoints).
  FLOE_RETURN_IF_ERROR(conn->Query("PRAGMA journal_mode=WAL"));
  FLOE_RETURN_IF_ERROR(conn->Execute("PRAGMA synchronous=FULL"));
  return conn;
}

Result<sqlite3_stmt*> SqliteConnection::Prepare(std::string_view sql) {
  auto it = statements_.find(std::string(sql));
  if (it != statements_.end()) return it->second;
  sqlite3_stmt* stmt = nullptr;
  int64_t started = SteadyMicros();
  for (int attempt = 0;; ++attempt) {
    // Preparing reads the schema, which can be locked briefly by a writer changing it.
    int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
    if (rc == SQLITE_OK) break;
    if (!IsBusy(rc) || SteadyMicros() - started > busy_timeout_ms_ * 1000) {
      return IOError(description() + ": cannot prepare '" + std::string(sql) + "': " + sqlite3_errmsg(db_));
    }
    JitteredSleep(attempt);
  }
  statements_.emplace(std::string(sql), stmt);
  return stmt;
}

Status SqliteConnection::Run(sqlite3_stmt* stmt, std::string_view sql, const std::vector<SqlValue>& params,
                             std::vector<SqlRow>* rows) {
  if (static_cast<int>(params.size()) != sqlite3_bind_parameter_count(stmt)) {
    return InvalidArgument("statement '" + std::string(sql) + "' takes " +
                           std::to_string(sqlite3_bind_parameter_count(stmt)) + " parameters, got " +
                           std::to_string(params.size()));
  }
  // SQLite counts COMMIT as read-only, but it is the write that matters most.
  const bool writes = !sqlite3_stmt_readonly(stmt) || sql == "COMMIT";
  int64_t started = SteadyMicros();
  for (int attempt = 0;; ++attempt) {
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    for (size_t i = 0; i < params.size(); ++i) {
      const SqlValue& value = params[i];
      int rc = value ? sqlite3_bind_text(stmt, static_cast<int>(i + 1), value->data(),
                                         static_cast<int>(value->size()), SQLITE_TRANSIENT)
                     : sqlite3_bind_null(stmt, static_cast<int>(i + 1));
      if (rc != SQLITE_OK) return IOError(description() + ": cannot bind parameter: " + sqlite3_errmsg(db_));
    }
    if (rows) rows->clear();
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      if (!rows) continue;
      SqlRow row;
      int n = sqlite3_column_count(stmt);
      for (int c = 0; c < n; ++c) {
        if (sqlite3_column_type(stmt, c) == SQLITE_NULL) {
          row.emplace_back(std::nullopt);
        } else {
          const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
          row.emplace_back(std::string(text, static_cast<size_t>(sqlite3_column_bytes(stmt, c))));
        }
      }
      rows->push_back(std::move(row));
    }
    if (rc == SQLITE_DONE) {
      sqlite3_reset(stmt);
      return Ok();
    }
    std::string message = sqlite3_errmsg(db_);
    sqlite3_reset(stmt);
    // A busy statement outside a transaction did nothing, so it can simply run again. (The
    // busy handler covers most waits; SQLite skips it where waiting could deadlock.)
    if (IsBusy(rc)) {
      if (sqlite3_get_autocommit(db_) && SteadyMicros() - started <= busy_timeout_ms_ * 1000) {
        JitteredSleep(attempt);
        continue;
      }
      return Unavailable(description() + ": database is locked (waited " +
                         std::to_string((SteadyMicros() - started) / 1000) + " ms): " + message);
    }
    if ((rc & 0xff) == SQLITE_CONSTRAINT) {
      return AlreadyExists(description() + ": " + message);
    }
    int primary = rc & 0xff;
    if (writes && (primary == SQLITE_IOERR || primary == SQLITE_FULL || primary == SQLITE_CORRUPT ||
                   primary == SQLITE_NOMEM)) {
      return CommitStateUnknown(description() + ": write failed, its outcome is unknown: " + message);
    }
    return IOError(description() + ": '" + std::string(sql) + "' failed: " + message);
  }
}

Result<std::vector<SqlRow>> SqliteConnection::Query(std::string_view sql, const std::vector<SqlValue>& params) {
  FLOE_ASSIGN_OR_RETURN(sqlite3_stmt * stmt, Prepare(sql));
  std::vector<SqlRow> rows;
  FLOE_RETURN_IF_ERROR(Run(stmt, sql, params, &rows));
  return rows;
}

Result<int64_t> SqliteConnection::Execute(std::string_view sql, const std::vector<SqlValue>& params) {
  FLOE_ASSIGN_OR_RETURN(sqlite3_stmt * stmt, Prepare(sql));
  FLOE_RETURN_IF_ERROR(Run(stmt, sql, params, nullptr));
  return static_cast<int64_t>(sqlite3_changes(db_));
}

Status SqliteConnection::BeginWrite() {
  // IMMEDIATE takes the write lock now (waiting through the busy handler); a deferred
  // transaction that read first could be refused at its first write with no way to wait.
  FLOE_RETURN_IF_ERROR(Execute("BEGIN IMMEDIATE"));
  return Ok();
}

Status SqliteConnection::Commit() {
  auto status = Execute("COMMIT");
  if (!status) {
    if (!sqlite3_get_autocommit(db_)) Rollback();
    return std::unexpected(status.error());
  }
  return Ok();
}

void SqliteConnection::Rollback() {
  if (sqlite3_get_autocommit(db_)) return;  // nothing open (SQLite may have rolled back itself)
  (void)Execute("ROLLBACK");
}

Status SqliteConnection::CreateTableIfAbsent(std::string_view create_table_sql) {
  FLOE_RETURN_IF_ERROR(BeginWrite());
  auto done = Execute(create_table_sql);
  if (!done) {
    Rollback();
    return std::unexpected(done.error());
  }
  return Commit();
}

Result<bool> SqliteConnection::HasColumn(std::string_view table, std::string_view column) {
  FLOE_ASSIGN_OR_RETURN(auto rows, Query("SELECT 1 FROM pragma_table_info(?) WHERE name = ?",
                                         {std::string(table), std::string(column)}));
  return !rows.empty();
}

}  // namespace floe
