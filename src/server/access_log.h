// The server's access log: one line per request, as text or JSON.
//
// A line holds what an operator needs to follow a request through a hot table: its id (also
// sent back in the X-Request-Id header), who asked, what, the table, the answer, how long it
// took and how many commit attempts it cost. It never holds a token, a secret or a body: the
// fields are filled from the route and the principal's name only. Everything a client sent
// (the path, the client's own request id) is escaped, so no request can forge a line.
#pragma once

#include <cstdint>
#include <string>

namespace floe {

enum class AccessLogFormat { kText, kJson };

struct AccessLogEntry {
  std::string request_id;
  std::string time;       // ISO 8601 UTC, when the request arrived
  std::string remote;     // client address
  std::string principal;  // empty: anonymous
  std::string method;
  std::string path;       // as requested, without the query
  std::string route;      // the route's name, e.g. "commit-table"
  std::string table;      // ns.table, when the route names one
  int status = 0;
  double latency_ms = 0;
  int attempts = 0;  // commit attempts the server made (0 when the route does not commit)
};

std::string FormatAccessLog(const AccessLogEntry& entry, AccessLogFormat format);

// A new request id: 16 hex digits, random.
std::string NewRequestId();

}  // namespace floe
