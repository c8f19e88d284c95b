#include "server/metrics.h"

#include <regex>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

namespace floe {
namespace {

// Every line of a Prometheus text exposition is a HELP or TYPE comment or a sample:
// name{label="value",...} number.
void ExpectWellFormed(const std::string& text) {
  static const std::regex kSample(
      R"(^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\["\\n])*")(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\["\\n])*")*\})? (-?[0-9.e+-]+|\+Inf|-Inf|NaN)$)");
  static const std::regex kComment(R"(^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .*$)");
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    EXPECT_TRUE(std::regex_match(line, kSample) || std::regex_match(line, kComment)) << "bad line: " << line;
  }
}

TEST(Metrics, CountersGaugesAndHistogramsRender) {
  MetricsRegistry m;
  m.DeclareCounter("floe_commits_total", "Commits by table, operation and outcome.");
  m.DeclareGauge("floe_open_connections", "Open client connections.");
  m.DeclareHistogram("floe_commit_duration_seconds", "Commit latency.", {0.01, 0.1, 1});
  m.Add("floe_commits_total", {{"table", "a.t"}, {"operation", "append"}, {"outcome", "landed"}});
  m.Add("floe_commits_total", {{"table", "a.t"}, {"operation", "append"}, {"outcome", "landed"}}, 2);
  m.Set("floe_open_connections", {}, 4);
  m.Observe("floe_commit_duration_seconds", {{"table", "a.t"}}, 0.005);
  m.Observe("floe_commit_duration_seconds", {{"table", "a.t"}}, 0.5);
  m.Observe("floe_commit_duration_seconds", {{"table", "a.t"}}, 7);
  std::string text = m.Render();
  ExpectWellFormed(text);
  EXPECT_NE(text.find("# TYPE floe_commits_total counter\n"), std::string::npos) << text;
  EXPECT_NE(text.find("floe_commits_total{table=\"a.t\",operation=\"append\",outcome=\"landed\"} 3\n"),
            std::string::npos) << text;
  EXPECT_NE(text.find("floe_open_connections 4\n"), std::string::npos) << text;
  // Buckets are cumulative and end with +Inf equal to the count.
  EXPECT_NE(text.find("floe_commit_duration_seconds_bucket{table=\"a.t\",le=\"0.01\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("floe_commit_duration_seconds_bucket{table=\"a.t\",le=\"0.1\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("floe_commit_duration_seconds_bucket{table=\"a.t\",le=\"1\"} 2\n"), std::string::npos);
  EXPECT_NE(text.find("floe_commit_duration_seconds_bucket{table=\"a.t\",le=\"+Inf\"} 3\n"), std::string::npos);
  EXPECT_NE(text.find("floe_commit_duration_seconds_sum{table=\"a.t\"} 7.505\n"), std::string::npos) << text;
  EXPECT_NE(text.find("floe_commit_duration_seconds_count{table=\"a.t\"} 3\n"), std::string::npos);
}

TEST(Metrics, LabelValuesAreEscaped) {
  MetricsRegistry m;
  m.DeclareCounter("floe_requests_total", "Requests.\nSecond line.");
  m.Add("floe_requests_total", {{"route", "a\"b\\c\nd"}});
  std::string text = m.Render();
  ExpectWellFormed(text);
  EXPECT_NE(text.find(R"(floe_requests_total{route="a\"b\\c\nd"} 1)"), std::string::npos) << text;
  EXPECT_NE(text.find("# HELP floe_requests_total Requests.\\nSecond line.\n"), std::string::npos) << text;
}

TEST(Metrics, TableLabelsAreCapped) {
  MetricsRegistry m(3);
  EXPECT_EQ(m.TableLabel("a.t1"), "a.t1");
  EXPECT_EQ(m.TableLabel("a.t2"), "a.t2");
  EXPECT_EQ(m.TableLabel("a.t3"), "a.t3");
  EXPECT_EQ(m.TableLabel("a.t4"), "other");
  EXPECT_EQ(m.TableLabel("a.t2"), "a.t2") << "a table already tracked keeps its label";
}

// A caller sees a table's samples only when the filter lets it read the table's namespace;
// table="other" mixes namespaces and asks the filter with no namespace.
TEST(Metrics, RenderLeavesOutTheTablesTheFilterRefuses) {
  MetricsRegistry m(2);
  m.DeclareCounter("floe_commits_total", "Commits.");
  m.DeclareCounter("floe_http_requests_total", "Requests.");
  for (const auto& [table, ns] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"a.t", {"a"}}, {"b.t", {"b"}}, {"a.u", {"a"}}}) {
    m.Add("floe_commits_total", {{"table", m.TableLabel(table, ns)}});
  }
  m.Add("floe_http_requests_total", {{"route", "config"}});
  auto only_b = [](const std::vector<std::string>* ns) { return ns != nullptr && *ns == std::vector<std::string>{"b"}; };
  const std::string seen = m.Render(only_b);
  EXPECT_NE(seen.find(R"(floe_commits_total{table="b.t"} 1)"), std::string::npos) << seen;
  EXPECT_EQ(seen.find("a.t"), std::string::npos) << seen;
  EXPECT_EQ(seen.find("other"), std::string::npos) << seen;
  EXPECT_NE(seen.find(R"(floe_http_requests_total{route="config"} 1)"), std::string::npos) << seen;
  const std::string all = m.Render();
  EXPECT_NE(all.find(R"(table="a.t")"), std::string::npos) << all;
  EXPECT_NE(all.find(R"(table="other")"), std::string::npos) << all;
}

TEST(Metrics, UndeclaredOrMistypedNamesAreNotExported) {
  MetricsRegistry m;
  m.DeclareGauge("floe_g", "A gauge.");
  m.Add("floe_g", {}, 1);        // a counter call on a gauge
  m.Add("floe_nothing", {}, 1);  // never declared
  EXPECT_EQ(m.Render(), "# HELP floe_g A gauge.\n# TYPE floe_g gauge\n");
}

TEST(Metrics, ConcurrentAddsAreAllCounted) {
  MetricsRegistry m;
  m.DeclareCounter("floe_c", "C.");
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&m] {
      for (int i = 0; i < 1000; ++i) m.Add("floe_c", {{"k", "v"}});
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_NE(m.Render().find("floe_c{k=\"v\"} 8000\n"), std::string::npos);
}

}  // namespace
}  // namespace floe
