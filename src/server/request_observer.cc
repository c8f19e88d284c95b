#include "server/request_observer.h"

#include <cstdio>

#include "types/temporal.h"

namespace floe {

RequestObserver::RequestObserver(bool log, AccessLogFormat format) : log_(log), format_(format) {
  metrics_.DeclareCounter("floe_http_requests_total", "HTTP requests answered, by route, method and status.");
  metrics_.DeclareHistogram("floe_http_request_duration_seconds", "HTTP request latency by route.", LatencyBuckets());
  metrics_.DeclareCounter("floe_commits_total", "Table commits by table, operation and outcome.");
  metrics_.DeclareCounter("floe_commit_attempts_total", "Compare-and-swap attempts made for table commits.");
  metrics_.DeclareCounter("floe_server_retries_total", "Swaps the server retried after losing a race.");
  metrics_.DeclareCounter("floe_server_rebases_total", "Appends the server rebased onto a newer branch head.");
  metrics_.DeclareHistogram("floe_group_commit_size", "Requests committed together in one swap.",
                            {1, 2, 4, 8, 16, 32, 64});
  metrics_.DeclareHistogram("floe_commit_duration_seconds", "Table commit latency.", LatencyBuckets());
  metrics_.DeclareGauge("floe_open_connections", "Client connections being served.");
  metrics_.Set("floe_open_connections", {}, 0);
}

void RequestObserver::SetOpenConnections(size_t count) {
  metrics_.Set("floe_open_connections", {}, static_cast<double>(count));
}

void RequestObserver::RecordCommit(const CommitNote& note, const std::vector<std::string>& ns, double latency_s,
                                   int64_t now_ms) {
  std::string table = metrics_.TableLabel(note.table, ns);
  metrics_.Add("floe_commits_total", {{"table", table}, {"operation", note.operation}, {"outcome", note.outcome}});
  if (note.outcome == "replayed") return;  // nothing ran
  metrics_.Observe("floe_commit_duration_seconds", {{"table", table}}, latency_s);
  if (note.attempts > 0) {
    metrics_.Add("floe_commit_attempts_total", {{"table", table}}, note.attempts);
    if (note.attempts > 1) metrics_.Add("floe_server_retries_total", {{"table", table}}, note.attempts - 1);
  }
  if (note.rebased) metrics_.Add("floe_server_rebases_total", {{"table", table}});
  if (note.group_size > 0) metrics_.Observe("floe_group_commit_size", {}, static_cast<double>(note.group_size));
  if (note.outcome == "landed") activity_.Record(note.table, ActivityKind::kLanded, now_ms);
  if (note.outcome == "conflict") activity_.Record(note.table, ActivityKind::kConflict, now_ms);
  if (note.attempts > 1) activity_.Record(note.table, ActivityKind::kRetry, now_ms, note.attempts - 1);
}

void RequestObserver::Finish(const ObservedRequest& r, const RestReply& reply) {
  metrics_.Add("floe_http_requests_total",
               {{"route", r.route}, {"method", r.method}, {"status", std::to_string(reply.status)}});
  metrics_.Observe("floe_http_request_duration_seconds", {{"route", r.route}}, r.latency_s);
  if (reply.commit) RecordCommit(*reply.commit, r.ns, r.latency_s, r.start_ms + static_cast<int64_t>(r.latency_s * 1000));
  if (!log_) return;
  AccessLogEntry e;
  e.request_id = r.request_id;
  e.time = FormatTimestamp(r.start_ms, 1000, false) + "Z";
  e.remote = r.remote;
  e.principal = r.principal;
  e.method = r.method;
  e.path = r.path;
  e.route = r.route;
  e.table = reply.commit ? reply.commit->table : r.table;
  e.status = reply.status;
  e.latency_ms = r.latency_s * 1000;
  e.attempts = reply.commit ? reply.commit->attempts : 0;
  std::string line = FormatAccessLog(e, format_) + "\n";
  std::lock_guard lock(log_mu_);
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

}  // namespace floe
