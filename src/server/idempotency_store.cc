#include "server/idempotency_store.h"

namespace floe {

namespace {
constexpr std::string_view kReferencePrefix = "document:";
}  // namespace

std::string ReplayReference(const std::string& location) { return std::string(kReferencePrefix) + location; }

std::optional<std::string> ReferencedDocument(const std::string& body) {
  if (body.rfind(kReferencePrefix, 0) != 0) return std::nullopt;
  return body.substr(kReferencePrefix.size());
}

namespace {

constexpr const char* kCreateTable =
    "CREATE TABLE IF NOT EXISTS floe_idempotency (\n"
    "\tidempotency_key VARCHAR(64) NOT NULL, \n"
    "\troute VARCHAR(1000) NOT NULL, \n"
    "\trequest_hash VARCHAR(64) NOT NULL, \n"
    "\tstate VARCHAR(16) NOT NULL, \n"
    "\tstatus INTEGER, \n"
    "\tbody TEXT, \n"
    "\tcreated_ms BIGINT NOT NULL, \n"
    "\tPRIMARY KEY (idempotency_key)\n"
    ")";

constexpr int64_t kSweepEveryMs = 60 * 1000;

}  // namespace

Result<std::unique_ptr<SqlIdempotencyStore>> SqlIdempotencyStore::Open(Opener open, IdempotencyTimes times) {
  std::unique_ptr<SqlIdempotencyStore> store(new SqlIdempotencyStore(std::move(open), times));
  FLOE_ASSIGN_OR_RETURN(auto conn, store->open_());
  FLOE_ASSIGN_OR_RETURN(bool have, conn->HasColumn("floe_idempotency", "idempotency_key"));
  if (!have) FLOE_RETURN_IF_ERROR(conn->CreateTableIfAbsent(kCreateTable));
  store->description_ = "table floe_idempotency in " + conn->description();
  store->Give(std::move(conn));
  return store;
}

Result<std::unique_ptr<SqlConnection>> SqlIdempotencyStore::Take() {
  {
    std::lock_guard lock(mu_);
    if (!idle_.empty()) {
      auto conn = std::move(idle_.back());
      idle_.pop_back();
      return conn;
    }
  }
  return open_();
}

void SqlIdempotencyStore::Give(std::unique_ptr<SqlConnection> conn) {
  std::lock_guard lock(mu_);
  idle_.push_back(std::move(conn));
}

Result<IdempotencyClaim> SqlIdempotencyStore::Claim(const std::string& key, const std::string& route,
                                                    const std::string& request_hash, int64_t now_ms) {
  FLOE_ASSIGN_OR_RETURN(auto conn, Take());
  auto claim = ClaimOn(*conn, key, route, request_hash, now_ms);
  bool sweep = false;
  {
    std::lock_guard lock(mu_);
    if (now_ms - last_sweep_ms_ > kSweepEveryMs) {
      last_sweep_ms_ = now_ms;
      sweep = true;
    }
  }
  if (sweep) {
    // Best effort: a failed sweep leaves old rows, which Claim treats as absent anyway.
    (void)conn->Execute("DELETE FROM floe_idempotency WHERE created_ms < ?",
                        {std::to_string(now_ms - times_.lifetime_ms - times_.stale_ms)});
  }
  Give(std::move(conn));
  return claim;
}

Result<IdempotencyClaim> SqlIdempotencyStore::ClaimOn(SqlConnection& conn, const std::string& key,
                                                      const std::string& route, const std::string& request_hash,
                                                      int64_t now_ms) {
  const std::string now = std::to_string(now_ms);
  for (int attempt = 0; attempt < 5; ++attempt) {
    auto inserted = conn.Execute(
        "INSERT INTO floe_idempotency (idempotency_key, route, request_hash, state, status, body, created_ms) "
        "VALUES (?, ?, ?, 'pending', NULL, NULL, ?)",
        {key, route, request_hash, now});
    if (inserted) return IdempotencyClaim{IdempotencyClaim::State::kClaimed, 0, "", ""};
    if (inserted.error().kind != ErrorKind::kAlreadyExists) return std::unexpected(inserted.error());

    FLOE_ASSIGN_OR_RETURN(auto rows, conn.Query("SELECT route, request_hash, state, status, body, created_ms FROM "
                                                "floe_idempotency WHERE idempotency_key = ?",
                                                {key}));
    if (rows.empty()) continue;  // swept or released meanwhile: claim again
    const SqlRow& row = rows[0];
    std::string old_created = row[5].value_or("0");
    int64_t created_ms = std::stoll(old_created);
    bool expired = created_ms < now_ms - times_.lifetime_ms;
    bool pending = row[2].value_or("") == "pending";
    bool abandoned = pending && created_ms < now_ms - times_.stale_ms;
    if (expired || abandoned) {
      // Take the row over only if nobody else did since we read it.
      FLOE_ASSIGN_OR_RETURN(int64_t changed,
                            conn.Execute("UPDATE floe_idempotency SET route = ?, request_hash = ?, state = 'pending', "
                                         "status = NULL, body = NULL, created_ms = ? WHERE idempotency_key = ? AND "
                                         "created_ms = ? AND state = ?",
                                         {route, request_hash, now, key, old_created, row[2].value_or("")}));
      if (changed == 1) return IdempotencyClaim{IdempotencyClaim::State::kClaimed, 0, "", ""};
      continue;
    }
    if (row[1].value_or("") != request_hash) {
      return IdempotencyClaim{IdempotencyClaim::State::kMismatch, 0, "", row[0].value_or("")};
    }
    if (pending) return IdempotencyClaim{IdempotencyClaim::State::kInFlight, 0, "", row[0].value_or("")};
    return IdempotencyClaim{IdempotencyClaim::State::kReplay, std::stoi(row[3].value_or("500")), row[4].value_or(""),
                            row[0].value_or("")};
  }
  return Unavailable("idempotency key " + key + " is contended; try again");
}

Status SqlIdempotencyStore::Finish(const std::string& key, int status, const std::string& body) {
  FLOE_ASSIGN_OR_RETURN(auto conn, Take());
  auto done = conn->Execute("UPDATE floe_idempotency SET state = 'done', status = ?, body = ? WHERE "
                            "idempotency_key = ? AND state = 'pending'",
                            {std::to_string(status), body, key});
  Give(std::move(conn));
  FLOE_RETURN_IF_ERROR(done);
  return Ok();
}

Status SqlIdempotencyStore::Release(const std::string& key) {
  FLOE_ASSIGN_OR_RETURN(auto conn, Take());
  auto done = conn->Execute("DELETE FROM floe_idempotency WHERE idempotency_key = ? AND state = 'pending'", {key});
  Give(std::move(conn));
  FLOE_RETURN_IF_ERROR(done);
  return Ok();
}

Result<IdempotencyClaim> MemoryIdempotencyStore::Claim(const std::string& key, const std::string& route,
                                                       const std::string& request_hash, int64_t now_ms) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(key);
  if (it != entries_.end()) {
    Entry& e = it->second;
    bool expired = e.created_ms < now_ms - times_.lifetime_ms;
    bool abandoned = !e.done && e.created_ms < now_ms - times_.stale_ms;
    if (!expired && !abandoned) {
      if (e.hash != request_hash) return IdempotencyClaim{IdempotencyClaim::State::kMismatch, 0, "", e.route};
      if (!e.done) return IdempotencyClaim{IdempotencyClaim::State::kInFlight, 0, "", e.route};
      return IdempotencyClaim{IdempotencyClaim::State::kReplay, e.status, e.body, e.route};
    }
  }
  for (auto i = entries_.begin(); i != entries_.end();) {
    i = i->second.created_ms < now_ms - times_.lifetime_ms ? entries_.erase(i) : std::next(i);
  }
  entries_[key] = Entry{route, request_hash, false, 0, "", now_ms};
  return IdempotencyClaim{IdempotencyClaim::State::kClaimed, 0, "", ""};
}

Status MemoryIdempotencyStore::Finish(const std::string& key, int status, const std::string& body) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(key);
  if (it != entries_.end()) {
    it->second.done = true;
    it->second.status = status;
    it->second.body = body;
  }
  return Ok();
}

Status MemoryIdempotencyStore::Release(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(key);
  if (it != entries_.end() && !it->second.done) entries_.erase(it);
  return Ok();
}

}  // namespace floe
