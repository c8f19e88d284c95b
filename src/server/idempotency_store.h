// Idempotency keys: the finished responses of mutating requests, kept for a key's lifetime so
// a retried request gets the first answer and changes nothing.
//
// The SQL store keeps them in the catalog's own database, table
//   floe_idempotency(idempotency_key, route, request_hash, state, status, body, created_ms)
// so every server process on that database shares them. A request first claims its key
// (INSERT of a 'pending' row: the primary key makes exactly one claimant win), runs, then
// finishes the row with its status and body ('done'). A 5xx outcome is not final (the spec:
// only 2xx and terminal 4xx are replayed): the claim is released and a retry runs again.
// A 'pending' row older than `stale_ms` belongs to a server that died mid-request; a later
// claimant takes it over. Rows older than the lifetime count as absent and are swept.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "catalog/sql/sql_connection.h"
#include "floe/result.h"

namespace floe {

struct IdempotencyClaim {
  enum class State {
    kClaimed,   // the caller owns the key: run the request, then Finish or Release
    kReplay,    // finished before: answer with status/body
    kInFlight,  // another request with this key is running now
    kMismatch,  // the key was used for a different request (route/body)
  };
  State state = State::kClaimed;
  int status = 0;
  std::string body;
  std::string first_route;  // for kMismatch messages
};

class IdempotencyStore {
 public:
  virtual ~IdempotencyStore() = default;
  virtual Result<IdempotencyClaim> Claim(const std::string& key, const std::string& route,
                                         const std::string& request_hash, int64_t now_ms) = 0;
  virtual Status Finish(const std::string& key, int status, const std::string& body) = 0;
  virtual Status Release(const std::string& key) = 0;
  virtual std::string description() const = 0;
  // True when a finished body may be a reference to a table document (ReplayReference) instead
  // of the answer itself: only where document names are never reused (the SQL catalog names
  // each document with a fresh UUID; the storage catalog's v<N> names come back after a drop).
  virtual bool keeps_references() const { return false; }
};

// A stored body that stands for a commit-table answer: the document at `location`, which the
// replay reads and answers again. JSON text never starts with the prefix, so a stored answer
// and a reference cannot be confused.
std::string ReplayReference(const std::string& location);
// The location a stored body refers to, or nullopt when it is an answer itself.
std::optional<std::string> ReferencedDocument(const std::string& body);

struct IdempotencyTimes {
  int64_t lifetime_ms = 30 * 60 * 1000;
  int64_t stale_ms = 120 * 1000;  // a pending claim older than this is abandoned
};

// The SQL store over connections opened by `open` (one per concurrent request, pooled).
class SqlIdempotencyStore : public IdempotencyStore {
 public:
  using Opener = std::function<Result<std::unique_ptr<SqlConnection>>()>;
  static Result<std::unique_ptr<SqlIdempotencyStore>> Open(Opener open, IdempotencyTimes times);

  Result<IdempotencyClaim> Claim(const std::string& key, const std::string& route, const std::string& request_hash,
                                 int64_t now_ms) override;
  Status Finish(const std::string& key, int status, const std::string& body) override;
  Status Release(const std::string& key) override;
  std::string description() const override { return description_; }
  bool keeps_references() const override { return true; }

 private:
  SqlIdempotencyStore(Opener open, IdempotencyTimes times) : open_(std::move(open)), times_(times) {}
  Result<std::unique_ptr<SqlConnection>> Take();
  void Give(std::unique_ptr<SqlConnection> conn);
  Result<IdempotencyClaim> ClaimOn(SqlConnection& conn, const std::string& key, const std::string& route,
                                   const std::string& request_hash, int64_t now_ms);

  Opener open_;
  IdempotencyTimes times_;
  std::string description_;
  std::mutex mu_;
  std::vector<std::unique_ptr<SqlConnection>> idle_;
  int64_t last_sweep_ms_ = 0;
};

// A store in this process only: for the storage catalog, which has no database.
class MemoryIdempotencyStore : public IdempotencyStore {
 public:
  explicit MemoryIdempotencyStore(IdempotencyTimes times) : times_(times) {}
  Result<IdempotencyClaim> Claim(const std::string& key, const std::string& route, const std::string& request_hash,
                                 int64_t now_ms) override;
  Status Finish(const std::string& key, int status, const std::string& body) override;
  Status Release(const std::string& key) override;
  std::string description() const override { return "memory (this process only)"; }

 private:
  struct Entry {
    std::string route, hash;
    bool done = false;
    int status = 0;
    std::string body;
    int64_t created_ms = 0;
  };
  IdempotencyTimes times_;
  std::mutex mu_;
  std::map<std::string, Entry> entries_;
};

}  // namespace floe
