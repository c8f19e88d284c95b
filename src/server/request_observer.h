// What the server sees of each request, kept for operators: the metrics (/metrics), the access
// log (one line per request on standard error) and the per-table activity the web view plots.
//
// Metric names (all prefixed floe_):
//   http_requests_total{route,method,status}          requests answered
//   http_request_duration_seconds{route}              their latency (histogram)
//   commits_total{table,operation,outcome}            table commits: landed, conflict, refused,
//                                                     unknown, error, replayed
//   commit_attempts_total{table}                      swaps tried for them
//   server_retries_total{table}                       swaps beyond the first (server-side retry)
//   server_rebases_total{table}                       appends the server put on a newer head
//   group_commit_size                                 requests per swap (histogram)
//   commit_duration_seconds{table}                    commit latency (histogram)
//   open_connections                                  connections being served (gauge)
// A table label names at most 100 tables; the rest count as table="other".
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

#include "server/access_log.h"
#include "server/metrics.h"
#include "server/rest_handlers.h"
#include "server/table_activity.h"

namespace floe {

struct ObservedRequest {
  std::string request_id;
  int64_t start_ms = 0;  // wall clock, for the log's time
  std::string remote;
  std::string principal;
  std::string method;
  std::string path;
  std::string route;  // RouteName
  std::string table;
  std::vector<std::string> ns;  // the table's namespace, when the route names one
  double latency_s = 0;
};

class RequestObserver {
 public:
  // `log` false: no access log.
  RequestObserver(bool log, AccessLogFormat format);

  // Records a finished request: its metrics, its commit (reply.commit), its log line.
  void Finish(const ObservedRequest& request, const RestReply& reply);
  void SetOpenConnections(size_t count);

  // The metrics a caller may see: `filter` decides on each table's samples (nullptr: all).
  std::string RenderMetrics(const MetricsRegistry::TableFilter& filter = nullptr) const { return metrics_.Render(filter); }
  const TableActivity& activity() const { return activity_; }

 private:
  void RecordCommit(const CommitNote& note, const std::vector<std::string>& ns, double latency_s, int64_t now_ms);

  const bool log_;
  const AccessLogFormat format_;
  mutable MetricsRegistry metrics_;
  TableActivity activity_;
  std::mutex log_mu_;
};

}  // namespace floe
