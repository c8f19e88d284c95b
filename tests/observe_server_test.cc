// What an operator watches on `floe serve`: /metrics as Prometheus text, the access log, and the
// web view at /ui, loaded in a real browser (headless Chromium) where the machine has one.
// Commits reach the server from real `floe` processes using it as their REST catalog.
#include <gtest/gtest.h>
#include <httplib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "catalog/catalog_test_env.h"
#include "catalog/rest/serve_process_for_tests.h"

namespace floe {
namespace {

using nlohmann::json;
using testing_env::ServeProcess;
using testing_env::TempDir;

struct Run {
  int status = -1;
  std::string out;
};

Run Shell(const std::string& command) {
  Run run;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) run.out.append(buf, n);
  int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The value of the sample `name{labels}` in a Prometheus text exposition; -1 when absent.
double Sample(const std::string& text, const std::string& series) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(series + " ", 0) == 0) return std::stod(line.substr(series.size() + 1));
  }
  return -1;
}

class ObserveServerTest : public ::testing::Test {
 protected:
  std::string Floe(const std::string& args) { return std::string("'") + FLOE_BINARY + "' " + args; }
  std::string Local(const std::string& args) { return Floe("--catalog 'sqlite://" + dir_.path() + "/catalog.db' " + args); }

  // floe serve on the test's catalog, its access log (JSON lines) going to log_path().
  void StartServer(const std::vector<std::string>& serve_args = {}) {
    std::string command = "exec " + Local("serve --log-format json");
    for (const auto& a : serve_args) command += " '" + a + "'";
    command += " --listen 127.0.0.1:0 2>'" + log_path() + "'";
    std::string error;
    server_ = ServeProcess::Start("/bin/sh", {"-c", command}, &error);
    ASSERT_TRUE(server_) << error;
    http_ = std::make_unique<httplib::Client>(server_->url());
    http_->set_read_timeout(30, 0);
  }
  std::string log_path() const { return dir_.path() + "/access.log"; }
  std::string Remote(const std::string& args) { return Floe("--catalog '" + server_->url() + "' " + args); }

  void Write(const std::string& name, const std::string& text) { std::ofstream(dir_.path() + "/" + name) << text; }

  TempDir dir_{"floe-observe"};
  std::unique_ptr<ServeProcess> server_;
  std::unique_ptr<httplib::Client> http_;
};

TEST_F(ObserveServerTest, MetricsCountEveryCommitAndTheLogHasALinePerRequest) {
  StartServer();
  ASSERT_EQ(Shell(Remote("namespace create a")).status, 0);
  auto created = Shell(Remote("create a.t --schema 'id long, country string' --partition-by country"));
  ASSERT_EQ(created.status, 0) << created.out;
  // 8 writer processes append at once through the server, 3 batches each.
  std::vector<std::thread> writers;
  std::vector<int> statuses(8, -1);
  for (int w = 0; w < 8; ++w) {
    Write("w" + std::to_string(w) + ".csv", "id,country\n" + std::to_string(w) + ",DE\n");
    writers.emplace_back([&, w] {
      int worst = 0;
      for (int b = 0; b < 3; ++b) {
        worst = std::max(worst, Shell(Remote("append a.t '" + dir_.path() + "/w" + std::to_string(w) + ".csv'")).status);
      }
      statuses[static_cast<size_t>(w)] = worst;
    });
  }
  for (auto& t : writers) t.join();
  for (int s : statuses) ASSERT_EQ(s, 0);

  // A commit whose requirement fails (409), then one replayed under its Idempotency-Key.
  auto loaded = http_->Get("/v1/namespaces/a/tables/t");
  ASSERT_TRUE(loaded && loaded->status == 200);
  json stale = {{"requirements", {{{"type", "assert-ref-snapshot-id"}, {"ref", "main"}, {"snapshot-id", 1}}}},
                {"updates", {{{"action", "set-properties"}, {"updates", {{"x", "1"}}}}}}};
  auto refused = http_->Post("/v1/namespaces/a/tables/t", stale.dump(), "application/json");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 409) << refused->body;
  json props = {{"requirements", json::array()}, {"updates", {{{"action", "set-properties"}, {"updates", {{"y", "2"}}}}}}};
  httplib::Headers key{{"Idempotency-Key", "0c5a3c1e-6d8a-4d55-9a38-2f4f6a1b7c10"}};
  auto first = http_->Post("/v1/namespaces/a/tables/t", key, props.dump(), "application/json");
  auto again = http_->Post("/v1/namespaces/a/tables/t", key, props.dump(), "application/json");
  ASSERT_TRUE(first && again);
  EXPECT_EQ(first->status, 200);
  EXPECT_EQ(again->get_header_value("Idempotent-Replayed"), "true");
  EXPECT_EQ(first->get_header_value("X-Request-Id").size(), 16u);
  EXPECT_NE(first->get_header_value("X-Request-Id"), again->get_header_value("X-Request-Id"));

  auto metrics = http_->Get("/metrics");
  ASSERT_TRUE(metrics);
  ASSERT_EQ(metrics->status, 200);
  EXPECT_EQ(metrics->get_header_value("Content-Type").rfind("text/plain; version=0.0.4", 0), 0u);
  const std::string& text = metrics->body;
  static const std::regex kLine(
      R"(^(# (HELP|TYPE) [a-z_]+ .*|[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? [0-9.e+-]+|[a-z_]+_bucket\{.*le="\+Inf"\} [0-9]+)$)");
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) EXPECT_TRUE(std::regex_match(line, kLine)) << line;
  EXPECT_EQ(Sample(text, R"(floe_commits_total{table="a.t",operation="append",outcome="landed"})"), 24) << text;
  EXPECT_EQ(Sample(text, R"(floe_commits_total{table="a.t",operation="metadata",outcome="conflict"})"), 1) << text;
  EXPECT_EQ(Sample(text, R"(floe_commits_total{table="a.t",operation="metadata",outcome="landed"})"), 1) << text;
  EXPECT_EQ(Sample(text, R"(floe_commits_total{table="a.t",operation="unknown",outcome="replayed"})"), 1) << text;
  EXPECT_GE(Sample(text, R"(floe_commit_attempts_total{table="a.t"})"), 26) << text;
  EXPECT_GE(Sample(text, R"(floe_group_commit_size_count)"), 1) << text;
  EXPECT_GE(Sample(text, R"(floe_http_requests_total{route="commit-table",method="POST",status="200"})"), 26) << text;
  EXPECT_GE(Sample(text, R"(floe_open_connections)"), 1) << text;

  // One JSON line per request, each with its own id; the commits name their table.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::istringstream log(ReadFile(log_path()));
  std::set<std::string> ids;
  int answered = 0, refused_lines = 0, lines_read = 0;
  for (std::string line; std::getline(log, line);) {
    if (line.rfind("{", 0) != 0) continue;  // the server's start-up notes
    ++lines_read;
    json entry = json::parse(line);
    EXPECT_TRUE(ids.insert(entry["request_id"].get<std::string>()).second) << line;
    EXPECT_FALSE(entry["method"].get<std::string>().empty());
    if (entry["route"] == "commit-table") {
      EXPECT_EQ(entry["table"], "a.t") << line;
      if (entry["status"] == 200) ++answered;
      if (entry["status"] == 409) ++refused_lines;
    }
  }
  EXPECT_EQ(answered, 24 + 2) << "24 appends, the property change and its replay";
  EXPECT_GE(refused_lines, 1);
  EXPECT_GE(lines_read, 27 + 3);
  EXPECT_EQ(ReadFile(log_path()).find("Bearer"), std::string::npos);
}

TEST_F(ObserveServerTest, UiAndMetricsNeedTheApisAuthorization) {
  ASSERT_EQ(Shell(Local("namespace create a")).status, 0);
  ASSERT_EQ(Shell(Local("namespace create b")).status, 0);
  ASSERT_EQ(Shell(Local("create a.t --schema 'id long'")).status, 0);
  Write("tokens", "alice:alice-secret:write@a\nbob:bob-secret:write@b\n");
  StartServer({"--tokens-file", dir_.path() + "/tokens"});
  auto as = [&](const std::string& token) {
    return token.empty() ? httplib::Headers{} : httplib::Headers{{"Authorization", "Bearer " + token}};
  };
  for (const std::string path : {"/ui", "/ui/namespaces/a", "/ui/namespaces/a/tables/t", "/metrics"}) {
    auto r = http_->Get(path, as(""));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 401) << path;
  }
  auto forbidden = http_->Get("/ui/namespaces/a/tables/t", as("bob-secret"));
  ASSERT_TRUE(forbidden);
  EXPECT_EQ(forbidden->status, 403);
  EXPECT_EQ(forbidden->body.find("id long"), std::string::npos);
  auto list = http_->Get("/ui", as("bob-secret"));
  ASSERT_TRUE(list && list->status == 200);
  EXPECT_EQ(list->body.find("/ui/namespaces/a\""), std::string::npos) << "bob does not see a";
  EXPECT_NE(list->body.find("/ui/namespaces/b\""), std::string::npos);
  auto page = http_->Get("/ui/namespaces/a/tables/t", as("alice-secret"));
  ASSERT_TRUE(page && page->status == 200);
  EXPECT_EQ(page->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(page->get_header_value("Content-Security-Policy").find("default-src 'none'"), std::string::npos);
  auto metrics = http_->Get("/metrics", as("bob-secret"));
  ASSERT_TRUE(metrics);
  EXPECT_EQ(metrics->status, 200);
  auto posted = http_->Post("/ui", as("alice-secret"), "", "text/plain");
  ASSERT_TRUE(posted);
  EXPECT_EQ(posted->status, 405);
}

// Headless Chromium renders the table page of a table with branches, tags, deletes and many
// files; the test reads the DOM it rendered and keeps a screenshot beside the build.
TEST_F(ObserveServerTest, BrowserRendersTheTablePage) {
  std::string chromium = std::filesystem::exists("/usr/bin/chromium") ? "/usr/bin/chromium" : "";
  if (chromium.empty()) {
    if (std::getenv("CI") != nullptr) FAIL() << "no /usr/bin/chromium: scripts/install-deps.sh installs it";
    GTEST_SKIP() << "skipped: no /usr/bin/chromium (scripts/install-deps.sh installs it)";
  }
  ASSERT_EQ(Shell(Local("namespace create sales")).status, 0);
  ASSERT_EQ(Shell(Local("create sales.orders --schema 'id long, country string' --partition-by country")).status, 0);
  ASSERT_EQ(Shell(Local("properties sales.orders --set write.delete.mode=merge-on-read")).status, 0);
  for (int i = 0; i < 12; ++i) {
    Write("b.csv", "id,country\n" + std::to_string(i) + "," + (i % 3 == 0 ? "FR" : "DE") + "\n");
    ASSERT_EQ(Shell(Local("append sales.orders '" + dir_.path() + "/b.csv'")).status, 0);
  }
  ASSERT_EQ(Shell(Local("branch create sales.orders audit")).status, 0);
  ASSERT_EQ(Shell(Local("append sales.orders '" + dir_.path() + "/b.csv' --branch audit")).status, 0);
  ASSERT_EQ(Shell(Local("tag create sales.orders v1")).status, 0);
  auto deleted = Shell(Local("delete sales.orders --where 'id = 1'"));
  ASSERT_EQ(deleted.status, 0) << deleted.out;
  StartServer();

  std::string artifacts = std::string(FLOE_BINARY).substr(0, std::string(FLOE_BINARY).rfind('/')) + "/test-artifacts";
  std::filesystem::create_directories(artifacts);
  std::string url = server_->url() + "/ui/namespaces/sales/tables/orders";
  std::string flags = " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
                      "--disable-background-networking --disable-component-update --disable-sync "
                      "--user-data-dir='" + dir_.path() + "/chromium' ";
  auto dom = Shell("timeout 60 " + chromium + flags + "--dump-dom '" + url + "'");
  ASSERT_EQ(dom.status, 0) << dom.out.substr(0, 2000);
  const std::string& html = dom.out;
  auto count = [&](const std::string& needle) {
    size_t n = 0;
    for (size_t at = html.find(needle); at != std::string::npos; at = html.find(needle, at + 1)) ++n;
    return n;
  };
  EXPECT_NE(html.find("<h1>sales.orders</h1>"), std::string::npos) << html.substr(0, 2000);
  EXPECT_EQ(count("class=\"snapshot\""), 14u) << "12 appends, the branch's append, the delete";
  EXPECT_NE(html.find("[main]"), std::string::npos);
  EXPECT_NE(html.find("[audit]"), std::string::npos);
  EXPECT_NE(html.find("[tag: v1]"), std::string::npos);
  // The DOM serializer writes text with its quotes unescaped.
  EXPECT_NE(html.find(R"(<code>{"country":"DE"}</code>)"), std::string::npos) << "a row per partition";
  EXPECT_NE(html.find(R"(<code>{"country":"FR"}</code>)"), std::string::npos);
  EXPECT_NE(html.find("1 position and 0 equality delete files"), std::string::npos) << "the delete's file";
  EXPECT_NE(html.find("<code>identity</code>"), std::string::npos);
  EXPECT_EQ(count("class=\"histogram\""), 3u) << "all partitions, then DE and FR";
  EXPECT_NE(html.find("rewrite-data-files sales.orders"), std::string::npos) << "8 small files in DE";

  std::string shot = artifacts + "/ui-table.png";
  std::filesystem::remove(shot);
  auto taken = Shell("cd '" + artifacts + "' && timeout 60 " + chromium + flags +
                     "--window-size=1200,1600 --screenshot=ui-table.png '" + url + "'");
  ASSERT_EQ(taken.status, 0) << taken.out.substr(0, 2000);
  ASSERT_TRUE(std::filesystem::exists(shot));
  EXPECT_GT(std::filesystem::file_size(shot), 10'000u) << "a page, not a blank";
}

}  // namespace
}  // namespace floe
