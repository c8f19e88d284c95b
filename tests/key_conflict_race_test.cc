// Real processes racing row-level writes on ONE partition, where every file's key range
// overlaps every other's (keys interleaved), so file metrics can rule nothing out. Conflicts
// are judged at the grain of the key (rows/key_validation.h):
//   - writers of disjoint keys all land, in copy-on-write and merge-on-read, serializable and
//     snapshot;
//   - writers of the same key leave exactly one row for it (serializable: one lands, the rest
//     are refused naming the key; snapshot: each later one replaces the earlier);
//   - a delete by key racing an upsert of another key of the same file: both land;
//   - an upsert whose keys span the whole key range next to an append of other keys: lands;
//     next to an append sharing one of its keys: that key keeps one row.
// Each writer writes its files, then waits until every writer has written its own before it
// commits, so the commits really race (each sees the others' commits as concurrent).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include <gtest/gtest.h>

#include "contention/contention_scheduler.h"
#include "catalog/catalog.h"
#include "expr/parser.h"
#include "scan/table_scan.h"
#include "rows/row_writes.h"
#include "rows/upsert.h"
#include "types/partition_spec.h"
#include "types/schema_text.h"
#include "util/uuid.h"

namespace floe {
namespace {

constexpr const char* kDay = "2026-01-02";

struct Env {
  std::string dir, uri;
  TableIdentifier id{{"race"}, "accounts"};
  std::string Flag(const std::string& name) const { return dir + "/" + name + ".flag"; }
  void Raise(const std::string& name) const { std::ofstream(Flag(name)) << "1"; }
  // Waits (at most 20 s, so a test never hangs) until every flag is raised.
  bool Await(const std::vector<std::string>& names) const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      bool all = true;
      for (const auto& n : names) all &= std::filesystem::exists(Flag(n));
      if (all) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return false;
  }
};

Schema AccountsSchema() {
  auto schema = ParseSchemaText("customer long not null, day string not null, amount long");
  Schema s = *schema;
  return Schema(s.schema_id(), s.fields(), {1, 2});  // identifier fields: customer, day
}

ColumnBatch Rows(const std::vector<int64_t>& customers, int64_t amount) {
  ColumnBatch rows(AccountsSchema());
  for (int64_t c : customers)
    (void)rows.AppendRow({Literal::Long(c), Literal::String(kDay), Literal::Long(amount)});
  return rows;
}

class KeyRace {
 public:
  KeyRace(const std::string& mode, const std::string& isolation) {
    env_.dir = (std::filesystem::temp_directory_path() / ("floe-keyrace-" + RandomUuidString().substr(0, 12))).string();
    std::filesystem::create_directories(env_.dir);
    env_.uri = "sqlite://" + env_.dir + "/catalog.db";
    auto catalog = OpenCatalog(env_.uri, ProcessCatalogOptions());
    EXPECT_TRUE(catalog.has_value());
    catalog_ = std::move(*catalog);
    EXPECT_TRUE(catalog_->CreateNamespace({"race"}, {}).has_value());
    CreateTableRequest request;
    request.schema = AccountsSchema();
    request.spec = PartitionSpec(0, *ParsePartitionFields("day", request.schema, PartitionSpec::kFirstFieldId));
    for (const char* p : {"write.merge.mode", "write.delete.mode", "write.update.mode"}) request.properties[p] = mode;
    for (const char* p : {"write.merge.isolation-level", "write.delete.isolation-level"})
      request.properties[p] = isolation;
    request.properties["commit.retry.num-retries"] = "40";
    request.properties["commit.retry.min-wait-ms"] = "1";
    request.properties["commit.retry.max-wait-ms"] = "30";
    auto created = catalog_->CreateTable(env_.id, request);
    EXPECT_TRUE(created.has_value()) << (created ? "" : created.error().message);
  }
  ~KeyRace() {
    catalog_.reset();
    std::error_code ec;
    std::filesystem::remove_all(env_.dir, ec);
  }

  Catalog& catalog() { return *catalog_; }
  const Env& env() const { return env_; }

  // Runs each body in its own process; returns each one's exit status (0 = its write landed).
  std::vector<int> Race(const std::vector<std::function<Status(Catalog&, const RowWriteOptions&)>>& bodies,
                        std::vector<std::string>* errors = nullptr) {
    // Flags and error files are named by round, so a test may race several times.
    const std::string round = std::to_string(rounds_++);
    std::vector<std::string> ready;
    for (size_t w = 0; w < bodies.size(); ++w) ready.push_back("ready-" + round + "-" + std::to_string(w));
    std::vector<pid_t> pids;
    for (size_t w = 0; w < bodies.size(); ++w) {
      pid_t pid = fork();
      if (pid == 0) {
        auto catalog = OpenCatalog(env_.uri, ProcessCatalogOptions());
        if (!catalog) _exit(90);
        RowWriteOptions options;
        options.after_files_written = [&, w] {
          env_.Raise(ready[w]);
          (void)env_.Await(ready);
        };
        auto status = bodies[w](**catalog, options);
        std::ofstream(env_.dir + "/error-" + round + "-" + std::to_string(w)) << (status ? "" : status.error().message);
        _exit(status ? 0 : 1);
      }
      pids.push_back(pid);
    }
    std::vector<int> codes;
    for (size_t w = 0; w < pids.size(); ++w) {
      int status = 0;
      waitpid(pids[w], &status, 0);
      codes.push_back(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
      if (errors) {
        std::ifstream in(env_.dir + "/error-" + round + "-" + std::to_string(w));
        errors->emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
      }
    }
    return codes;
  }

  // customer -> amounts of its live rows.
  std::map<int64_t, std::vector<int64_t>> Table() {
    auto t = catalog_->LoadTable(env_.id);
    EXPECT_TRUE(t.has_value());
    auto rows = ReadTable(*catalog_->io(), t->metadata, ScanOptions{});
    EXPECT_TRUE(rows.has_value()) << (rows ? "" : rows.error().message);
    std::map<int64_t, std::vector<int64_t>> out;
    for (size_t r = 0; rows && r < rows->num_rows; ++r)
      out[rows->columns[0].longs[r]].push_back(rows->columns[2].longs[r]);
    return out;
  }

 private:
  Env env_;
  std::unique_ptr<Catalog> catalog_;
  int rounds_ = 0;
};

Status Landed(const Result<RowWriteResult>& r) {
  if (!r) return std::unexpected(r.error());
  return Ok();
}

struct Levels {
  const char* mode;
  const char* isolation;
};

class KeyRaceTest : public ::testing::TestWithParam<Levels> {};

// 4 writers own the keys k % 4 == w of one file (interleaved: every file spans every key
// range); each updates its own existing keys and inserts new ones, all racing.
TEST_P(KeyRaceTest, DisjointInterleavedKeysAllLand) {
  KeyRace race(GetParam().mode, GetParam().isolation);
  constexpr int kWriters = 4;
  std::vector<int64_t> seed;
  for (int64_t k = 0; k < kWriters * 3; ++k) seed.push_back(k);
  ASSERT_TRUE(AppendBatch(race.catalog(), race.env().id, Rows(seed, 0)).has_value());
  std::vector<std::function<Status(Catalog&, const RowWriteOptions&)>> bodies;
  for (int w = 0; w < kWriters; ++w) {
    bodies.push_back([&race, w](Catalog& c, const RowWriteOptions& options) -> Status {
      std::vector<int64_t> keys;
      for (int64_t k = w; k < kWriters * 6; k += kWriters) keys.push_back(k);  // 3 existing, 3 new
      return Landed(Upsert(c, race.env().id, Rows(keys, 100 + w), {}, options));
    });
  }
  std::vector<std::string> errors;
  auto codes = race.Race(bodies, &errors);
  for (int w = 0; w < kWriters; ++w) EXPECT_EQ(codes[w], 0) << "writer " << w << ": " << errors[w];
  auto table = race.Table();
  EXPECT_EQ(table.size(), static_cast<size_t>(kWriters * 6));
  for (const auto& [customer, amounts] : table) {
    ASSERT_EQ(amounts.size(), 1u) << "customer " << customer;
    EXPECT_EQ(amounts[0], 100 + customer % kWriters) << "customer " << customer;
  }
}

// Six writers of disjoint keys of one copy-on-write file, with commit.retry.num-retries=1.
// Every commit that lands rewrites the file the others rewrite, so the others are redone on
// the new state, round after round: the last writer is redone up to five times, more than
// the retry count allows. Each redo followed a commit that landed, so the redos are bounded by
// commit.retry.total-timeout-ms (here 60 s), never by the count: every writer lands.
TEST(KeyRaceRedoTest, RedosOfDisjointWritersAreBoundedByTimeNotRetryCount) {
  KeyRace race("copy-on-write", "serializable");
  const TableIdentifier id = race.env().id;
  auto set = race.catalog().CommitTable(TableCommit{
      id, {}, {SetProperties{{{"commit.retry.num-retries", "1"}, {"commit.retry.total-timeout-ms", "60000"}}}}});
  ASSERT_TRUE(set.has_value()) << set.error().message;
  constexpr int kWriters = 6;
  std::vector<int64_t> seed;
  for (int64_t k = 0; k < kWriters * 2; ++k) seed.push_back(k);
  ASSERT_TRUE(AppendBatch(race.catalog(), id, Rows(seed, 0)).has_value());
  std::vector<std::function<Status(Catalog&, const RowWriteOptions&)>> bodies;
  for (int w = 0; w < kWriters; ++w) {
    bodies.push_back([&race, w](Catalog& c, const RowWriteOptions& options) -> Status {
      std::vector<int64_t> keys;
      for (int64_t k = w; k < kWriters * 2; k += kWriters) keys.push_back(k);  // keys w and w + 6
      auto r = Upsert(c, race.env().id, Rows(keys, 100 + w), {}, options);
      if (r) std::ofstream(race.env().dir + "/rebases-" + std::to_string(w)) << r->rebases;
      return Landed(r);
    });
  }
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::string> errors;
  auto codes = race.Race(bodies, &errors);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  int most_rebases = 0;
  for (int w = 0; w < kWriters; ++w) {
    EXPECT_EQ(codes[w], 0) << "writer " << w << ": " << errors[w];
    std::ifstream in(race.env().dir + "/rebases-" + std::to_string(w));
    int rebases = 0;
    if (in >> rebases) most_rebases = std::max(most_rebases, rebases);
  }
  // The race all writers join at once makes the last of them redo more than once.
  EXPECT_GT(most_rebases, 1) << "no writer was redone more than commit.retry.num-retries (1) times";
  EXPECT_LT(seconds, 60) << "the race took longer than its time budget";
  auto table = race.Table();
  ASSERT_EQ(table.size(), static_cast<size_t>(kWriters * 2));
  for (const auto& [customer, amounts] : table) {
    ASSERT_EQ(amounts.size(), 1u) << "customer " << customer;
    EXPECT_EQ(amounts[0], 100 + customer % kWriters) << "customer " << customer;
  }
}

// Write skew: 4 writers each find no row for customer 42 and each upsert one.
TEST_P(KeyRaceTest, SameKeyLeavesExactlyOneRow) {
  KeyRace race(GetParam().mode, GetParam().isolation);
  ASSERT_TRUE(AppendBatch(race.catalog(), race.env().id, Rows({1, 50, 99}, 0)).has_value());
  constexpr int kWriters = 4;
  std::vector<std::function<Status(Catalog&, const RowWriteOptions&)>> bodies;
  for (int w = 0; w < kWriters; ++w)
    bodies.push_back([&race, w](Catalog& c, const RowWriteOptions& options) -> Status {
      return Landed(Upsert(c, race.env().id, Rows({42}, 100 + w), {"customer", "day"}, options));
    });
  std::vector<std::string> errors;
  auto codes = race.Race(bodies, &errors);
  auto table = race.Table();
  ASSERT_EQ(table[42].size(), 1u) << "customer 42 must have exactly one row";
  EXPECT_EQ(table.size(), 4u);
  int landed = 0;
  for (int w = 0; w < kWriters; ++w) {
    if (codes[w] == 0) {
      ++landed;
      continue;
    }
    // Refused: the message names the key and the file that holds it.
    EXPECT_NE(errors[w].find("(42, 2026-01-02)"), std::string::npos) << errors[w];
    EXPECT_NE(errors[w].find(".parquet"), std::string::npos) << errors[w];
  }
  if (std::string(GetParam().isolation) == "serializable") {
    EXPECT_EQ(landed, 1) << "serializable: the first lands, the others saw its row for 42 and were refused";
  } else {
    EXPECT_EQ(landed, kWriters) << "snapshot: each later upsert sees the earlier row and replaces it";
  }
}

// A delete of customer 3 and an upsert of customer 5, both in the one file of the partition.
TEST_P(KeyRaceTest, DeleteByKeyRacingUpsertOfAnotherKeyInTheSameFileBothLand) {
  KeyRace race(GetParam().mode, GetParam().isolation);
  ASSERT_TRUE(AppendBatch(race.catalog(), race.env().id, Rows({1, 2, 3, 4, 5, 6, 7, 8}, 0)).has_value());
  std::vector<std::function<Status(Catalog&, const RowWriteOptions&)>> bodies;
  // The delete commits first, then the upsert, which read the table before it.
  bodies.push_back([&race](Catalog& c, const RowWriteOptions& options) -> Status {
    auto r = DeleteWhere(c, race.env().id, *ParseFilter("customer = 3"), options);
    race.env().Raise("deleted");
    return Landed(r);
  });
  bodies.push_back([&race](Catalog& c, const RowWriteOptions& options) -> Status {
    RowWriteOptions after = options;
    after.after_files_written = [&, hook = options.after_files_written] {
      hook();
      (void)race.env().Await({"deleted"});
    };
    return Landed(Upsert(c, race.env().id, Rows({5}, 500), {}, after));
  });
  std::vector<std::string> errors;
  auto codes = race.Race(bodies, &errors);
  EXPECT_EQ(codes[0], 0) << errors[0];
  EXPECT_EQ(codes[1], 0) << errors[1];
  auto table = race.Table();
  EXPECT_EQ(table.count(3), 0u);
  ASSERT_EQ(table[5].size(), 1u);
  EXPECT_EQ(table[5][0], 500);
  EXPECT_EQ(table.size(), 7u);
}

// An upsert of `keys` (amount `amount`) that commits right after the concurrent write `first`,
// both having read the same table state: the upsert's files are written before `first` lands,
// so `first` is concurrent to it.
using Write = std::function<Result<RowWriteResult>(Catalog&, const RowWriteOptions&)>;
std::vector<int> UpsertAfter(KeyRace& race, const Write& first, const std::vector<int64_t>& keys, int64_t amount,
                             std::vector<std::string>* errors) {
  std::vector<std::function<Status(Catalog&, const RowWriteOptions&)>> bodies;
  const std::string flag = "first-landed-" + std::to_string(amount);
  bodies.push_back([&race, first, flag](Catalog& c, const RowWriteOptions& options) -> Status {
    auto r = first(c, options);
    race.env().Raise(flag);
    return Landed(r);
  });
  bodies.push_back([&race, keys, amount, flag](Catalog& c, const RowWriteOptions& options) -> Status {
    RowWriteOptions after = options;
    after.after_files_written = [&race, flag, hook = options.after_files_written] {
      hook();
      (void)race.env().Await({flag});
    };
    return Landed(Upsert(c, race.env().id, Rows(keys, amount), {}, after));
  });
  return race.Race(bodies, errors);
}

// iceberg#13091: a merge whose conflict filter admits every file ("matching true" for file
// metrics: its keys span the whole range) next to an append of other keys inside that range
// lands. Then the same merge next to an upsert of another key (12) and of a new key it shares
// (45), the write skew of two jobs that each found no row for 45: 45 must end with one row,
// the isolation deciding which: serializable refuses the merge naming the key (the other
// upsert's row stays), snapshot redoes it on the new state (its row replaces the other's).
TEST_P(KeyRaceTest, UpsertSpanningTheKeyRangeNextToAnAppendOfOtherKeysLands) {
  KeyRace race(GetParam().mode, GetParam().isolation);
  ASSERT_TRUE(AppendBatch(race.catalog(), race.env().id, Rows({0, 100}, 0)).has_value());
  std::vector<std::string> errors;
  const TableIdentifier id = race.env().id;
  auto append = [id](Catalog& c, const RowWriteOptions& options) {
    return AppendBatch(c, id, Rows({11, 33, 55, 77}, 7), options);
  };
  auto codes = UpsertAfter(race, append, {0, 22, 44, 66, 88, 100}, 9, &errors);
  EXPECT_EQ(codes[0], 0) << errors[0];
  EXPECT_EQ(codes[1], 0) << errors[1];
  auto table = race.Table();
  EXPECT_EQ(table.size(), 10u);
  for (const auto& [customer, amounts] : table) {
    ASSERT_EQ(amounts.size(), 1u) << customer;
    EXPECT_EQ(amounts[0], customer % 11 == 0 && customer % 2 == 1 ? 7 : 9) << customer;
  }

  errors.clear();
  auto upsert = [id](Catalog& c, const RowWriteOptions& options) {
    return Upsert(c, id, Rows({12, 45}, 7), {}, options);
  };
  codes = UpsertAfter(race, upsert, {0, 22, 45, 66, 88, 100}, 10, &errors);
  EXPECT_EQ(codes[0], 0) << errors[0];
  table = race.Table();
  ASSERT_EQ(table[45].size(), 1u) << "customer 45 must have exactly one row";
  EXPECT_EQ(table[12], std::vector<int64_t>{7});
  if (std::string(GetParam().isolation) == "serializable") {
    EXPECT_NE(codes[1], 0) << "serializable: a row with key 45 landed meanwhile";
    EXPECT_NE(errors[1].find("rows (45, 2026-01-02) in ["), std::string::npos) << errors[1];
    EXPECT_EQ(table[45][0], 7);
    EXPECT_EQ(table[22], std::vector<int64_t>{9}) << "the refused merge changed nothing";
  } else {
    EXPECT_EQ(codes[1], 0) << errors[1];
    EXPECT_EQ(table[45][0], 10) << "snapshot: the later upsert replaces the other's row";
    EXPECT_EQ(table[22], std::vector<int64_t>{10});
  }
}

INSTANTIATE_TEST_SUITE_P(ModesAndIsolation, KeyRaceTest,
                         ::testing::Values(Levels{"copy-on-write", "serializable"},
                                           Levels{"copy-on-write", "snapshot"},
                                           Levels{"merge-on-read", "serializable"},
                                           Levels{"merge-on-read", "snapshot"}),
                         [](const auto& info) {
                           std::string name = std::string(info.param.mode) + "_" + info.param.isolation;
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

}  // namespace
}  // namespace floe
