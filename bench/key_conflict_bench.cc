// Key-grain conflicts (issue 21), printed as Markdown tables for bench/RESULTS.md.
//
//  (a) 8 processes upsert disjoint keys of ONE partition for a fixed time, every writer's keys
//      interleaved with the others' (so every file's min/max spans every writer's keys); each
//      upsert replaces the writer's 3 keys. Commits/s and refusals with file-grain validation
//      (the key check capped at 0 files: what floe did before) against key-aware validation, in
//      copy-on-write and merge-on-read.
//  (b) the validation's own cost: one upsert's Validate against N concurrent commits (one
//      small file each, all of them "may match" by metrics), key-aware against file-grain, and
//      the key-aware Validate of a retry (the same operation validating again after one more
//      commit landed: the N files judged before are not read again).
//
// Usage: key_conflict_bench [seconds_per_run=10] [all|contention|cost]
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include "contention/contention_scheduler.h"
#include "catalog/catalog.h"
#include "commit/files_operation.h"
#include "commit/operations.h"
#include "rows/commit_written_files.h"
#include "rows/key_validation.h"
#include "rows/merge_on_read.h"
#include "rows/row_writes.h"
#include "rows/upsert.h"
#include "types/partition_spec.h"
#include "types/schema_text.h"
#include "util/clock.h"
#include "util/uuid.h"
#include "bench_must.h"

using namespace floe;

namespace {

const TableIdentifier kTable{{"bench"}, "accounts"};
constexpr int kWriters = 8;
constexpr int kKeysPerWriter = 3;

using bench::Die;
using bench::Must;

Schema AccountsSchema() {
  Schema s = Must(ParseSchemaText("customer long not null, day string not null, amount long"));
  return Schema(s.schema_id(), s.fields(), {1, 2});
}

ColumnBatch Rows(const std::vector<int64_t>& customers, int64_t amount) {
  ColumnBatch rows(AccountsSchema());
  for (int64_t c : customers)
    (void)rows.AppendRow({Literal::Long(c), Literal::String("2026-01-02"), Literal::Long(amount)});
  return rows;
}

struct Table {
  std::string dir, uri;
  explicit Table(const std::string& mode) {
    dir = (std::filesystem::temp_directory_path() / ("floe-keybench-" + RandomUuidString().substr(0, 12))).string();
    std::filesystem::create_directories(dir);
    uri = "sqlite://" + dir + "/catalog.db";
    auto catalog = Must(OpenCatalog(uri, ProcessCatalogOptions()));
    (void)catalog->CreateNamespace({"bench"}, {});
    CreateTableRequest request;
    request.schema = AccountsSchema();
    request.spec = PartitionSpec(0, Must(ParsePartitionFields("day", request.schema, PartitionSpec::kFirstFieldId)));
    request.properties["write.merge.mode"] = mode;
    request.properties["commit.retry.num-retries"] = "1000";
    request.properties["commit.retry.min-wait-ms"] = "1";
    request.properties["commit.retry.max-wait-ms"] = "50";
    Must(catalog->CreateTable(kTable, request));
  }
  ~Table() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

std::vector<int64_t> KeysOf(int writer) {
  std::vector<int64_t> keys;
  for (int k = 0; k < kKeysPerWriter; ++k) keys.push_back(k * kWriters + writer);
  return keys;
}

struct Counts {
  long commits = 0, refusals = 0, rebases = 0;
};

Counts Contention(const std::string& mode, bool key_aware, double seconds) {
  Table table(mode);
  {
    auto catalog = Must(OpenCatalog(table.uri, ProcessCatalogOptions()));
    std::vector<int64_t> all;
    for (int w = 0; w < kWriters; ++w)
      for (int64_t k : KeysOf(w)) all.push_back(k);
    Must(AppendBatch(*catalog, kTable, Rows(all, 0)));
  }
  const int64_t end = MonotonicMicros() + static_cast<int64_t>(seconds * 1e6);
  std::vector<pid_t> pids;
  for (int w = 0; w < kWriters; ++w) {
    pid_t pid = fork();
    if (pid == 0) {
      auto catalog = Must(OpenCatalog(table.uri, ProcessCatalogOptions()));
      RowWriteOptions options;
      if (!key_aware) options.key_check_max_files = 0;  // file metrics decide, as before
      Counts c;
      for (int64_t i = 1; MonotonicMicros() < end; ++i) {
        auto r = Upsert(*catalog, kTable, Rows(KeysOf(w), i), {}, options);
        if (r) {
          ++c.commits;
          c.rebases += r->rebases;
        } else if (r.error().kind == ErrorKind::kValidationFailed) {
          if (c.refusals++ == 0 && key_aware) std::fprintf(stderr, "refused: %s\n", r.error().message.c_str());
        } else {
          Die(r.error());
        }
      }
      std::ofstream(table.dir + "/w" + std::to_string(w)) << c.commits << " " << c.refusals << " " << c.rebases;
      _exit(0);
    }
    pids.push_back(pid);
  }
  Counts total;
  for (int w = 0; w < kWriters; ++w) {
    int status = 0;
    waitpid(pids[w], &status, 0);
    Counts c;
    std::ifstream(table.dir + "/w" + std::to_string(w)) >> c.commits >> c.refusals >> c.rebases;
    total.commits += c.commits;
    total.refusals += c.refusals;
    total.rebases += c.rebases;
  }
  return total;
}

// Validate of one upsert (of keys no concurrent commit holds) started before `concurrent`
// appends of other interleaved keys: microseconds per call.
void Cost() {
  std::printf("\n| concurrent files | file-grain validate (us) | key-aware validate (us) | key-aware retry, +1 file (us) "
              "| key-aware outcome |\n");
  std::printf("|---:|---:|---:|---:|---|\n");
  for (int concurrent : {1, 4, 16, 64}) {
    Table table("merge-on-read");
    auto catalog = Must(OpenCatalog(table.uri, ProcessCatalogOptions()));
    Must(AppendBatch(*catalog, kTable, Rows({0, 100000}, 0)));
    const int64_t start = Must(catalog->LoadTable(kTable)).metadata.CurrentSnapshot()->snapshot_id;
    auto append_one = [&](int i) {
      std::vector<int64_t> keys;
      for (int k = 0; k < 100; ++k) keys.push_back(1 + 2 * (k * 997 + i * 13) % 99998);  // odd keys, 1..99999
      std::sort(keys.begin(), keys.end());
      keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
      Must(AppendBatch(*catalog, kTable, Rows(keys, i)));
    };
    for (int i = 0; i < concurrent; ++i) append_one(i);
    const TableMetadata current = Must(catalog->LoadTable(kTable)).metadata;
    append_one(concurrent);  // lands while the first attempt swaps: the retry sees one more
    const TableMetadata later = Must(catalog->LoadTable(kTable)).metadata;
    std::vector<int64_t> ours = {2, 50000, 99998};  // even: in every file's bounds, in none of them
    ColumnBatch rows = Rows(ours, 1);
    auto keys = std::make_shared<KeySet>();
    for (size_t r = 0; r < rows.num_rows; ++r) keys->insert(KeyOfRow(rows, {0, 1}, r));
    Expr filter = And(In("customer", {Literal::Long(2), Literal::Long(50000), Literal::Long(99998)}),
                      In("day", {Literal::String("2026-01-02")}));
    Expr bound = Must(FileFilter::Make(filter, current)).bound();
    OperationContext ctx;
    ctx.io = catalog->io().get();
    double us[3] = {0, 0, 0};
    std::string outcome;
    const int reps = 5;
    auto timed = [&](FilesOperation& op, const TableMetadata& table, double* total) {
      const int64_t t = MonotonicMicros();
      auto valid = op.Validate(ctx, table, table.CurrentSnapshot());
      *total += static_cast<double>(MonotonicMicros() - t);
      return valid;
    };
    for (int key_aware = 0; key_aware < 2; ++key_aware) {
      for (int rep = 0; rep < reps; ++rep) {
        FilesChange change = RowDelta({}, {}, start, bound, IsolationLevel::kSerializable, {});
        if (key_aware) change.row_scope = RowScopeFor(bound, RowWriteOptions{}, {1, 2}, keys);
        FilesOperation op(std::move(change));
        auto valid = timed(op, current, &us[key_aware]);
        if (!key_aware) continue;
        outcome = valid ? "lands" : "refused: " + valid.error().message.substr(0, 60);
        auto retry = timed(op, later, &us[2]);
        if (!retry) outcome = "retry refused: " + retry.error().message.substr(0, 60);
      }
    }
    std::printf("| %d | %.0f | %.0f | %.0f | %s |\n", concurrent, us[0] / reps, us[1] / reps, us[2] / reps,
                outcome.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 10.0;
  const std::string what = argc > 2 ? argv[2] : "all";
  if (what == "all" || what == "contention") {
    std::printf("| mode | validation | commits | commits/s | refusals | rebases |\n|---|---|---:|---:|---:|---:|\n");
    const std::string only = std::getenv("FLOE_BENCH_MODE") ? std::getenv("FLOE_BENCH_MODE") : "";
    for (const char* mode : {"copy-on-write", "merge-on-read"}) {
      if (!only.empty() && only != mode) continue;
      for (bool key_aware : {false, true}) {
        Counts c = Contention(mode, key_aware, seconds);
        std::printf("| %s | %s | %ld | %.1f | %ld | %ld |\n", mode, key_aware ? "key-aware" : "file-grain (old)",
                    c.commits, c.commits / seconds, c.refusals, c.rebases);
        std::fflush(stdout);
      }
    }
  }
  if (what == "all" || what == "cost") Cost();
  return 0;
}
