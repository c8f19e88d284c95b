// Many writers, one table, Iceberg's default commit.retry.* settings (4 retries, waits from
// 100 ms): real writer processes appending keyed batches through a real `floe serve`, and real
// `floe append` processes on the catalog directly. Afterwards every batch is in the table
// exactly once, no writer gave up, main is one chain with strictly increasing sequence
// numbers, and each writer's snapshot id is the one it was answered. SQLite always, PostgreSQL
// with FLOE_TEST_PG_URI.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include <gtest/gtest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>

#include "catalog/catalog_test_env.h"
#include "catalog/rest/serve_process_for_tests.h"
#include "scan/manifest_reading.h"
#include "commit/commit_operation.h"
#include "commit/files_operation.h"
#include "commit/operations.h"
#include "util/uuid.h"
#include "write/data_writer.h"

namespace floe {
namespace {

using testing_env::Backend;
using testing_env::ServeProcess;

const TableIdentifier kTable{{"hot"}, "events"};

// The live data files of main's head, each with how many times it is listed.
std::map<std::string, int> LiveFiles(Catalog& catalog, const TableMetadata& m) {
  std::map<std::string, int> out;
  const Snapshot* head = m.CurrentSnapshot();
  if (!head) return out;
  auto manifests = ReadManifestList(*catalog.io(), m, *head);
  EXPECT_TRUE(manifests) << manifests.error().ToString();
  if (!manifests) return out;
  for (const auto& manifest : *manifests) {
    auto entries = ReadManifestEntries(*catalog.io(), m, manifest);
    EXPECT_TRUE(entries) << entries.error().ToString();
    if (!entries) continue;
    for (const auto& e : *entries) {
      if (e.status != EntryStatus::kDeleted) ++out[std::filesystem::path(e.file.file_path).filename().string()];
    }
  }
  return out;
}

// Main from its head down: one chain, sequence numbers strictly falling; the ids on it.
std::set<int64_t> ChainIds(const TableMetadata& m) {
  std::set<int64_t> ids;
  int64_t below = INT64_MAX;
  for (const Snapshot* s = m.CurrentSnapshot(); s;
       s = s->parent_snapshot_id ? m.SnapshotById(*s->parent_snapshot_id) : nullptr) {
    EXPECT_LT(s->sequence_number, below) << "snapshot " << s->snapshot_id;
    below = s->sequence_number;
    EXPECT_TRUE(ids.insert(s->snapshot_id).second);
  }
  return ids;
}

class HotTableTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    place_ = testing_env::MakePlace(GetParam(), dir_.path());
    if (place_.uri.empty()) GTEST_SKIP() << place_.skip_reason;
    if (!std::filesystem::exists(FLOE_BINARY)) GTEST_SKIP() << "skipped: no floe binary at " FLOE_BINARY;
  }
  std::unique_ptr<Catalog> Direct() {
    auto opened = testing_env::OpenPlace(place_);
    EXPECT_TRUE(opened) << opened.error().ToString();
    return opened ? std::move(*opened) : nullptr;
  }
  void StartServer() {
    std::string error;
    server_ = ServeProcess::Start(FLOE_BINARY, {"--catalog", place_.uri, "--catalog-name", place_.name, "serve"}, &error);
    ASSERT_TRUE(server_) << error;
  }
  void CreateTable(Catalog& catalog) {
    ASSERT_TRUE(catalog.CreateNamespace({"hot"}, {}));
    // No commit.retry.* properties: Iceberg's defaults.
    auto created = catalog.CreateTable(kTable, CreateTableRequest{testing_env::SimpleSchema()});
    ASSERT_TRUE(created) << created.error().ToString();
  }

  testing_env::TempDir dir_{"floe-hot-table"};
  testing_env::CatalogPlace place_;
  std::unique_ptr<ServeProcess> server_;
};

// Writer process `w`: `batches` appends of one Parquet file each through `uri`; writes
// "<batch> <snapshot id>" per landed batch to its log and exits 1 if any batch gave up.
[[noreturn]] void RunWriter(const std::string& uri, const std::string& log, int w, int batches) {
  auto catalog = OpenCatalog(uri);
  if (!catalog) _exit(3);
  std::ofstream out(log);
  int gave_up = 0;
  for (int b = 0; b < batches; ++b) {
    auto table = (*catalog)->LoadTable(kTable);
    if (!table) _exit(3);
    DataWriter writer(*(*catalog)->io(), table->metadata);
    ColumnBatch rows(table->metadata.CurrentSchema());
    for (int r = 0; r < 3; ++r) {
      (void)rows.AppendRow({Literal::Long(w * 1000 + b * 10 + r), Literal::String("w" + std::to_string(w))});
    }
    if (!writer.Write(rows)) _exit(3);
    auto files = writer.Finish();
    if (!files || files->size() != 1) _exit(3);
    const std::string name = std::filesystem::path(files->front().file_path).filename().string();
    FilesOperation op(FastAppend(*files));
    auto done = CommitOperation(**catalog, kTable, op);
    if (!done) {
      std::fprintf(stderr, "writer %d batch %d: %s\n", w, b, done.error().ToString().c_str());
      ++gave_up;
      continue;
    }
    out << name << " " << done->snapshot_id << "\n";
  }
  out.close();
  _exit(gave_up == 0 ? 0 : 1);
}

TEST_P(HotTableTest, WritersThroughFloeServeEachLandEveryBatchOnceInOneChain) {
  StartServer();
  auto direct = Direct();
  ASSERT_TRUE(direct);
  CreateTable(*direct);
  constexpr int kWriters = 8, kBatches = 6;
  std::vector<pid_t> pids;
  for (int w = 0; w < kWriters; ++w) {
    pid_t pid = fork();
    if (pid == 0) RunWriter(server_->url(), dir_.path() + "/writer-" + std::to_string(w), w, kBatches);
    pids.push_back(pid);
  }
  for (pid_t pid : pids) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a writer gave up or failed: status " << status;
  }
  auto table = direct->LoadTable(kTable);
  ASSERT_TRUE(table) << table.error().ToString();
  const std::set<int64_t> chain = ChainIds(table->metadata);
  const auto live = LiveFiles(*direct, table->metadata);
  size_t answered = 0;
  for (int w = 0; w < kWriters; ++w) {
    std::ifstream in(dir_.path() + "/writer-" + std::to_string(w));
    std::string name;
    int64_t snapshot_id = 0;
    while (in >> name >> snapshot_id) {
      ++answered;
      EXPECT_EQ(chain.count(snapshot_id), 1u) << "writer " << w << " was answered snapshot " << snapshot_id;
      auto it = live.find(name);
      ASSERT_NE(it, live.end()) << name << " is missing";
      EXPECT_EQ(it->second, 1) << name << " is listed " << it->second << " times";
    }
  }
  EXPECT_EQ(answered, static_cast<size_t>(kWriters * kBatches));
  EXPECT_EQ(live.size(), static_cast<size_t>(kWriters * kBatches));
  EXPECT_EQ(chain.size(), static_cast<size_t>(kWriters * kBatches));
}

TEST_P(HotTableTest, FloeAppendProcessesOnTheCatalogDirectlyNoneGivesUp) {
  // A table saturated by processes that share nothing: some append loses more than 4 races in
  // a row, and before an append's lost races stopped spending commit.retry.num-retries one of
  // these processes gave up in about every other run.
  auto direct = Direct();
  ASSERT_TRUE(direct);
  CreateTable(*direct);
  constexpr int kWriters = 16, kBatches = 3;
  for (int w = 0; w < kWriters; ++w) {
    for (int b = 0; b < kBatches; ++b) {
      std::ofstream(dir_.path() + "/w" + std::to_string(w) + "-" + std::to_string(b) + ".csv")
          << "id,data\n" << w * 100 + b << ",w" << w << "\n";
    }
  }
  std::vector<pid_t> pids;
  for (int w = 0; w < kWriters; ++w) {
    pid_t pid = fork();
    if (pid == 0) {
      // One `floe append` process per batch, one after another, as a user's loop would run them.
      for (int b = 0; b < kBatches; ++b) {
        const std::string csv = dir_.path() + "/w" + std::to_string(w) + "-" + std::to_string(b) + ".csv";
        pid_t child = fork();
        if (child == 0) {
          execl(FLOE_BINARY, FLOE_BINARY, "--catalog", place_.uri.c_str(), "--catalog-name", place_.name.c_str(),
                "append", kTable.ToString().c_str(), csv.c_str(), static_cast<char*>(nullptr));
          _exit(127);
        }
        int status = 0;
        waitpid(child, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) _exit(1);
      }
      _exit(0);
    }
    pids.push_back(pid);
  }
  for (pid_t pid : pids) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a floe append gave up: status " << status;
  }
  auto table = direct->LoadTable(kTable);
  ASSERT_TRUE(table);
  EXPECT_EQ(ChainIds(table->metadata).size(), static_cast<size_t>(kWriters * kBatches));
  EXPECT_EQ(table->metadata.CurrentSnapshot()->summary.at("total-records"), std::to_string(kWriters * kBatches));
}

// Commits sent together while an answer is lost: the lost one's Idempotency-Key replay returns
// its first answer and changes nothing; a request whose requirement fails gets 409 alone.
TEST_P(HotTableTest, LostAnswerInAGroupReplaysItsFirstAnswerAndABadRequestFailsAlone) {
  StartServer();
  auto direct = Direct();
  ASSERT_TRUE(direct);
  CreateTable(*direct);
  const std::string path = "/v1/namespaces/hot/tables/events";
  auto body = [](const std::string& key, int schema_id) {
    return nlohmann::json{{"requirements", {{{"type", "assert-current-schema-id"}, {"current-schema-id", schema_id}}}},
                          {"updates", {{{"action", "set-properties"}, {"updates", {{key, "1"}}}}}}}
        .dump();
  };
  constexpr int kClients = 8;
  // A fresh key each run: the PostgreSQL catalog keeps answers across runs on one cluster.
  const std::string lost_key = RandomUuidString();
  std::vector<int> status(kClients, 0);
  std::vector<std::thread> threads;
  for (int c = 0; c < kClients; ++c) {
    threads.emplace_back([&, c] {
      httplib::Client http(server_->url());
      httplib::Headers headers;
      if (c == 0) {
        headers.emplace("Idempotency-Key", lost_key);
        http.set_read_timeout(0, 1000);  // gives up before the answer: the answer is lost
      }
      auto r = http.Post(path, headers, body("k" + std::to_string(c), c == 5 ? 9 : 0), "application/json");
      status[c] = r ? r->status : -1;
    });
  }
  for (auto& t : threads) t.join();
  for (int c = 1; c < kClients; ++c) EXPECT_EQ(status[c], c == 5 ? 409 : 200) << "client " << c;
  // The lost request ran to its end on the server; wait for its answer to be stored.
  httplib::Client http(server_->url());
  http.set_read_timeout(30, 0);
  auto replay = http.Post(path, {{"Idempotency-Key", lost_key}}, body("k0", 0), "application/json");
  for (int i = 0; i < 100 && (!replay || replay->status == 503); ++i) {  // 503: still in flight
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    replay = http.Post(path, {{"Idempotency-Key", lost_key}}, body("k0", 0), "application/json");
  }
  ASSERT_TRUE(replay);
  ASSERT_EQ(replay->status, 200) << replay->body;
  EXPECT_EQ(replay->get_header_value("Idempotent-Replayed"), "true");
  auto table = direct->LoadTable(kTable);
  ASSERT_TRUE(table);
  for (int c = 0; c < kClients; ++c) EXPECT_EQ(table->metadata.properties.count("k" + std::to_string(c)), c == 5 ? 0u : 1u);
  const auto versions = table->metadata.metadata_log.size();
  auto again = http.Post(path, {{"Idempotency-Key", lost_key}}, body("k0", 0), "application/json");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->body, replay->body);  // the first answer, every time
  EXPECT_EQ(direct->LoadTable(kTable)->metadata.metadata_log.size(), versions);  // nothing applied again
}

INSTANTIATE_TEST_SUITE_P(Backends, HotTableTest, ::testing::Values(Backend::kSqlite, Backend::kPostgres),
                         [](const auto& info) { return std::string(testing_env::BackendName(info.param)); });

}  // namespace
}  // namespace floe
