// The server's metrics in Prometheus' text exposition format (version 0.0.4): counters, gauges
// and histograms, each a family of samples told apart by labels.
//
// Label cardinality is bounded: a `table` label names at most `max_tables` distinct tables,
// the rest are counted under table="other", so a catalog of many tables cannot grow the
// registry without bound. Thread-safe; every call takes one mutex for a few map operations.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace floe {

using MetricLabels = std::vector<std::pair<std::string, std::string>>;

class MetricsRegistry {
 public:
  explicit MetricsRegistry(size_t max_tables = 100) : max_tables_(max_tables) {}

  // Declares a family before its first sample (the HELP and TYPE lines). Histograms take their
  // bucket upper bounds, ascending; +Inf is implied.
  void DeclareCounter(std::string name, std::string help);
  void DeclareGauge(std::string name, std::string help);
  void DeclareHistogram(std::string name, std::string help, std::vector<double> bounds);

  void Add(std::string_view name, const MetricLabels& labels, double amount = 1);  // counters
  void Set(std::string_view name, const MetricLabels& labels, double value);       // gauges
  void Observe(std::string_view name, const MetricLabels& labels, double value);   // histograms

  // `table` itself while fewer than max_tables tables have been seen (or it is one of them),
  // else "other". `ns` is the table's namespace, kept for Render's filter.
  std::string TableLabel(const std::string& table, const std::vector<std::string>& ns = {});

  // Decides whether a caller may see the samples of a table in namespace `ns`; called with
  // nullptr for table="other", which counts tables of every namespace together.
  using TableFilter = std::function<bool(const std::vector<std::string>* ns)>;

  // Every family in name order, samples in label order. With a filter, a sample labelled with
  // a table the filter refuses (or with no namespace known) is left out; samples without a
  // table label are always shown.
  std::string Render(const TableFilter& can_see = nullptr) const;

 private:
  enum class Kind { kCounter, kGauge, kHistogram };
  struct Histogram {
    std::vector<uint64_t> counts;  // per bound, not cumulative
    uint64_t count = 0;
    double sum = 0;
  };
  struct Family {
    Kind kind = Kind::kCounter;
    std::string help;
    std::vector<double> bounds;
    std::map<MetricLabels, double> values;
    std::map<MetricLabels, Histogram> histograms;
  };
  Family* FindLocked(std::string_view name, Kind kind);

  const size_t max_tables_;
  mutable std::mutex mu_;
  std::map<std::string, Family, std::less<>> families_;
  std::set<std::string> tables_;
  std::map<std::string, std::vector<std::string>> table_namespaces_;  // label -> namespace
};

// Buckets for request and commit latencies, in seconds: 1 ms to 30 s.
const std::vector<double>& LatencyBuckets();

}  // namespace floe
