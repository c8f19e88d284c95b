// Deletion vectors under contention, with real processes: on a format 3 merge-on-read table,
// three deleters (the floe command, run again and again) delete disjoint rows that share data
// files, an appender adds rows, and compaction rewrites files, all at once. Afterwards:
//   - every delete that reported success removed exactly the rows it named, once;
//   - the table holds exactly the rows appended and not deleted: no delete lost when two
//     vectors for one data file raced, no row brought back by a compaction;
//   - every snapshot holds at most one vector per data file, and no position delete file;
//   - a delete or compaction failed only as a refused (validated) commit, never otherwise.
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "contention/contention_scheduler.h"
#include "catalog/catalog.h"
#include "scan/table_scan.h"
#include "table_files/manifest_io.h"
#include "util/uuid.h"

namespace floe {
namespace {

constexpr int kDeleters = 3;
constexpr int kDeletesEach = 12;
constexpr int kInitialRows = 600;  // ids 0..599, three partitions, one data file each per batch
constexpr int kAppends = 10;
constexpr int kAppendRows = 30;
const char* kCountries[] = {"DE", "FR", "US"};

struct Env {
  std::string dir, uri;
  std::string Log(const std::string& name) const { return dir + "/" + name + ".log"; }
  bool Stopped() const { return std::filesystem::exists(dir + "/stop"); }
};

// Runs `floe --catalog <uri> <args>`; its exit code, and its output (stdout and stderr) in `out`.
int Floe(const Env& env, const std::string& args, std::string* out) {
  std::string cmd = std::string(FLOE_BINARY) + " --catalog '" + env.uri + "' " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return -1;
  out->clear();
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out->append(buf, n);
  int status = pclose(pipe);
  for (auto& c : *out)
    if (c == '\n') c = ' ';
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string Csv(const std::vector<int64_t>& ids) {
  std::string out = "id,country,amount\n";
  for (int64_t id : ids) out += std::to_string(id) + "," + kCountries[id % 3] + "," + std::to_string(id * 10) + "\n";
  return out;
}

// Deleter w deletes ids with (id / 3) % kDeleters == w, a few at a time, chosen at random among the
// initial rows: rows of the same data files as the other deleters'. Its first delete waits for
// the others' (the file "go").
int Deleter(const Env& env, int w) {
  std::mt19937_64 rng(w * 104729 + getpid());
  std::vector<int64_t> mine;
  for (int64_t id = 0; id < kInitialRows; ++id)
    if ((id / 3) % kDeleters == w) mine.push_back(id);  // every partition (country is id % 3)
  std::shuffle(mine.begin(), mine.end(), rng);
  std::ofstream log(env.Log("delete-" + std::to_string(w)));
  size_t next = 0;
  while (!std::filesystem::exists(env.dir + "/go")) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  for (int k = 0; k < kDeletesEach; ++k) {
    std::vector<int64_t> ids(mine.begin() + next, mine.begin() + next + 1 + rng() % 4);
    next += ids.size();
    std::string in;
    for (int64_t id : ids) in += (in.empty() ? "" : ", ") + std::to_string(id);
    std::string out;
    int rc = Floe(env, "delete race.t --where 'id IN (" + in + ")'", &out);
    // "ok <ids> | <output>": the output says how many rows were deleted.
    log << (rc == 0 ? "ok " : "failed ") << in << " | " << out << "\n" << std::flush;
    std::this_thread::sleep_for(std::chrono::milliseconds(rng() % 150));  // room for compactions to land
  }
  return 0;
}

int Appender(const Env& env) {
  std::ofstream log(env.Log("append"));
  for (int k = 0; k < kAppends; ++k) {
    std::vector<int64_t> ids;
    for (int i = 0; i < kAppendRows; ++i) ids.push_back(10000 + k * kAppendRows + i);
    const std::string path = env.dir + "/append-" + std::to_string(k) + ".csv";
    std::ofstream(path) << Csv(ids);
    std::string out;
    int rc = Floe(env, "append race.t " + path, &out);
    log << (rc == 0 ? "ok " + std::to_string(k) : "failed " + out) << "\n" << std::flush;
  }
  return 0;
}

int Compactor(const Env& env) {
  std::ofstream log(env.Log("compact"));
  while (!env.Stopped()) {
    std::string out;
    int rc = Floe(env, "rewrite-data-files race.t --min-input-files 2 --partial-progress", &out);
    log << (rc == 0 ? "ok " : "failed ") << out << "\n" << std::flush;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
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

std::vector<int64_t> Ids(const std::string& list) {
  std::vector<int64_t> out;
  std::stringstream in(list);
  for (std::string part; std::getline(in, part, ',');) out.push_back(std::stoll(part));
  return out;
}

TEST(DeletionVectorRace, ConcurrentDeletesAppendsAndCompactionLoseNoDelete) {
  Env env;
  env.dir = (std::filesystem::temp_directory_path() / ("floe-dv-race-" + RandomUuidString().substr(0, 8))).string();
  std::filesystem::create_directories(env.dir);
  env.uri = "sqlite://" + env.dir + "/catalog.db";
  std::string out;
  ASSERT_EQ(Floe(env, "namespace create race", &out), 0) << out;
  ASSERT_EQ(Floe(env,
                 "create race.t --schema 'id long not null, country string, amount long' --partition-by country "
                 "--format-version 3 --property write.delete.mode=merge-on-read "
                 "--property commit.retry.num-retries=200 --property commit.retry.min-wait-ms=1 "
                 "--property commit.retry.max-wait-ms=100",
                 &out),
            0)
      << out;
  // One data file per partition: the deleters' first deletes, started together, race for the
  // first vector of the same few files (and compaction's new files start without one again).
  std::set<int64_t> expected;
  std::vector<int64_t> initial;
  for (int64_t id = 0; id < kInitialRows; ++id) initial.push_back(id);
  std::ofstream(env.dir + "/initial.csv") << Csv(initial);
  ASSERT_EQ(Floe(env, "append race.t " + env.dir + "/initial.csv", &out), 0) << out;
  expected.insert(initial.begin(), initial.end());

  std::vector<pid_t> writers, others;
  for (int w = 0; w < kDeleters; ++w) writers.push_back(Spawn([&, w] { return Deleter(env, w); }));
  writers.push_back(Spawn([&] { return Appender(env); }));
  others.push_back(Spawn([&] { return Compactor(env); }));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::ofstream(env.dir + "/go") << "go\n";
  for (pid_t pid : writers) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  std::ofstream(env.dir + "/stop") << "stop\n";
  for (pid_t pid : others) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }

  size_t deletes = 0, redone = 0;
  for (int w = 0; w < kDeleters; ++w) {
    for (const auto& line : Lines(env.Log("delete-" + std::to_string(w)))) {
      const size_t bar = line.find(" | ");
      ASSERT_NE(bar, std::string::npos) << line;
      if (!line.starts_with("ok ")) {
        ADD_FAILURE() << "delete " << line;
        continue;
      }
      std::vector<int64_t> ids = Ids(line.substr(3, bar - 3));
      // The rows named were live and only this deleter deletes them: exactly that many go.
      EXPECT_NE(line.find(": " + std::to_string(ids.size()) + " rows deleted"), std::string::npos) << line;
      if (line.find(" 0 conflicts") == std::string::npos) ++redone;
      for (int64_t id : ids) expected.erase(id);
      ++deletes;
    }
  }
  EXPECT_EQ(deletes, static_cast<size_t>(kDeleters * kDeletesEach));
  EXPECT_GT(redone, 0u) << "no two deletes raced";
  for (const auto& line : Lines(env.Log("append"))) {
    if (!line.starts_with("ok ")) {
      ADD_FAILURE() << "append " << line;
      continue;
    }
    const int k = std::stoi(line.substr(3));
    for (int i = 0; i < kAppendRows; ++i) expected.insert(10000 + k * kAppendRows + i);
  }
  size_t compactions = 0, refused = 0;
  for (const auto& line : Lines(env.Log("compact"))) {
    if (line.starts_with("ok ")) {
      ++compactions;
    } else if (line.find("Cannot commit, found new delete for replaced data file") != std::string::npos ||
               line.find("Missing required files") != std::string::npos) {
      ++refused;
    } else {
      ADD_FAILURE() << "compaction " << line;
    }
  }

  auto catalog = OpenCatalog(env.uri, ProcessCatalogOptions());
  ASSERT_TRUE(catalog.has_value());
  auto table = (*catalog)->LoadTable(TableIdentifier{{"race"}, "t"});
  ASSERT_TRUE(table.has_value());
  const TableMetadata& m = table->metadata;
  ScanOptions options;
  options.columns = {"id"};
  auto rows = ReadTable(*(*catalog)->io(), m, options);
  ASSERT_TRUE(rows.has_value()) << rows.error().message;
  std::set<int64_t> got;
  for (size_t r = 0; r < rows->num_rows; ++r) EXPECT_TRUE(got.insert(rows->columns[0].longs[r]).second);
  EXPECT_EQ(got.size(), rows->num_rows) << "a row read twice";
  std::vector<int64_t> lost, resurrected;
  std::set_difference(expected.begin(), expected.end(), got.begin(), got.end(), std::back_inserter(lost));
  std::set_difference(got.begin(), got.end(), expected.begin(), expected.end(), std::back_inserter(resurrected));
  EXPECT_TRUE(lost.empty()) << lost.size() << " rows missing, first " << lost.front();
  EXPECT_TRUE(resurrected.empty()) << resurrected.size() << " deleted rows read back, first " << resurrected.front();

  // Every snapshot: deletes are vectors, at most one per data file.
  for (const auto& s : m.snapshots) {
    ScanOptions at;
    at.snapshot_id = s.snapshot_id;
    auto tasks = PlanFiles(*(*catalog)->io(), m, at);
    ASSERT_TRUE(tasks.has_value()) << tasks.error().message;
    for (const auto& task : *tasks) {
      size_t vectors = 0;
      for (const auto& d : task.deletes) {
        EXPECT_TRUE(IsDeletionVector(d.file)) << d.file.file_path;
        vectors += IsDeletionVector(d.file);
      }
      EXPECT_LE(vectors, 1u) << task.file.file_path << " in snapshot " << s.snapshot_id;
    }
  }
  std::printf("deletes %zu (%zu after a conflict), compactions %zu landed %zu refused, rows left %zu, snapshots %zu\n",
              deletes, redone, compactions, refused, got.size(), m.snapshots.size());
  catalog->reset();
  std::error_code ec;
  if (!getenv("FLOE_KEEP_RACE_DIR")) std::filesystem::remove_all(env.dir, ec);
}

}  // namespace
}  // namespace floe
