#include "server/metrics.h"

#include <cmath>

#include <fmt/format.h>

namespace floe {
namespace {

// Label values escape backslash, double quote and line feed; HELP text backslash and line feed.
std::string Escape(std::string_view text, bool quote) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '"' && quote) out += "\\\"";
    else out += c;
  }
  return out;
}

std::string Number(double v) {
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (std::isnan(v)) return "NaN";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{}", static_cast<int64_t>(v));
  return fmt::format("{}", v);
}

std::string LabelText(const MetricLabels& labels, const std::string& extra_name = "", const std::string& extra = "") {
  if (labels.empty() && extra_name.empty()) return "";
  std::string out = "{";
  bool first = true;
  for (const auto& [k, v] : labels) {
    out += fmt::format("{}{}=\"{}\"", first ? "" : ",", k, Escape(v, true));
    first = false;
  }
  if (!extra_name.empty()) out += fmt::format("{}{}=\"{}\"", first ? "" : ",", extra_name, extra);
  return out + "}";
}

}  // namespace

const std::vector<double>& LatencyBuckets() {
  static const std::vector<double> kBuckets = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                               0.25,  0.5,    1,     2.5,  5,     10,   30};
  return kBuckets;
}

void MetricsRegistry::DeclareCounter(std::string name, std::string help) {
  std::lock_guard lock(mu_);
  families_[std::move(name)] = Family{Kind::kCounter, std::move(help), {}, {}, {}};
}

void MetricsRegistry::DeclareGauge(std::string name, std::string help) {
  std::lock_guard lock(mu_);
  families_[std::move(name)] = Family{Kind::kGauge, std::move(help), {}, {}, {}};
}

void MetricsRegistry::DeclareHistogram(std::string name, std::string help, std::vector<double> bounds) {
  std::lock_guard lock(mu_);
  families_[std::move(name)] = Family{Kind::kHistogram, std::move(help), std::move(bounds), {}, {}};
}

MetricsRegistry::Family* MetricsRegistry::FindLocked(std::string_view name, Kind kind) {
  auto it = families_.find(name);
  // An undeclared name is a programming error in the server; it is dropped rather than
  // exported without HELP and TYPE.
  if (it == families_.end() || it->second.kind != kind) return nullptr;
  return &it->second;
}

void MetricsRegistry::Add(std::string_view name, const MetricLabels& labels, double amount) {
  std::lock_guard lock(mu_);
  if (Family* f = FindLocked(name, Kind::kCounter)) f->values[labels] += amount;
}

void MetricsRegistry::Set(std::string_view name, const MetricLabels& labels, double value) {
  std::lock_guard lock(mu_);
  if (Family* f = FindLocked(name, Kind::kGauge)) f->values[labels] = value;
}

void MetricsRegistry::Observe(std::string_view name, const MetricLabels& labels, double value) {
  std::lock_guard lock(mu_);
  Family* f = FindLocked(name, Kind::kHistogram);
  if (f == nullptr) return;
  Histogram& h = f->histograms[labels];
  if (h.counts.empty()) h.counts.assign(f->bounds.size(), 0);
  for (size_t i = 0; i < f->bounds.size(); ++i) {
    if (value <= f->bounds[i]) {
      ++h.counts[i];
      break;
    }
  }
  ++h.count;
  h.sum += value;
}

std::string MetricsRegistry::TableLabel(const std::string& table, const std::vector<std::string>& ns) {
  std::lock_guard lock(mu_);
  if (tables_.count(table) > 0) return table;
  if (tables_.size() >= max_tables_) return "other";
  tables_.insert(table);
  if (!ns.empty()) table_namespaces_[table] = ns;
  return table;
}

std::string MetricsRegistry::Render(const TableFilter& can_see) const {
  std::lock_guard lock(mu_);
  auto shown = [&](const MetricLabels& labels) {
    if (!can_see) return true;
    for (const auto& [k, v] : labels) {
      if (k != "table") continue;
      if (v == "other") return can_see(nullptr);
      auto ns = table_namespaces_.find(v);
      return ns != table_namespaces_.end() && can_see(&ns->second);
    }
    return true;
  };
  std::string out;
  for (const auto& [name, f] : families_) {
    static const char* kTypes[] = {"counter", "gauge", "histogram"};
    out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, Escape(f.help, false), name,
                       kTypes[static_cast<int>(f.kind)]);
    for (const auto& [labels, v] : f.values) {
      if (shown(labels)) out += fmt::format("{}{} {}\n", name, LabelText(labels), Number(v));
    }
    for (const auto& [labels, h] : f.histograms) {
      if (!shown(labels)) continue;
      uint64_t cumulative = 0;
      for (size_t i = 0; i < f.bounds.size(); ++i) {
        cumulative += h.counts[i];
        out += fmt::format("{}_bucket{} {}\n", name, LabelText(labels, "le", Number(f.bounds[i])), cumulative);
      }
      out += fmt::format("{}_bucket{} {}\n", name, LabelText(labels, "le", "+Inf"), h.count);
      out += fmt::format("{}_sum{} {}\n", name, LabelText(labels), Number(h.sum));
      out += fmt::format("{}_count{} {}\n", name, LabelText(labels), h.count);
    }
  }
  return out;
}

}  // namespace floe
