// Maintenance beside live writers, with real processes: 3 appenders, a copy-on-write deleter
// and a reader pinned to one snapshot (the floe command, run again and again) while expiry,
// orphan removal and partial-progress compaction run repeatedly. Afterwards:
//   - every committed append is there unless a committed delete removed it;
//   - every file any remaining snapshot reaches exists (no live or in-flight file deleted);
//   - each pinned read either returned its snapshot's rows or failed naming the expired snapshot;
//   - maintenance never failed for any reason but a refused (validated) rewrite.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "contention/contention_scheduler.h"
#include "catalog/catalog.h"
#include "expr/parser.h"
#include "maint/compaction.h"
#include "maint/expire_snapshots.h"
#include "maint/orphan_files.h"
#include "maint/reachable_files.h"
#include "scan/table_scan.h"
#include "rows/row_writes.h"
#include "types/partition_spec.h"
#include "types/schema_text.h"
#include "util/clock.h"
#include "util/uuid.h"

namespace floe {
namespace {

constexpr int kAppenders = 3;
constexpr int kBatches = 40;
constexpr int kRows = 10;
const char* kCountries[] = {"DE", "FR", "US"};

struct Env {
  std::string dir, uri;
  TableIdentifier id{{"race"}, "orders"};
  std::string Log(const std::string& name) const { return dir + "/" + name + ".log"; }
  bool Stopped() const { return std::filesystem::exists(dir + "/stop"); }
};

Schema OrdersSchema() { return *ParseSchemaText("order_id long not null, country string, batch long"); }

std::unique_ptr<Catalog> Open(const Env& env) {
  auto c = OpenCatalog(env.uri, ProcessCatalogOptions());
  if (!c) _exit(90);
  return std::move(*c);
}

void Pause(std::mt19937_64& rng, int max_ms) {
  std::this_thread::sleep_for(std::chrono::microseconds(rng() % (max_ms * 1000 + 1)));
}

int Appender(const Env& env, int worker) {
  auto catalog = Open(env);
  std::mt19937_64 rng(worker * 7919 + getpid());
  std::ofstream log(env.Log("append-" + std::to_string(worker)));
  for (int k = 0; k < kBatches; ++k) {
    int64_t batch = (worker + 1) * 1000 + k;
    ColumnBatch rows(OrdersSchema());
    for (int i = 0; i < kRows; ++i)
      (void)rows.AppendRow({Literal::Long(batch * 100 + i), Literal::String(kCountries[batch % 3]), Literal::Long(batch)});
    auto r = AppendBatch(*catalog, env.id, rows);
    if (r) log << batch << "\n" << std::flush;
    else log << "failed " << r.error().message << "\n" << std::flush;
    Pause(rng, 40);
  }
  return 0;
}

int Deleter(const Env& env) {
  auto catalog = Open(env);
  std::mt19937_64 rng(getpid());
  std::ofstream log(env.Log("delete"));
  while (!env.Stopped()) {
    Pause(rng, 100);
    auto table = catalog->LoadTable(env.id);
    if (!table) continue;
    ScanOptions options;
    options.columns = {"batch"};
    auto rows = ReadTable(*catalog->io(), table->metadata, options);
    if (!rows || rows->num_rows == 0) continue;
    int64_t batch = rows->columns[0].longs[rng() % rows->num_rows];
    auto r = DeleteWhere(*catalog, env.id, *ParseFilter("batch = " + std::to_string(batch)));
    if (r && r->committed && r->rows_deleted > 0) log << batch << "\n" << std::flush;
  }
  return 0;
}

// Each line: "ok <rows>" or "error <message>" of one `floe scan --snapshot S`.
int PinnedReader(const Env& env, int64_t snapshot_id) {
  std::ofstream log(env.Log("pinned"));
  while (!env.Stopped()) {
    std::string cmd = std::string(FLOE_BINARY) + " --catalog '" + env.uri + "' scan " + env.id.ToString() +
                      " --snapshot " + std::to_string(snapshot_id) + " --format csv 2>&1";
    FILE* pipe = popen(cmd.c_str(), "r");
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
    int status = pclose(pipe);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      log << "ok " << std::count(out.begin(), out.end(), '\n') - 1 << "\n" << std::flush;
    } else {
      std::replace(out.begin(), out.end(), '\n', ' ');
      log << "error " << out << "\n" << std::flush;
    }
  }
  return 0;
}

int Maintainer(const Env& env) {
  auto catalog = Open(env);
  std::ofstream log(env.Log("maintain"));
  int round = 0;
  while (!env.Stopped()) {
    ++round;
    ExpireOptions expire;
    expire.retention.older_than_ms = NowMillis() - 200;
    expire.retention.retain_last = 2;
    auto e = ExpireSnapshots(*catalog, env.id, expire);
    if (!e) log << "expire failed: " << e.error().message << "\n" << std::flush;
    else log << "expired " << e->expired_snapshot_ids.size() << "\n" << std::flush;

    OrphanOptions orphans;
    orphans.older_than_ms = NowMillis() - 8000;
    auto o = RemoveOrphanFiles(*catalog, env.id, orphans);
    if (!o) log << "orphans failed: " << o.error().message << "\n" << std::flush;

    CompactionOptions compact;
    compact.partial_progress = true;
    compact.max_commits = 3;
    compact.min_input_files = 3;
    auto c = CompactTable(*catalog, env.id, compact);
    if (!c) {
      log << "compact failed: " << c.error().message << "\n" << std::flush;
    } else {
      for (const auto& g : c->groups) {
        if (g.committed) log << "group committed\n";
        else if (g.error.find("Cannot") != std::string::npos || g.error.find("refused") != std::string::npos ||
                 g.error.find("conflict") != std::string::npos || g.error.find("Missing required files") != std::string::npos)
          log << "group refused\n";
        else log << "group failed: " << g.error << "\n";
      }
      log << std::flush;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
  }
  return 0;
}

pid_t Spawn(const std::function<int()>& body) {
  pid_t pid = fork();
  if (pid == 0) _exit(body());
  return pid;
}

std::vector<std::string> Lines(const std::string& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(MaintenanceRace, ExpiryOrphansAndCompactionBesideWritersAndAPinnedReader) {
  Env env;
  env.dir = (std::filesystem::temp_directory_path() / ("floe-maint-race-" + RandomUuidString().substr(0, 8))).string();
  std::filesystem::create_directories(env.dir);
  env.uri = "sqlite://" + env.dir + "/catalog.db";
  int64_t pinned = 0;
  size_t pinned_rows = 0;
  {
    auto catalog = Open(env);
    ASSERT_TRUE(catalog->CreateNamespace({"race"}, {}).has_value());
    CreateTableRequest request;
    request.schema = OrdersSchema();
    request.spec = PartitionSpec(0, *ParsePartitionFields("country", request.schema, 1000));
    request.properties = {{"commit.retry.num-retries", "200"},
                          {"commit.retry.min-wait-ms", "1"},
                          {"commit.retry.max-wait-ms", "100"}};
    ASSERT_TRUE(catalog->CreateTable(env.id, request).has_value());
    ColumnBatch rows(OrdersSchema());
    for (int i = 0; i < kRows; ++i) (void)rows.AppendRow({Literal::Long(i), Literal::String("DE"), Literal::Long(0)});
    ASSERT_TRUE(AppendBatch(*catalog, env.id, rows).has_value());
    pinned = *catalog->LoadTable(env.id)->metadata.current_snapshot_id;
    pinned_rows = kRows;
  }

  std::vector<pid_t> appenders, others;
  for (int w = 0; w < kAppenders; ++w) appenders.push_back(Spawn([&, w] { return Appender(env, w); }));
  others.push_back(Spawn([&] { return Deleter(env); }));
  others.push_back(Spawn([&] { return PinnedReader(env, pinned); }));
  others.push_back(Spawn([&] { return Maintainer(env); }));
  for (pid_t pid : appenders) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  // The maintainer runs two more rounds after the last append before everyone stops, so that
  // expiry has snapshots older than its 200 ms to remove however a loaded machine scheduled the
  // rounds during the appends (bounded: a stuck maintainer still stops after a minute).
  auto rounds = [&] {
    size_t n = 0;
    for (const auto& line : Lines(env.Log("maintain"))) n += line.starts_with("expired ") || line.starts_with("expire failed") ? 1 : 0;
    return n;
  };
  const size_t rounds_at_end = rounds();
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  for (int waited = 0; rounds() < rounds_at_end + 2 && waited < 600; ++waited)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::ofstream(env.dir + "/stop") << "stop\n";
  for (pid_t pid : others) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }

  std::set<int64_t> appended, deleted;
  for (int w = 0; w < kAppenders; ++w) {
    for (const auto& line : Lines(env.Log("append-" + std::to_string(w)))) {
      if (line.starts_with("failed")) ADD_FAILURE() << "append " << line;
      else appended.insert(std::stoll(line));
    }
  }
  for (const auto& line : Lines(env.Log("delete"))) deleted.insert(std::stoll(line));
  EXPECT_EQ(appended.size(), static_cast<size_t>(kAppenders * kBatches));

  auto catalog = Open(env);
  auto table = catalog->LoadTable(env.id);
  ASSERT_TRUE(table.has_value());
  const TableMetadata& m = table->metadata;
  ScanOptions options;
  options.columns = {"order_id", "batch"};
  auto rows = ReadTable(*catalog->io(), m, options);
  ASSERT_TRUE(rows.has_value()) << rows.error().message;
  std::map<int64_t, int> per_batch;
  for (size_t r = 0; r < rows->num_rows; ++r) ++per_batch[rows->columns[1].longs[r]];
  for (int64_t batch : appended)
    EXPECT_EQ(per_batch[batch], deleted.count(batch) ? 0 : kRows) << "batch " << batch;

  // Every file a remaining snapshot reaches exists.
  ReachableFiles reach;
  ASSERT_TRUE(AddManifests(*catalog->io(), m, AllSnapshots(m), reach).has_value());
  auto live = ContentFiles(*catalog->io(), m, reach.manifests, true);
  ASSERT_TRUE(live.has_value()) << live.error().message;
  for (const auto& f : *live) EXPECT_TRUE(std::filesystem::exists(f)) << f;
  for (const auto& f : reach.manifest_lists) EXPECT_TRUE(std::filesystem::exists(f)) << f;

  // The pinned reader saw its snapshot or was told it was expired.
  size_t ok = 0, expired = 0;
  for (const auto& line : Lines(env.Log("pinned"))) {
    if (line == "ok " + std::to_string(pinned_rows)) {
      ++ok;
    } else if (line.starts_with("error") && line.find(std::to_string(pinned)) != std::string::npos &&
               line.find("expired") != std::string::npos) {
      ++expired;
    } else {
      ADD_FAILURE() << "pinned reader: " << line;
    }
  }
  EXPECT_GT(ok + expired, 0u);

  size_t expiries = 0, committed = 0, refused = 0;
  for (const auto& line : Lines(env.Log("maintain"))) {
    if (line.starts_with("expired ")) expiries += std::stoul(line.substr(8));
    else if (line == "group committed") ++committed;
    else if (line == "group refused") ++refused;
    else ADD_FAILURE() << "maintenance: " << line;
  }
  EXPECT_GT(expiries, 0u);
  EXPECT_GT(committed, 0u);
  std::printf("appended %zu, deleted %zu, snapshots expired %zu, groups committed %zu refused %zu, pinned reads ok "
              "%zu expired %zu, snapshots left %zu\n",
              appended.size(), deleted.size(), expiries, committed, refused, ok, expired, m.snapshots.size());
  catalog.reset();
  std::error_code ec;
  std::filesystem::remove_all(env.dir, ec);
}

}  // namespace
}  // namespace floe
