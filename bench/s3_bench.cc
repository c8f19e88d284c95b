// Commits and scans on S3 in round trips: a delay proxy (io/s3_fault_proxy_for_tests.h) in
// front of the moto server adds 0, 10 or 50 ms to every request, standing in for the distance
// to an object store. For each delay, in one run:
//   rtt      a bare conditional PUT (If-None-Match: *) of a small object
//   storage  an append commit (data file prewritten) on the storage catalog at s3://
//   sqlite   the same on a SQLite catalog whose warehouse is on S3
//   scan     reading every row of a 100-file table (by a FileIO of its own, as another reader),
//            one file at a time (read_parallelism 1) and with the default (8 files in flight)
// each as milliseconds and as a multiple of the round trip, and the requests each commit sent;
// then, per delay, 8 writers (threads, each with its own catalog and S3 FileIO) appending to one
// table on the storage catalog against 1 writer's rate, with what the racing costs: attempts,
// waits and requests per landed commit. The 8 run twice: racing as separate processes would
// (CommitOptions::take_turns off, the commit engine before contention/table_turns.h), then taking
// turns as threads of one process now do.
//
// FLOE_BENCH_ONLY_FILE=1 runs only the requests-per-data-file figure instead: one data file of
// 20 long columns and several row groups (FLOE_BENCH_FILE_MB, default 128; FLOE_BENCH_ROW_GROUP_MB,
// default 16), scanned whole and projected to 2 columns by a fresh reader, counting its requests
// and the read buffers it held (see RequestsPerFile for reusing the file and one scan a process).
//
//   bash scripts/s3.sh start && set -a && . build/s3.env && set +a
//   ./build/s3_bench            (FLOE_BENCH_COMMITS=N commits per catalog and delay, default 8;
//                                FLOE_BENCH_RACE_COMMITS=M commits per racing writer, default N/2;
//                                FLOE_BENCH_ONLY_RACE=1 skips the single-commit and scan figures;
//                                FLOE_BENCH_MIN_WAIT / FLOE_BENCH_MAX_WAIT: the racing table's
//                                commit.retry.min-wait-ms / max-wait-ms, default Iceberg's 100 / 60000)
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include "contention/contention_scheduler.h"
#include "catalog/catalog_test_env.h"
#include "catalog/storage/storage_catalog.h"
#include "io/s3_fault_proxy_for_tests.h"
#include "io/scheme_file_io.h"
#include "scan/file_source.h"
#include "scan/table_scan.h"
#include "scan/task_stream.h"
#include "commit/commit_operation.h"
#include "commit/operations.h"
#include "util/clock.h"
#include "write/data_writer.h"
#include "bench_must.h"

namespace floe {
namespace {

const TableIdentifier kTable{{"bench"}, "t"};

using bench::Die;
using bench::Must;

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// `count` one-row data files, written before any timing starts.
std::vector<DataFile> WriteDataFiles(Catalog& catalog, int count) {
  const TableMetadata table = Must(catalog.LoadTable(kTable)).metadata;
  std::vector<DataFile> files;
  while (static_cast<int>(files.size()) < count) {
    ColumnBatch batch(table.CurrentSchema());
    Must(batch.AppendRow({Literal::Long(static_cast<int64_t>(files.size())), Literal::String("row")}));
    DataWriter writer(*catalog.io(), table);
    Must(writer.Write(batch));
    for (DataFile& file : Must(writer.Finish())) files.push_back(std::move(file));
  }
  return files;
}

void MakeTable(Catalog& catalog) {
  Must(catalog.CreateNamespace(kTable.ns, {}));
  CreateTableRequest request{testing_env::SimpleSchema()};
  // Writers racing on one table retry until they land (the contention run), with Iceberg's
  // default waits unless FLOE_BENCH_MIN_WAIT / FLOE_BENCH_MAX_WAIT say otherwise.
  request.properties = {{"commit.retry.num-retries", "1000"},
                        {"commit.retry.min-wait-ms", std::getenv("FLOE_BENCH_MIN_WAIT") ?: "100"},
                        {"commit.retry.max-wait-ms", std::getenv("FLOE_BENCH_MAX_WAIT") ?: "60000"}};
  Must(catalog.CreateTable(kTable, request));
}

// What `writers` racing writers cost: each thread has its own storage catalog and its own S3
// FileIO (nothing shared in memory, as separate processes), and appends `each` prewritten files
// one commit at a time.
struct Contention {
  double commits_per_s = 0;
  double seconds = 0;
  int commits = 0;
  int attempts = 0;              // every attempt of every commit
  double backoff_ms = 0;         // summed over all writers
  double turn_wait_ms = 0;       // waits for the other writers' turns, summed over all writers
  double attempt_ms = 0;         // the mean attempt: a commit's time without its waits, per attempt
  S3RequestCounts requests;      // every request of every writer
  // Requests of the commits that landed at their first attempt, per such commit, and the
  // requests each lost attempt added (the rest, per lost attempt).
  double first_try_requests = 0;
  double per_lost_attempt = 0;
};


Contention AppendRace(const std::string& warehouse, const S3Config& config, int writers, int each, bool turns) {
  struct Writer {
    std::shared_ptr<S3FileIO> io;
    std::unique_ptr<StorageCatalog> catalog;
    std::vector<DataFile> files;
    int failed = 0, attempts = 0, first_try = 0;
    int64_t first_try_requests = 0;
    double backoff_ms = 0, turn_wait_ms = 0, busy_ms = 0;
    S3RequestCounts requests;
  };
  std::vector<Writer> w(writers);
  for (Writer& writer : w) {
    writer.io = std::make_shared<S3FileIO>(config);
    writer.catalog = std::make_unique<StorageCatalog>("bench", warehouse, writer.io);
    writer.catalog->SupplyCommitScheduler(&ContentionScheduler::Process());  // the writers' threads meet in it
    writer.files = WriteDataFiles(*writer.catalog, each);
    Must(writer.catalog->LoadTable(kTable));
  }
  const int64_t t = MonotonicMicros();
  std::vector<std::thread> threads;
  for (Writer& writer : w) {
    threads.emplace_back([&writer, turns] {
      CommitOptions options;
      options.take_turns = turns;
      for (DataFile& file : writer.files) {
        FilesOperation op(FastAppend({file}));
        const S3RequestCounts before = writer.io->RequestCounts();
        auto report = CommitOperation(*writer.catalog, kTable, op, options);
        const S3RequestCounts sent = writer.io->RequestCounts() - before;
        writer.requests += sent;
        if (!report) {
          ++writer.failed;
          continue;
        }
        writer.attempts += report->attempts;
        writer.backoff_ms += report->backoff_ms;
        writer.turn_wait_ms += report->turn_wait_ms;
        writer.busy_ms += report->total_ms - report->backoff_ms - report->turn_wait_ms;
        if (report->attempts == 1) {
          ++writer.first_try;
          writer.first_try_requests += sent.Total();
        }
      }
      writer.catalog->WaitForHintWrite();
    });
  }
  for (auto& thread : threads) thread.join();
  Contention c;
  const double seconds = (MonotonicMicros() - t) / 1e6;
  int failed = 0, first_try = 0;
  double busy_ms = 0;
  int64_t first_try_requests = 0;
  for (const Writer& writer : w) {
    failed += writer.failed;
    c.attempts += writer.attempts;
    c.backoff_ms += writer.backoff_ms;
    c.turn_wait_ms += writer.turn_wait_ms;
    busy_ms += writer.busy_ms;
    first_try += writer.first_try;
    first_try_requests += writer.first_try_requests;
    c.requests += writer.requests;
  }
  if (failed > 0) Die(Error{ErrorKind::kCommitConflict, std::to_string(failed) + " appends failed"});
  c.commits = writers * each;
  c.seconds = seconds;
  c.attempt_ms = c.attempts > 0 ? busy_ms / c.attempts : 0;
  c.commits_per_s = c.commits / seconds;
  c.first_try_requests = first_try > 0 ? static_cast<double>(first_try_requests) / first_try : 0;
  const int lost = c.attempts - c.commits;
  if (lost > 0) c.per_lost_attempt = (c.requests.Total() - c.first_try_requests * c.commits) / lost;
  return c;
}

struct Timed {
  double ms = 0;
  S3RequestCounts per_commit;
};

Timed TimeAppends(Catalog& catalog, S3FileIO& io, std::vector<DataFile>& files, int commits) {
  std::vector<double> ms;
  const S3RequestCounts before = io.RequestCounts();
  for (int i = 0; i < commits; ++i) {
    FilesOperation op(FastAppend({files.back()}));
    files.pop_back();
    int64_t t = MonotonicMicros();
    Must(CommitOperation(catalog, kTable, op));
    ms.push_back((MonotonicMicros() - t) / 1000.0);
  }
  const S3RequestCounts after = io.RequestCounts();
  auto per = [&](int64_t a, int64_t b) { return (a - b + commits / 2) / commits; };
  return {Median(ms), {per(after.get, before.get), per(after.put, before.put), per(after.head, before.head),
                       per(after.post, before.post), per(after.del, before.del), per(after.list, before.list)}};
}

// The bare round trip, one commit at a time on each catalog, and the 100-file scan, per delay.
void SingleCommits(const S3Config& config, S3FaultProxy& proxy, const std::shared_ptr<S3FileIO>& io, int commits,
                   const std::vector<int>& delays) {
  // The storage catalog at s3://, and a SQLite catalog with its warehouse on S3.
  testing_env::TempDir dir("floe-s3-bench");
  StorageCatalog storage("bench", TestS3Prefix("bench-storage"), io);
  MakeTable(storage);
  auto sqlite = Must(OpenCatalog("sqlite://" + dir.path() + "/catalog.db?warehouse=" + TestS3Prefix("bench-sql") +
                                 "&s3.endpoint=" + proxy.endpoint() +
                                 "&s3.access-key-id=testing&s3.secret-access-key=testing-secret"));
  MakeTable(*sqlite);
  auto sql_s3 = std::dynamic_pointer_cast<S3FileIO>(Must(dynamic_cast<SchemeFileIO&>(*sqlite->io()).S3()));

  auto storage_files = WriteDataFiles(storage, commits * static_cast<int>(delays.size()));
  auto sql_files = WriteDataFiles(*sqlite, commits * static_cast<int>(delays.size()));
  // A 100-file table to scan, in one commit.
  StorageCatalog scanned("bench", TestS3Prefix("bench-scan"), io);
  MakeTable(scanned);
  {
    auto files = WriteDataFiles(scanned, 100);
    FilesOperation op(FastAppend(files));
    Must(CommitOperation(scanned, kTable, op));
  }

  std::printf("| delay | rtt ms | storage commit ms (x rtt) | sqlite+S3 commit ms (x rtt) | scan 100 files, 1 at a time, ms (x rtt) | scan 100 files, default, ms (x rtt) |\n");
  std::printf("|---|---|---|---|---|---|\n");
  S3RequestCounts storage_requests, sql_requests, scan_requests;
  for (int delay : delays) {
    proxy.SetDelayMs(delay);
    std::vector<double> rtt;
    const std::string prefix = TestS3Prefix("bench-rtt");
    for (int i = 0; i < 10; ++i) {
      int64_t t = MonotonicMicros();
      Must(io->CreateIfAbsent(prefix + "/o" + std::to_string(i), "{}"));
      rtt.push_back((MonotonicMicros() - t) / 1000.0);
    }
    const double round_trip = Median(rtt);
    Timed s = TimeAppends(storage, *io, storage_files, commits);
    Timed q = TimeAppends(*sqlite, *sql_s3, sql_files, commits);
    storage_requests = s.per_commit;
    sql_requests = q.per_commit;
    auto table = Must(scanned.LoadTable(kTable));
    // One file at a time (how scans read before ReadTasks), then the default (8 in flight on S3).
    auto scan = [&](int read_parallelism) {
      S3FileIO reader(config);  // another process's reader: nothing of this one's in memory
      ScanOptions options;
      options.read_parallelism = read_parallelism;
      int64_t t = MonotonicMicros();
      auto rows = Must(ReadTable(reader, table.metadata, options));
      if (rows.num_rows != 100) Die(Error{ErrorKind::kCorrupt, "scan read " + std::to_string(rows.num_rows) + " rows"});
      scan_requests = reader.RequestCounts();
      return (MonotonicMicros() - t) / 1000.0;
    };
    const double sequential_ms = scan(1);
    const double scan_ms = scan(0);
    std::printf("| %d ms | %.1f | %.1f (%.1f) | %.1f (%.1f) | %.1f (%.1f) | %.1f (%.1f) |\n", delay, round_trip, s.ms,
                s.ms / round_trip, q.ms, q.ms / round_trip, sequential_ms, sequential_ms / round_trip, scan_ms,
                scan_ms / round_trip);
  }
  auto show = [](const char* what, const S3RequestCounts& c) {
    std::printf("%s: requests per append commit: PUT %lld, GET %lld, HEAD %lld, LIST %lld, DELETE %lld, POST %lld\n",
                what, static_cast<long long>(c.put), static_cast<long long>(c.get), static_cast<long long>(c.head),
                static_cast<long long>(c.list), static_cast<long long>(c.del), static_cast<long long>(c.post));
  };
  show("storage on S3", storage_requests);
  show("sqlite, S3 warehouse", sql_requests);
  std::printf("scan of 100 files: requests: GET %lld, HEAD %lld, LIST %lld\n", static_cast<long long>(scan_requests.get),
              static_cast<long long>(scan_requests.head), static_cast<long long>(scan_requests.list));

}

// The requests a scan sends per data file at a real size: one file of 20 long columns (random,
// so they do not compress) in row groups of FLOE_BENCH_ROW_GROUP_MB, read whole and projected to
// 2 columns, each by a fresh reader that hands its rows on a batch at a time (ReadTaskBatches, as
// `floe scan` does) so that the process holds what the reading holds, not the rows read. Straight
// to moto (no proxy: it would hold each answer whole). The projected scan runs three times: by
// the gap rule (s3_input_file.h: gap <= measured bandwidth x first-byte latency), by max_gap
// 1 MiB alone (a GET per row group) and reading across every gap (one streamed GET that drops
// the other columns' bytes).
// FLOE_BENCH_FILE_PREFIX=s3://... reuses a table written by an earlier run (its prefix is
// printed), and FLOE_BENCH_FILE_SCAN=full|projected|per-group|across runs that one scan alone, so that the
// process's peak RSS (bench/peak_memory.sh, or the maxrss printed) is that scan's.
void RequestsPerFile(const S3Config& config, const std::shared_ptr<S3FileIO>& io) {
  auto env_mb = [](const char* name, int64_t fallback) {
    return std::getenv(name) ? std::atoll(std::getenv(name)) : fallback;
  };
  const int64_t file_mb = env_mb("FLOE_BENCH_FILE_MB", 128), group_mb = env_mb("FLOE_BENCH_ROW_GROUP_MB", 16);
  std::vector<NestedField> fields;
  for (int i = 1; i <= 20; ++i) fields.push_back(NestedField{i, "c" + std::to_string(i), Type::Long(), true, ""});
  const std::string prefix =
      std::getenv("FLOE_BENCH_FILE_PREFIX") ? std::getenv("FLOE_BENCH_FILE_PREFIX") : TestS3Prefix("bench-file");
  StorageCatalog catalog("bench", prefix, io);
  if (!Must(catalog.TableExists(kTable))) {
    Must(catalog.CreateNamespace(kTable.ns, {}));
    CreateTableRequest request{Schema(0, fields)};
    request.properties = {{"write.parquet.row-group-size-bytes", std::to_string(group_mb << 20)},
                          {"write.target-file-size-bytes", std::to_string(4 * (file_mb << 20))}};
    Must(catalog.CreateTable(kTable, request));
    const TableMetadata table = Must(catalog.LoadTable(kTable)).metadata;
    const int64_t rows = (file_mb << 20) / (20 * 8);
    DataWriter writer(*io, table);
    uint64_t x = 88172645463325252ull;
    for (int64_t done = 0; done < rows;) {
      const int64_t n = std::min<int64_t>(rows - done, 65536);
      ColumnBatch batch(table.CurrentSchema());
      for (Column& c : batch.columns) {
        c.longs.resize(static_cast<size_t>(n));
        for (int64_t& v : c.longs) {
          x ^= x << 13, x ^= x >> 7, x ^= x << 17;
          v = static_cast<int64_t>(x);
        }
        c.length = static_cast<size_t>(n);
      }
      batch.num_rows = static_cast<size_t>(n);
      Must(writer.Write(std::move(batch)));
      done += n;
    }
    std::vector<DataFile> written = Must(writer.Finish());
    FilesOperation op(FastAppend(written));
    Must(CommitOperation(catalog, kTable, op));
  }
  const TableMetadata scanned = Must(catalog.LoadTable(kTable)).metadata;
  const ScanPlan whole = Must(PlanScan(*io, scanned, ScanOptions{}));
  int64_t bytes = 0, rows = 0;
  int row_groups = 0;
  for (const FileScanTask& task : whole.tasks) {
    bytes += task.file.file_size_in_bytes;
    rows += task.file.record_count;
    row_groups += Must(OpenParquetFile(*io, task.file.file_path))->num_row_groups();
  }
  std::printf("table at %s: %zu data file(s), %.1f MB, %lld rows, %d row groups, 20 long columns\n", prefix.c_str(),
              whole.tasks.size(), bytes / 1e6, static_cast<long long>(rows), row_groups);
  const char* only = std::getenv("FLOE_BENCH_FILE_SCAN");
  struct Scan {
    const char* name;
    int columns;
    bool measured;    // the gap rule of s3_input_file.h; else max_gap alone
    int64_t max_gap;
  };
  const int64_t one_mib = 1 << 20, one_gib = int64_t{1} << 30;
  for (const Scan scan : {Scan{"full", 20, true, one_mib}, Scan{"projected", 2, true, one_mib},
                          Scan{"per-group", 2, false, one_mib}, Scan{"across", 2, false, one_gib}}) {
    if (only != nullptr && std::string_view(only) != scan.name) continue;
    S3FileIO reader(config);  // another process's reader
    S3ReadCoalescing rules;
    rules.measured_gap = scan.measured;
    rules.max_gap = scan.max_gap;
    reader.SetReadCoalescing(rules);
    ScanOptions options;
    options.read_parallelism = 1;
    if (scan.columns == 2) options.columns = {"c1", "c2"};
    const S3RequestCounts before = reader.RequestCounts();
    int64_t t = MonotonicMicros();
    const ScanPlan plan = Must(PlanScan(reader, scanned, options));
    const S3RequestCounts planning = reader.RequestCounts() - before;
    int64_t read_rows = 0;
    for (const FileScanTask& task : plan.tasks) {
      Must(ReadTaskBatches(reader, scanned, task, plan.projection, nullptr, -1, [&](ColumnBatch&& batch) {
        read_rows += static_cast<int64_t>(batch.num_rows);
        return true;
      }));
    }
    const double ms = (MonotonicMicros() - t) / 1000.0;
    if (read_rows != rows) Die(Error{ErrorKind::kCorrupt, "scan read too few rows"});
    const S3RequestCounts sent = reader.RequestCounts() - before;
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const S3ReadSpeed speed = reader.ReadSpeed();
    std::printf("scan %-9s (%2d columns, gap rule: %s): %.0f ms, requests: GET %lld, HEAD %lld, LIST %lld; "
                "planning's GET %lld; per data file: GET %.1f, HEAD %.1f; read buffers held at most %.1f MiB; "
                "process maxrss %.0f MiB; GETs measured: first byte %.0f ms, %.0f MB/s\n",
                scan.name, scan.columns,
                scan.measured ? "measured" : (scan.max_gap == one_gib ? "max_gap 1 GiB" : "max_gap 1 MiB"), ms,
                static_cast<long long>(sent.get), static_cast<long long>(sent.head), static_cast<long long>(sent.list),
                static_cast<long long>(planning.get), static_cast<double>(sent.get - planning.get) / plan.tasks.size(),
                static_cast<double>(sent.head - planning.head) / plan.tasks.size(),
                reader.PeakHeldReadBytes() / 1048576.0, usage.ru_maxrss / 1024.0, speed.first_byte_ms,
                speed.bytes_per_ms / 1000.0);
    std::fflush(stdout);
  }
}

int Main() {
  auto config = TestS3Config();
  if (!config) {
    std::printf("%s\n", kNoS3Message);
    return 0;
  }
  const int commits = std::getenv("FLOE_BENCH_COMMITS") ? std::atoi(std::getenv("FLOE_BENCH_COMMITS")) : 8;
  if (!TestS3FileIO()) Die(Error{ErrorKind::kUnavailable, "cannot reach " + config->endpoint});
  if (std::getenv("FLOE_BENCH_ONLY_FILE")) {
    RequestsPerFile(*config, std::make_shared<S3FileIO>(*config));
    return 0;
  }
  auto proxy = S3FaultProxy::Start(config->endpoint);
  config->endpoint = proxy->endpoint();
  auto io = std::make_shared<S3FileIO>(*config);
  const std::vector<int> delays = {0, 10, 50};
  if (!std::getenv("FLOE_BENCH_ONLY_RACE")) SingleCommits(*config, *proxy, io, commits, delays);

  // Contention: 1 writer, then 8 racing writers, on a fresh table per delay. The server serves
  // one request at a time: a HEAD's round trip without delay bounds its time per request, and
  // requests x that time / wall time is how busy the run kept it (near 100%: the server, not
  // floe, sets the rate).
  proxy->SetDelayMs(0);
  double service_ms = 0;
  {
    std::vector<double> heads;
    const std::string probe = TestS3Prefix("bench-probe") + "/o";
    Must(io->CreateIfAbsent(probe, "{}"));
    for (int i = 0; i < 20; ++i) {
      int64_t t = MonotonicMicros();
      Must(io->ETag(probe));
      heads.push_back((MonotonicMicros() - t) / 1000.0);
    }
    service_ms = Median(heads);
  }
  std::printf("\nserver time per request (a HEAD without delay, median of 20): %.1f ms\n", service_ms);
  const int each = std::getenv("FLOE_BENCH_RACE_COMMITS") ? std::atoi(std::getenv("FLOE_BENCH_RACE_COMMITS"))
                                                          : std::max(2, commits / 2);
  std::printf("\n| delay | writers | commits/s (x 1 writer) | attempts per commit | ms per attempt | waits ms per commit | turn waits ms per commit | "
              "requests per commit: PUT GET HEAD LIST DELETE(+DeleteObjects) | requests, commit landed at once | "
              "requests per lost attempt | server busy | server's ceiling (x 1 writer) |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int delay : delays) {
    proxy->SetDelayMs(delay);
    const std::string contended = TestS3Prefix("bench-contended");
    {
      StorageCatalog maker("bench", contended, io);
      MakeTable(maker);
    }
    double one = 0;
    struct Run {
      int writers;
      bool turns;
      const char* label;
    };
    for (const Run run : {Run{1, true, "1"}, Run{8, false, "8 racing"}, Run{8, true, "8 taking turns"}}) {
      const int writers = run.writers;
      const Contention c = AppendRace(contended, *config, writers, writers == 1 ? 8 * each : each, run.turns);
      if (writers == 1) one = c.commits_per_s;
      auto per = [&](int64_t n) { return static_cast<double>(n) / c.commits; };
      // The most commits a server serving one request at a time allows at this run's requests
      // per commit: 1 / (requests per commit x time per request).
      const double ceiling = 1000.0 / (static_cast<double>(c.requests.Total()) / c.commits * service_ms);
      std::printf("| %d ms | %s | %.1f (%.2fx) | %.2f | %.0f | %.0f | %.0f | %.1f %.1f %.1f %.1f %.1f | %.1f | %.1f | %.0f%% | %.1f (%.2fx) |\n",
                  delay, run.label, c.commits_per_s, c.commits_per_s / one, static_cast<double>(c.attempts) / c.commits,
                  c.attempt_ms, c.backoff_ms / c.commits, c.turn_wait_ms / c.commits, per(c.requests.put), per(c.requests.get), per(c.requests.head),
                  per(c.requests.list), per(c.requests.del + c.requests.post), c.first_try_requests, c.per_lost_attempt,
                  100.0 * c.requests.Total() * service_ms / (c.seconds * 1000), ceiling, ceiling / one);
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace
}  // namespace floe

int main() { return floe::Main(); }
