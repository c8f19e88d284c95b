// RestServer: an Iceberg REST catalog over HTTP, backed by a floe catalog opened by URI.
//
// The server holds no state of its own: table pointers, namespaces and idempotency keys all
// live in the catalog's database, so several servers on one PostgreSQL serve one catalog.
// Without principals it serves loopback clients only (and refuses to listen elsewhere);
// with principals every request needs a bearer token (see server/auth.h), checked with the
// grants the route needs before the request's body is parsed. Every location a request sets is
// confined (server/location_confinement.h) and what one commit may add is bounded
// (server/commit_limits.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "contention/contention_scheduler.h"
#include "server/access_log.h"
#include "server/auth.h"
#include "server/connection_guard.h"

namespace floe {

struct RestServerOptions {
  std::string catalog_uri;  // empty: the default catalog (./warehouse/catalog.db)
  std::string catalog_name = "default";
  std::string host = "127.0.0.1";
  int port = 8181;  // 0: any free port
  std::vector<Principal> principals;
  int64_t token_lifetime_s = 3600;
  size_t max_body_bytes = 10 * 1024 * 1024;  // larger bodies get 413
  size_t max_namespaces = 10000;             // create-namespace refused (400) beyond
  int write_timeout_s = 30;                  // per socket write
  // Request deadlines (header, body, keep-alive idle) and connection caps: see connection_guard.h.
  ConnectionLimits connections;
  int threads = 16;  // connections served by threads kept ready; more get threads of their own
  int64_t idempotency_lifetime_s = 30 * 60;
  // Prefixes where any table may live besides its namespace's location (--allow-location).
  std::vector<std::string> allowed_locations;
  // The access log on standard error, one line per request (server/access_log.h).
  bool access_log = true;
  AccessLogFormat log_format = AccessLogFormat::kText;
  // The contention state the server's commits meet in (group-commit queues, and the scheduler
  // of the commits it makes through its catalogs); must outlive the server. Null: the server
  // keeps one of its own.
  ContentionScheduler* contention = nullptr;
};

class RestServer {
 public:
  // Opens the catalog (once, to check it) and the idempotency store; checks the options.
  static Result<std::unique_ptr<RestServer>> Create(RestServerOptions options);
  ~RestServer();

  // Binds the listening socket; returns the port (useful with port 0).
  Result<int> Bind();
  // Serves until Stop(); returns when the server has stopped.
  Status Run();
  // Stops accepting and returns from Run(); safe from any thread.
  void Stop();

  std::string url() const;  // http://host:port
  // What a person starting the server should know (auth mode, idempotency store, ...).
  std::vector<std::string> notes() const;

 private:
  struct Impl;
  explicit RestServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// True for 127.0.0.0/8, ::1 and "localhost".
bool IsLoopbackAddress(const std::string& host);

}  // namespace floe
