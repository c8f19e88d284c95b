#include "catalog/sql/postgres_connection.h"

#include <libpq-fe.h>

#include <cctype>

namespace floe {
namespace {

void IgnoreNotice(void*, const char*) {}  // "relation already exists, skipping" and the like

std::string Trimmed(const char* message) {
  std::string s = message ? message : "";
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

bool StartsWithWord(std::string_view sql, std::string_view word) {
  size_t i = 0;
  while (i < sql.size() && std::isspace(static_cast<unsigned char>(sql[i]))) ++i;
  if (sql.size() - i < word.size()) return false;
  for (size_t k = 0; k < word.size(); ++k) {
    if (std::toupper(static_cast<unsigned char>(sql[i + k])) != word[k]) return false;
  }
  return true;
}

// Whether a failed statement's connection is gone although libpq may still call it
// CONNECTION_OK: an error libpq made itself (no SQLSTATE: the socket closed or reset while the
// statement was sent or its answer read), a connection-class error (08...), or the server
// shutting down or restarting (57P01-57P03). Such a connection is reset before its next use.
bool ConnectionLost(const char* sqlstate) {
  if (sqlstate == nullptr || *sqlstate == '\0') return true;
  const std::string_view s(sqlstate);
  return s.starts_with("08") || s == "57P01" || s == "57P02" || s == "57P03";
}

}  // namespace

std::string NumberPlaceholders(std::string_view sql) {
  std::string out;
  bool quoted = false;
  int n = 0;
  for (char c : sql) {
    if (c == '\'') quoted = !quoted;
    if (c == '?' && !quoted) {
      out += "$" + std::to_string(++n);
    } else {
      out += c;
    }
  }
  return out;
}

PostgresConnection::PostgresConnection(pg_conn* conn, std::string description)
    : conn_(conn), description_(std::move(description)) {}

PostgresConnection::~PostgresConnection() { PQfinish(conn_); }

Result<std::unique_ptr<PostgresConnection>> PostgresConnection::Open(const std::string& conninfo) {
  PGconn* conn = PQconnectdb(conninfo.c_str());
  if (!conn) return Unavailable("cannot connect to PostgreSQL: out of memory");
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string message = Trimmed(PQerrorMessage(conn));
    PQfinish(conn);
    return Unavailable("cannot connect to PostgreSQL (" + conninfo + "): " + message);
  }
  PQsetNoticeProcessor(conn, &IgnoreNotice, nullptr);
  std::string description = std::string("postgresql://") + PQhost(conn) + ":" + PQport(conn) + "/" + PQdb(conn);
  return std::unique_ptr<PostgresConnection>(new PostgresConnection(conn, std::move(description)));
}

Status PostgresConnection::EnsureConnected() {
  if (PQstatus(conn_) == CONNECTION_OK && !broken_) return Ok();
  broken_ = false;
  // A broken connection lost its transaction and its prepared statements with it.
  in_transaction_ = false;
  prepared_.clear();
  PQreset(conn_);
  if (PQstatus(conn_) != CONNECTION_OK) {
    return Unavailable(description_ + ": cannot reconnect: " + Trimmed(PQerrorMessage(conn_)));
  }
  PQsetNoticeProcessor(conn_, &IgnoreNotice, nullptr);
  return Ok();
}

Status PostgresConnection::Run(std::string_view sql, const std::vector<SqlValue>& params,
                               std::vector<SqlRow>* rows, int64_t* changed) {
  // A statement that changes nothing, outside a transaction, is sent once more on a new
  // connection when the old one turned out to be dead (the database restarted, the network
  // dropped it while it sat in the pool): a reader should not fail for a connection no one used.
  // (Inside a transaction never: the transaction died with the connection.)
  const bool harmless = !in_transaction_ && (StartsWithWord(sql, "SELECT") || StartsWithWord(sql, "BEGIN"));
  Status done = RunOnce(sql, params, rows, changed);
  if (!done && broken_ && harmless) done = RunOnce(sql, params, rows, changed);
  return done;
}

Status PostgresConnection::RunOnce(std::string_view sql, const std::vector<SqlValue>& params,
                                   std::vector<SqlRow>* rows, int64_t* changed) {
  FLOE_RETURN_IF_ERROR(EnsureConnected());
  // A COMMIT, or a data change outside an explicit transaction, whose answer is lost may have
  // committed. (Inside a transaction the server rolls back when the connection breaks.)
  const bool changes_data =
      StartsWithWord(sql, "UPDATE") || StartsWithWord(sql, "INSERT") || StartsWithWord(sql, "DELETE");
  const bool outcome_at_stake = StartsWithWord(sql, "COMMIT") || (!in_transaction_ && changes_data);

  PGresult* res = nullptr;
  if (params.empty()) {
    res = PQexec(conn_, std::string(sql).c_str());
  } else {
    auto it = prepared_.find(std::string(sql));
    if (it == prepared_.end()) {
      std::string name = "floe_" + std::to_string(prepared_.size() + 1);
      PGresult* prep = PQprepare(conn_, name.c_str(), NumberPlaceholders(sql).c_str(),
                                 static_cast<int>(params.size()), nullptr);
      ExecStatusType st = prep ? PQresultStatus(prep) : PGRES_FATAL_ERROR;
      std::string message = Trimmed(prep ? PQresultErrorMessage(prep) : PQerrorMessage(conn_));
      const char* prep_state = prep ? PQresultErrorField(prep, PG_DIAG_SQLSTATE) : nullptr;
      const bool prep_lost = ConnectionLost(prep_state);
      PQclear(prep);
      if (st != PGRES_COMMAND_OK) {
        if (PQstatus(conn_) != CONNECTION_OK || prep_lost) {
          broken_ = true;
          in_transaction_ = false;
          return Unavailable(description_ + ": connection lost: " + message);
        }
        return IOError(description_ + ": cannot prepare '" + std::string(sql) + "': " + message);
      }
      it = prepared_.emplace(std::string(sql), name).first;
    }
    std::vector<const char*> values;
    for (const SqlValue& v : params) values.push_back(v ? v->c_str() : nullptr);
    res = PQexecPrepared(conn_, it->second.c_str(), static_cast<int>(values.size()), values.data(), nullptr,
                         nullptr, 0);
  }

  ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
  if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
    if (rows) {
      rows->clear();
      int n = PQntuples(res), m = PQnfields(res);
      for (int r = 0; r < n; ++r) {
        SqlRow row;
        for (int c = 0; c < m; ++c) {
          if (PQgetisnull(res, r, c)) {
            row.emplace_back(std::nullopt);
          } else {
            row.emplace_back(std::string(PQgetvalue(res, r, c), static_cast<size_t>(PQgetlength(res, r, c))));
          }
        }
        rows->push_back(std::move(row));
      }
    }
    if (changed) {
      const char* count = PQcmdTuples(res);
      *changed = (count && *count) ? std::stoll(count) : 0;
    }
    PQclear(res);
    return Ok();
  }

  std::string message = Trimmed(res ? PQresultErrorMessage(res) : PQerrorMessage(conn_));
  if (message.empty()) message = Trimmed(PQerrorMessage(conn_));
  const char* state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
  std::string sqlstate = state ? state : "";
  PQclear(res);
  if (PQstatus(conn_) != CONNECTION_OK || ConnectionLost(state ? sqlstate.c_str() : nullptr)) {
    broken_ = true;
    in_transaction_ = false;
    if (outcome_at_stake) {
      return CommitStateUnknown(description_ + ": connection lost during a write, its outcome is unknown: " +
                                message);
    }
    return Unavailable(description_ + ": connection lost: " + message);
  }
  if (sqlstate == "23505") return AlreadyExists(description_ + ": " + message);
  // Serialization failures, deadlocks and lock timeouts roll the transaction back: nothing
  // changed, and trying again may succeed.
  if (sqlstate == "40001" || sqlstate == "40P01" || sqlstate == "55P03") {
    return Unavailable(description_ + ": " + message);
  }
  return IOError(description_ + ": '" + std::string(sql) + "' failed: " + message);
}

Result<std::vector<SqlRow>> PostgresConnection::Query(std::string_view sql, const std::vector<SqlValue>& params) {
  std::vector<SqlRow> rows;
  FLOE_RETURN_IF_ERROR(Run(sql, params, &rows, nullptr));
  return rows;
}

Result<int64_t> PostgresConnection::Execute(std::string_view sql, const std::vector<SqlValue>& params) {
  int64_t changed = 0;
  FLOE_RETURN_IF_ERROR(Run(sql, params, nullptr, &changed));
  return changed;
}

Status PostgresConnection::BeginWrite() {
  // READ COMMITTED is enough: every write the catalog makes is a conditional UPDATE or an
  // INSERT guarded by a key, and a conditional UPDATE that waited for another writer's row
  // lock re-checks its condition against the row that writer committed.
  FLOE_RETURN_IF_ERROR(Execute("BEGIN"));
  in_transaction_ = true;
  return Ok();
}

Status PostgresConnection::Commit() {
  auto done = Execute("COMMIT");
  in_transaction_ = false;
  if (!done) return std::unexpected(done.error());
  return Ok();
}

void PostgresConnection::Rollback() {
  if (!in_transaction_) return;
  in_transaction_ = false;
  if (PQstatus(conn_) != CONNECTION_OK) return;  // the server rolled back when the connection broke
  PGresult* res = PQexec(conn_, "ROLLBACK");
  PQclear(res);
}

Status PostgresConnection::CreateTableIfAbsent(std::string_view create_table_sql) {
  // Two sessions running CREATE TABLE IF NOT EXISTS at once can both pass the check and one
  // then fails on the catalog's unique index; a transaction-scoped advisory lock orders them.
  FLOE_RETURN_IF_ERROR(BeginWrite());
  auto locked = Query("SELECT pg_advisory_xact_lock(4121967001)");
  auto created = locked ? Execute(create_table_sql) : Result<int64_t>(std::unexpected(locked.error()));
  if (!created) {
    Rollback();
    return std::unexpected(created.error());
  }
  return Commit();
}

Result<bool> PostgresConnection::HasColumn(std::string_view table, std::string_view column) {
  FLOE_ASSIGN_OR_RETURN(auto rows, Query("SELECT 1 FROM information_schema.columns WHERE table_schema = "
                                         "current_schema() AND table_name = ? AND column_name = ?",
                                         {std::string(table), std::string(column)}));
  return !rows.empty();
}

}  // namespace floe
