// 8 processes race 200 commits each on one table, on every catalog backend (10 each with the
// warehouse on S3: the emulator serves one request at a time, a few milliseconds each).
//
// Each commit adds one property named after its writer and its sequence number, and asserts
// the table's uuid, so the only thing that can stop a stale commit is the catalog's
// compare-and-swap. Afterwards the table's history must show every version won by exactly one
// commit: consecutive version numbers, each document holding exactly one more property than
// the one before, every success a process reported present once, and no loser's document left.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <random>
#include <thread>

#include "catalog/catalog_test_env.h"
#include "table_files/metadata_document.h"
#include "table_files/metadata_location.h"

namespace floe {
namespace {

using testing_env::Backend;

constexpr int kProcesses = 8;
int kCommitsEach = 200;  // set per backend before the writers fork

bool OnS3(Backend b) { return b == Backend::kStorageS3 || b == Backend::kSqliteS3 || b == Backend::kPostgresS3; }
const TableIdentifier kTable{{"race"}, "t"};

struct Report {
  int successes = 0;
  int conflicts = 0;
  int failed = 0;  // 1 when the child hit an error other than a conflict
};

std::string Key(int process, int n) { return "race.w" + std::to_string(process) + "." + std::to_string(n); }

// The child's whole life: open its own catalog, wait for the start, commit until done.
Report RunWriter(const testing_env::CatalogPlace& place, int process, int start_fd) {
  Report report;
  auto catalog = testing_env::OpenPlace(place);
  char go;
  (void)!read(start_fd, &go, 1);  // returns 0 when the parent closes its end: everyone starts
  if (!catalog) {
    fprintf(stderr, "writer %d: %s\n", process, catalog.error().ToString().c_str());
    report.failed = 1;
    return report;
  }
  auto loaded = (*catalog)->LoadTable(kTable);
  if (!loaded) {
    report.failed = 1;
    return report;
  }
  const std::string uuid = loaded->metadata.table_uuid;
  std::minstd_rand rng(std::random_device{}() ^ getpid());
  while (report.successes < kCommitsEach) {
    TableCommit commit{kTable, {AssertTableUuid{uuid}}, {SetProperties{{{Key(process, report.successes), "1"}}}}};
    auto done = (*catalog)->CommitTable(commit);
    if (done) {
      ++report.successes;
    } else if (done.error().kind == ErrorKind::kCommitConflict) {
      ++report.conflicts;
      std::this_thread::sleep_for(std::chrono::microseconds(rng() % 500));
    } else {
      fprintf(stderr, "writer %d: %s\n", process, done.error().ToString().c_str());
      report.failed = 1;
      return report;
    }
  }
  return report;
}

int CountRaceProperties(const TableMetadata& m) {
  int n = 0;
  for (const auto& [k, v] : m.properties) n += k.rfind("race.w", 0) == 0;
  return n;
}

class CatalogRace : public ::testing::TestWithParam<Backend> {};

TEST_P(CatalogRace, EveryVersionHasExactlyOneWinner) {
  testing_env::TempDir dir("floe-race");
  auto place = testing_env::MakePlace(GetParam(), dir.path());
  if (place.uri.empty()) {
    if (!place.skip_reason.starts_with("skipped")) FAIL() << place.skip_reason;
    GTEST_SKIP() << (place.skip_reason.empty() ? "skipped: FLOE_TEST_PG_URI not set" : place.skip_reason);
  }
  kCommitsEach = OnS3(GetParam()) ? 10 : 200;
  LoadedTable created;
  {
    auto catalog = testing_env::OpenPlace(place);
    ASSERT_TRUE(catalog) << catalog.error().ToString();
    ASSERT_TRUE((*catalog)->CreateNamespace(kTable.ns, {}));
    CreateTableRequest request{testing_env::SimpleSchema()};
    request.properties["write.metadata.previous-versions-max"] = "100000";  // keep the whole history
    auto table = (*catalog)->CreateTable(kTable, request);
    ASSERT_TRUE(table) << table.error().ToString();
    created = *table;
  }  // closed before forking: children must not share the parent's connection

  int start[2];
  ASSERT_EQ(pipe(start), 0);
  std::vector<std::pair<pid_t, int>> children;  // pid, read end of its report pipe
  for (int p = 0; p < kProcesses; ++p) {
    int out[2];
    ASSERT_EQ(pipe(out), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(start[1]);
      close(out[0]);
      Report report = RunWriter(place, p, start[0]);
      (void)!write(out[1], &report, sizeof report);
      _exit(0);
    }
    close(out[1]);
    children.emplace_back(pid, out[0]);
  }
  close(start[0]);
  auto began = std::chrono::steady_clock::now();
  close(start[1]);  // go

  int total_successes = 0, total_conflicts = 0;
  for (int p = 0; p < kProcesses; ++p) {
    Report report;
    ssize_t got = read(children[p].second, &report, sizeof report);
    close(children[p].second);
    int status = 0;
    waitpid(children[p].first, &status, 0);
    ASSERT_EQ(got, static_cast<ssize_t>(sizeof report)) << "writer " << p << " died";
    EXPECT_EQ(report.failed, 0) << "writer " << p;
    EXPECT_EQ(report.successes, kCommitsEach) << "writer " << p;
    total_successes += report.successes;
    total_conflicts += report.conflicts;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  std::printf("%s: %d commits, %d conflicts, %.1f s, %.0f commits/s\n", testing_env::BackendName(GetParam()),
              total_successes, total_conflicts, seconds, total_successes / seconds);

  auto catalog = testing_env::OpenPlace(place);
  ASSERT_TRUE(catalog);
  auto final_table = (*catalog)->LoadTable(kTable);
  ASSERT_TRUE(final_table) << final_table.error().ToString();
  const TableMetadata& last = final_table->metadata;

  // Every reported success is in the final state, once.
  EXPECT_EQ(CountRaceProperties(last), total_successes);
  for (int p = 0; p < kProcesses; ++p) {
    for (int n = 0; n < kCommitsEach; ++n) EXPECT_EQ(last.properties.count(Key(p, n)), 1u) << Key(p, n);
  }

  // One version per success: the history is the created version, then one per commit.
  ASSERT_EQ(last.metadata_log.size(), static_cast<size_t>(total_successes));
  const int64_t first = ParseMetadataVersion(created.metadata_location);
  EXPECT_EQ(last.metadata_log.front().metadata_file, created.metadata_location);
  EXPECT_EQ(ParseMetadataVersion(final_table->metadata_location), first + total_successes);
  auto io = (*catalog)->io();
  for (size_t i = 0; i < last.metadata_log.size(); ++i) {
    const std::string& file = last.metadata_log[i].metadata_file;
    ASSERT_EQ(ParseMetadataVersion(file), first + static_cast<int64_t>(i)) << file;
    auto doc = ReadMetadataFile(*io, file);
    ASSERT_TRUE(doc) << doc.error().ToString();
    // Each version added exactly one property to the one before: one winning swap per version.
    ASSERT_EQ(CountRaceProperties(*doc), static_cast<int>(i)) << file;
  }

  // Losers left no documents behind: the folder holds exactly the versions of the history.
  size_t documents = 0;
  auto listed = io->ListPrefix(last.location + "/metadata/");
  ASSERT_TRUE(listed) << listed.error().ToString();
  for (const auto& f : *listed) documents += f.path.ends_with(".metadata.json");
  EXPECT_EQ(documents, last.metadata_log.size() + 1);
}

INSTANTIATE_TEST_SUITE_P(Backends, CatalogRace,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres, Backend::kStorage, Backend::kStorageS3,
                                           Backend::kSqliteS3),
                         [](const auto& info) { return std::string(testing_env::BackendName(info.param)); });

}  // namespace
}  // namespace floe
