// A reader that resolved snapshot S reads exactly S while other processes commit.
//
// The parent loads the table once (snapshot S), then forks writers that append, delete by
// copy-on-write (removing S's files from later snapshots) and delete by merge-on-read (adding
// position delete files). While they commit, the parent plans and reads S over and over, from
// the metadata it resolved and, by snapshot id, from freshly loaded metadata: every read must
// return exactly S's rows. Files are never overwritten or removed by commits, so nothing a
// writer does can reach a reader of S.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "contention/contention_scheduler.h"
#include "catalog/catalog.h"
#include "expr/parser.h"
#include "scan/scan_test_util.h"
#include "scan/table_scan.h"
#include "rows/merge_on_read.h"
#include "rows/row_writes.h"
#include "types/schema_text.h"
#include "util/uuid.h"

namespace floe {
namespace {

const TableIdentifier kTable{{"iso"}, "t"};
constexpr int kWriters = 3;
constexpr int kCommitsEach = 12;

ColumnBatch Rows(int64_t first, int n, const std::string& kind) {
  auto schema = ParseSchemaText("id long not null, kind string");
  ColumnBatch b(*schema);
  for (int i = 0; i < n; ++i) EXPECT_TRUE(b.AppendRow({Literal::Long(first + i), Literal::String(kind)}));
  return b;
}

// A writer process: appends, then alternately deletes some of its own and the initial rows.
int RunWriter(const std::string& uri, int writer) {
  auto catalog = OpenCatalog(uri, ProcessCatalogOptions());
  if (!catalog) return 2;
  for (int n = 0; n < kCommitsEach; ++n) {
    int64_t base = 1'000'000 * (writer + 1) + n * 10;
    Result<RowWriteResult> r = AppendBatch(**catalog, kTable, Rows(base, 10, "w"));
    if (!r) {
      fprintf(stderr, "writer %d append: %s\n", writer, r.error().ToString().c_str());
      return 1;
    }
    // Delete one initial row per commit, alternating the two ways of deleting.
    auto filter = ParseFilter("id = " + std::to_string(writer * kCommitsEach + n));
    RowWriteOptions options;
    options.mode = n % 2 ? WriteMode::kMergeOnRead : WriteMode::kCopyOnWrite;
    Result<RowWriteResult> d = n % 2 ? MergeOnReadDelete(**catalog, kTable, *filter, options)
                                     : DeleteWhere(**catalog, kTable, *filter, options);
    // A conflict that outlives the retries is the writer's problem, not the reader's; any
    // other failure is a test failure.
    if (!d && d.error().kind != ErrorKind::kValidationFailed && d.error().kind != ErrorKind::kCommitConflict) {
      fprintf(stderr, "writer %d delete: %s\n", writer, d.error().ToString().c_str());
      return 1;
    }
  }
  return 0;
}

TEST(ScanIsolation, ReaderOfSnapshotSeesExactlyItWhileOthersCommit) {
  std::string dir = (std::filesystem::temp_directory_path() / ("floe-scan-iso-" + RandomUuidString().substr(0, 8))).string();
  std::filesystem::create_directories(dir);
  std::string uri = "sqlite://" + dir + "/catalog.db";
  {
    auto catalog = OpenCatalog(uri, ProcessCatalogOptions());
    ASSERT_TRUE(catalog) << catalog.error().ToString();
    ASSERT_TRUE((*catalog)->CreateNamespace(kTable.ns, {}));
    CreateTableRequest request;
    request.schema = *ParseSchemaText("id long not null, kind string");
    request.properties["commit.retry.num-retries"] = "100";
    request.properties["commit.retry.min-wait-ms"] = "1";
    request.properties["commit.retry.max-wait-ms"] = "50";
    ASSERT_TRUE((*catalog)->CreateTable(kTable, request));
    // Three commits so that S has several files.
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(AppendBatch(**catalog, kTable, Rows(i * 20, 20, "initial")));
  }

  auto catalog = OpenCatalog(uri, ProcessCatalogOptions());
  ASSERT_TRUE(catalog);
  auto loaded = (*catalog)->LoadTable(kTable);
  ASSERT_TRUE(loaded);
  const TableMetadata s_metadata = loaded->metadata;  // the reader resolves S once
  const int64_t s = *s_metadata.current_snapshot_id;
  FileIO& io = *(*catalog)->io();
  auto expected_batch = ReadTable(io, s_metadata, {});
  ASSERT_TRUE(expected_batch) << expected_batch.error().ToString();
  const std::vector<std::string> expected = testing::RowStrings(*expected_batch);
  ASSERT_EQ(expected.size(), 60u);

  std::vector<pid_t> children;
  // Declared before the guard, so that it still exists when the guard's destructor reads it.
  std::vector<int> exit_codes;
  // A failed assertion returns early; the writers must not outlive the test.
  struct KillOnExit {
    std::vector<pid_t>& pids;
    std::vector<int>* codes = nullptr;
    ~KillOnExit() {
      for (size_t i = 0; i < pids.size(); ++i) {
        if (codes && (*codes)[i] >= 0) continue;
        kill(pids[i], SIGKILL);
        waitpid(pids[i], nullptr, 0);
      }
    }
  } guard{children};
  for (int w = 0; w < kWriters; ++w) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) _exit(RunWriter(uri, w));
    children.push_back(pid);
  }

  exit_codes.assign(children.size(), -1);
  guard.codes = &exit_codes;
  int reads = 0;
  bool running = true;
  while (running) {
    auto rows = ReadTable(io, s_metadata, {});
    ASSERT_TRUE(rows) << rows.error().ToString();
    ASSERT_EQ(testing::RowStrings(*rows), expected) << "read " << reads << " of S from the resolved metadata";
    auto fresh = (*catalog)->LoadTable(kTable);
    ASSERT_TRUE(fresh) << fresh.error().ToString();
    ScanOptions at_s;
    at_s.snapshot_id = s;
    auto again = ReadTable(io, fresh->metadata, at_s);
    ASSERT_TRUE(again) << again.error().ToString();
    ASSERT_EQ(testing::RowStrings(*again), expected) << "read " << reads << " of S by id from newer metadata";
    ++reads;
    running = false;
    for (size_t i = 0; i < children.size(); ++i) {
      if (exit_codes[i] >= 0) continue;
      int status = 0;
      if (waitpid(children[i], &status, WNOHANG) == children[i]) {
        exit_codes[i] = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
      } else {
        running = true;
      }
    }
  }
  for (size_t i = 0; i < children.size(); ++i) EXPECT_EQ(exit_codes[i], 0) << "writer " << i;
  auto final_table = (*catalog)->LoadTable(kTable);
  ASSERT_TRUE(final_table);
  ScanOptions writers_rows;
  writers_rows.filter_text = "kind = 'w'";
  auto appended = ReadTable(io, final_table->metadata, writers_rows);
  ASSERT_TRUE(appended) << appended.error().ToString();
  EXPECT_EQ(appended->num_rows, static_cast<size_t>(kWriters * kCommitsEach * 10));
  auto now = ReadTable(io, final_table->metadata, {});
  ASSERT_TRUE(now);
  EXPECT_LT(now->num_rows - appended->num_rows, 60u);  // some initial rows were deleted meanwhile
  EXPECT_GT(reads, 1);
  // And S itself is unchanged, read one last time after everything committed.
  ScanOptions at_s;
  at_s.snapshot_id = s;
  auto last = ReadTable(io, final_table->metadata, at_s);
  ASSERT_TRUE(last);
  EXPECT_EQ(testing::RowStrings(*last), expected);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace
}  // namespace floe
