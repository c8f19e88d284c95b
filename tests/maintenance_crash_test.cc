// Crash safety of maintenance, with real processes killed by SIGKILL:
//   - an expiry killed between its commit and its deletes: the snapshots are gone, their files
//     are not; the next expiry (even one with nothing new to expire) deletes exactly them;
//   - an orphan sweep killed mid-way: rerunning finishes it; nothing reachable is gone.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "catalog/catalog.h"
#include "maint/reachable_files.h"
#include "scan/table_scan.h"
#include "rows/row_writes.h"
#include "types/schema_text.h"
#include "util/clock.h"
#include "util/uuid.h"
#include "floe_process.h"

namespace floe {
namespace {

struct Table {
  std::string dir, uri;
  TableIdentifier id{{"crash"}, "orders"};
  std::unique_ptr<Catalog> catalog;

  Table() {
    dir = (std::filesystem::temp_directory_path() / ("floe-maint-crash-" + RandomUuidString().substr(0, 8))).string();
    std::filesystem::create_directories(dir);
    uri = "sqlite://" + dir + "/catalog.db";
    catalog = std::move(*OpenCatalog(uri));
    EXPECT_TRUE(catalog->CreateNamespace({"crash"}, {}).has_value());
    CreateTableRequest request;
    request.schema = *ParseSchemaText("order_id long not null, note string");
    EXPECT_TRUE(catalog->CreateTable(id, request).has_value());
  }
  ~Table() {
    catalog.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  void Append(int64_t order) {
    ColumnBatch rows(*ParseSchemaText("order_id long not null, note string"));
    ASSERT_TRUE(rows.AppendRow({Literal::Long(order), Literal::String("n")}).has_value());
    ASSERT_TRUE(AppendBatch(*catalog, id, rows).has_value());
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
  }
  TableMetadata Metadata() { return catalog->LoadTable(id)->metadata; }
  size_t Rows() {
    auto rows = ReadTable(*catalog->io(), Metadata(), ScanOptions{});
    EXPECT_TRUE(rows.has_value()) << (rows ? "" : rows.error().message);
    return rows ? rows->num_rows : 0;
  }
  // floe with `env` set, in the background.
  pid_t Spawn(const std::string& env_name, const std::string& env_value, const std::vector<std::string>& args) {
    std::vector<std::string> all = {"--catalog", uri};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<std::pair<std::string, std::string>> env;
    if (!env_name.empty()) env.emplace_back(env_name, env_value);
    return test::SpawnProcess(FLOE_BINARY, all, {}, env);
  }
  int Run(const std::vector<std::string>& args) {
    int status = 0;
    waitpid(Spawn("", "", args), &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
};

// Manifest lists, manifests and live files of every snapshot of `m`.
std::set<std::string> Reachable(FileIO& io, const TableMetadata& m) {
  ReachableFiles reach;
  EXPECT_TRUE(AddManifests(io, m, AllSnapshots(m), reach).has_value());
  std::set<std::string> out = reach.manifest_lists;
  for (const auto& [p, f] : reach.manifests) out.insert(p);
  auto content = ContentFiles(io, m, reach.manifests, true);
  EXPECT_TRUE(content.has_value());
  if (content) out.insert(content->begin(), content->end());
  return out;
}

bool WaitFor(const std::string& path, int seconds) {
  for (int i = 0; i < seconds * 100; ++i) {
    if (std::filesystem::exists(path)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST(MaintenanceCrash, ExpiryKilledBetweenCommitAndDeletesIsFinishedByTheNextRun) {
  Table t;
  for (int i = 0; i < 4; ++i) t.Append(i);
  FileIO& io = *t.catalog->io();
  const TableMetadata before = t.Metadata();
  const std::set<std::string> all_before = Reachable(io, before);
  const std::string marker = t.dir + "/committed";
  pid_t pid = t.Spawn("FLOE_TEST_PAUSE_AFTER_EXPIRE_COMMIT", marker,
                      {"expire-snapshots", t.id.ToString(), "--older-than", std::to_string(NowMillis())});
  ASSERT_TRUE(WaitFor(marker, 60)) << "the expiry never committed";
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);

  // Committed, nothing deleted: the expired snapshots' files are still all there.
  const TableMetadata after = t.Metadata();
  ASSERT_EQ(after.snapshots.size(), 1u);
  for (const auto& f : all_before) EXPECT_TRUE(std::filesystem::exists(f)) << f;
  const std::set<std::string> still_needed = Reachable(io, after);

  // A rerun with nothing new to expire finishes the deletes of the killed one.
  ASSERT_EQ(t.Run({"expire-snapshots", t.id.ToString()}), 0);
  for (const auto& f : all_before) {
    EXPECT_EQ(std::filesystem::exists(f), still_needed.contains(f)) << f;
  }
  EXPECT_EQ(t.Rows(), 4u);
  // The record is gone once finished.
  for (const auto& e : std::filesystem::recursive_directory_iterator(t.dir))
    EXPECT_EQ(e.path().filename().string().find("floe-expiry-"), std::string::npos) << e.path();
}

TEST(MaintenanceCrash, OrphanSweepKilledMidwayIsFinishedByARerun) {
  Table t;
  t.Append(1);
  const TableMetadata m = t.Metadata();
  FileIO& io = *t.catalog->io();
  const std::set<std::string> live = Reachable(io, m);
  std::string data_dir = m.location + "/data";
  std::filesystem::create_directories(data_dir);
  // Deletes go kDeleteBatch (1,000) a request: three batches, killed after the first.
  std::vector<std::string> orphans;
  for (int i = 0; i < 2500; ++i) {
    orphans.push_back(data_dir + "/killed-" + std::to_string(i) + ".parquet");
    std::ofstream(orphans.back()) << "left by a killed writer";
  }
  const std::string marker = t.dir + "/swept";
  pid_t pid = t.Spawn("FLOE_TEST_PAUSE_AFTER_DELETES", marker + ":1000",
                      {"remove-orphan-files", t.id.ToString(), "--older-than", std::to_string(NowMillis())});
  ASSERT_TRUE(WaitFor(marker, 60)) << "the sweep never started deleting";
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  size_t left = 0;
  for (const auto& f : orphans) left += std::filesystem::exists(f) ? 1 : 0;
  EXPECT_GT(left, 0u);
  EXPECT_LT(left, orphans.size());
  ASSERT_EQ(t.Run({"remove-orphan-files", t.id.ToString(), "--older-than", std::to_string(NowMillis())}), 0);
  for (const auto& f : orphans) EXPECT_FALSE(std::filesystem::exists(f)) << f;
  for (const auto& f : live) EXPECT_TRUE(std::filesystem::exists(f)) << f;
  EXPECT_EQ(t.Rows(), 1u);
}

}  // namespace
}  // namespace floe
