// Commit benchmarks (issue 7), printed as a Markdown table for bench/RESULTS.md.
//
//  (a) one append commit (data files already written) with 10, 1,000 and 10,000 snapshots of
//      history and with 10 vs 10,000 data files in the table, next to the bare catalog swap
//      (SwapPointer: the conditional UPDATE through floe's SQL catalog) and a metadata-only
//      CommitTable, all in the same run on the same SQLite catalog;
//  (b) 1, 2, 4 and 8 processes appending to one table for a fixed time: commits/s, retries per
//      commit, p50 and p99 latency, and the fewest commits any one process got (starvation);
//  (c) parsing another writer's new document with 600 and 10,000 snapshots of history: the full
//      parse vs the parse that reuses the document one commit earlier (meta/metadata_reuse.h).
//
// Usage: commit_bench [seconds_per_contention_run=5] [all|history|contention|contention-defaults|parse]
//   contention: the table's commit.retry.* are set for a tight loop (1000 retries, 1-50 ms);
//   contention-defaults: Iceberg's defaults (4 retries, 100 ms - 60 s), where some commits of 8
//   racing writers run out of retries (counted in the last column).
//   FLOE_BENCH_PROCS=N runs only 1 and N processes (a quicker look at one ratio).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "contention/contention_scheduler.h"
#include "catalog/catalog.h"
#include "catalog/commit.h"
#include "catalog/sql/sql_catalog.h"
#include "maint/expire_snapshots.h"
#include "meta/metadata_json.h"
#include "meta/metadata_reuse.h"
#include "commit/commit_operation.h"
#include "commit/snapshot_lineage.h"
#include "commit/operations.h"
#include "rows/row_writes.h"
#include "types/partition_spec.h"
#include "types/schema_text.h"
#include "util/clock.h"
#include "util/uuid.h"
#include "write/data_writer.h"
#include "bench_must.h"

using namespace floe;

namespace {

const TableIdentifier kTable{{"bench"}, "orders"};

using bench::Die;
using bench::Must;

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5))];
}

// What "fewest / mean" a fair lottery gives: `commits` handed one by one to a uniformly random
// one of `procs` writers, 2,000 times (seeded). A short run of many writers has an unluckiest
// writer well below the mean by chance alone (32 writers with 5 commits each: often 1), so a
// measured share is starvation only where it falls below what such a draw gives.
struct FairDraw {
  double median = 0;  // the median draw's fewest / mean
  double p5 = 0;      // 5% of draws fall below this
};

FairDraw FairDrawFewestShare(int64_t commits, int procs) {
  if (commits <= 0 || procs <= 0) return {};
  std::mt19937_64 rng(20261202);
  std::uniform_int_distribution<int> pick(0, procs - 1);
  std::vector<double> shares;
  std::vector<int64_t> counts(procs);
  for (int draw = 0; draw < 2000; ++draw) {
    std::fill(counts.begin(), counts.end(), 0);
    for (int64_t c = 0; c < commits; ++c) ++counts[pick(rng)];
    shares.push_back(*std::min_element(counts.begin(), counts.end()) * static_cast<double>(procs) / commits);
  }
  return {Percentile(shares, 0.5), Percentile(shares, 0.05)};
}

// The variance of the writers' commit counts over a fair lottery's (commits/procs x
// (1 - 1/procs)): about 1 when wins fall at random, far above 1 when some writers capture the
// table and others starve.
double SpreadOverFairDraw(const std::vector<int64_t>& counts) {
  const double n = counts.size();
  if (n < 2) return 0;
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  if (total <= 0) return 0;
  const double mean = total / n;
  double variance = 0;
  for (int64_t c : counts) variance += (c - mean) * (c - mean);
  variance /= n - 1;
  return variance / (mean * (1 - 1 / n));
}

// The table's commit.retry.* properties: the benchmark's own (writers in a tight loop retry
// until they land, after short waits) or none, leaving Iceberg's defaults (4 retries, waits of
// 100 ms to 60 s).
enum class RetryProperties { kBench, kIcebergDefaults };

std::unique_ptr<Catalog> MakeCatalog(const std::string& dir, bool create,
                                     RetryProperties retry = RetryProperties::kBench) {
  auto catalog = Must(OpenCatalog("sqlite://" + dir + "/catalog.db", ProcessCatalogOptions()));
  if (create) {
    Must(catalog->CreateNamespace({"bench"}, {}));
    CreateTableRequest request;
    request.schema = Must(ParseSchemaText("order_id long not null, country string, amount_cents long, ts timestamp"));
    if (retry == RetryProperties::kBench) {
      request.properties = {{"commit.retry.num-retries", "1000"},
                            {"commit.retry.min-wait-ms", "1"},
                            {"commit.retry.max-wait-ms", "50"},
                            {"commit.retry.total-timeout-ms", "600000"}};
    }
    Must(catalog->CreateTable(kTable, request));
  }
  return catalog;
}

// `count` tiny data files, written before any timing starts.
std::vector<DataFile> WriteDataFiles(Catalog& catalog, int count) {
  auto table = Must(catalog.LoadTable(kTable));
  std::vector<DataFile> files;
  for (int i = 0; i < count; ++i) {
    DataWriter writer(*catalog.io(), table.metadata);
    ColumnBatch batch(table.metadata.CurrentSchema());
    Must(batch.AppendRow({Literal::Long(i), Literal::String("DE"), Literal::Long(i), Literal::Timestamp(i)}));
    Must(writer.Write(batch));
    auto written = Must(writer.Finish());
    files.insert(files.end(), written.begin(), written.end());
  }
  return files;
}

// Adds `count` snapshots of history in one commit (all sharing the current manifest list).
void AddHistory(Catalog& catalog, int count) {
  auto table = Must(catalog.LoadTable(kTable));
  const Snapshot* head = table.metadata.CurrentSnapshot();
  TableCommit commit{kTable, {}, {}};
  int64_t seq = table.metadata.last_sequence_number;
  std::optional<int64_t> parent = head ? std::optional<int64_t>(head->snapshot_id) : std::nullopt;
  for (int i = 0; i < count; ++i) {
    Snapshot s;
    s.snapshot_id = NewSnapshotId(table.metadata);  // a clash with this loop's own ids: 2^-63
    s.parent_snapshot_id = parent;
    s.sequence_number = ++seq;
    s.timestamp_ms = NowMillis();
    s.manifest_list = head->manifest_list;
    s.summary = head->summary;
    s.summary["operation"] = "append";
    commit.updates.push_back(AddSnapshot{s});
    parent = s.snapshot_id;
  }
  SnapshotRef ref;
  ref.snapshot_id = *parent;
  commit.updates.push_back(SetSnapshotRef{"main", ref});
  Must(catalog.CommitTable(commit));
}

struct Latency {
  double p50 = 0, p99 = 0;
  double cpu_ms = 0;  // mean CPU time (user + system) per operation
};

// CPU time of this process so far, in ms: unlike wall time, barely moved by other load.
double CpuMs() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

Latency TimeAppends(Catalog& catalog, std::vector<DataFile>& files, int commits) {
  std::vector<double> ms;
  const double cpu = CpuMs();
  for (int i = 0; i < commits && !files.empty(); ++i) {
    FilesOperation op(FastAppend({files.back()}));
    files.pop_back();
    int64_t t = MonotonicMicros();
    Must(CommitOperation(catalog, kTable, op));
    ms.push_back((MonotonicMicros() - t) / 1000.0);
  }
  return {Percentile(ms, 0.5), Percentile(ms, 0.99), (CpuMs() - cpu) / std::max<size_t>(ms.size(), 1)};
}

// The bare I/O of one append commit, as PERFORMANCE.md defines it: its three files (a
// manifest, a manifest list and the metadata document, with the sizes of the table's current
// ones) each created durably (open O_CREAT|O_EXCL, write, fsync, fsync folder), then the
// catalog's conditional UPDATE. No Avro, no JSON: the floor of any commit of this table.
Latency TimeBareCommitIo(Catalog& catalog, int commits, size_t* document_bytes) {
  auto* store = dynamic_cast<PointerStore*>(&catalog);
  auto table = Must(catalog.LoadTable(kTable));
  FileIO& io = *catalog.io();
  const std::string document = Must(io.ReadAll(table.metadata_location));
  const std::string list = Must(io.ReadAll(table.metadata.CurrentSnapshot()->manifest_list));
  const std::string manifest(4096, 'm');  // a one-entry manifest is 3-6 KB
  *document_bytes = document.size();
  const std::string folder = table.metadata.location + "/metadata/";
  std::string current = table.metadata_location;
  const std::string original = current;
  std::vector<double> ms;
  std::vector<std::string> created;
  const double cpu = CpuMs();
  for (int i = 0; i < commits; ++i) {
    const std::string id = RandomUuidString();
    const std::vector<std::pair<std::string, const std::string*>> files = {
        {folder + "bare-" + id + "-m0.avro", &manifest},
        {folder + "snap-bare-" + id + ".avro", &list},
        {folder + "bare-" + id + ".metadata.json", &document}};
    const int64_t t = MonotonicMicros();
    for (const auto& [path, bytes] : files) Must(io.CreateUnreferenced(path, *bytes));
    PointerSwap swap{kTable, current, i % 2 == 0 ? original + ".bench" : original};
    Must(store->SwapPointer(swap));
    ms.push_back((MonotonicMicros() - t) / 1000.0);
    current = swap.new_location;
    for (const auto& file : files) created.push_back(file.first);
  }
  // Removed only now, as a commit keeps its files: a file removed at once hands its page-cache
  // pages to the next one, and on this machine's VM a page the kernel has not used lately is
  // many times slower to fill (a new 5 MB file: ~10 ms to write vs ~1 ms into recycled pages).
  for (const auto& path : created) Must(io.Delete(path));
  if (current != original) Must(store->SwapPointer(PointerSwap{kTable, current, original}));
  return {Percentile(ms, 0.5), Percentile(ms, 0.99), (CpuMs() - cpu) / commits};
}

Latency TimeMetadataOnly(Catalog& catalog, int commits) {
  std::vector<double> ms;
  for (int i = 0; i < commits; ++i) {
    TableCommit c{kTable, {}, {SetProperties{{{"bench.counter", std::to_string(i)}}}}};
    int64_t t = MonotonicMicros();
    Must(catalog.CommitTable(c));
    ms.push_back((MonotonicMicros() - t) / 1000.0);
  }
  return {Percentile(ms, 0.5), Percentile(ms, 0.99)};
}

// The conditional UPDATE alone, through floe's SQL catalog (no metadata document).
Latency TimeBareSwap(Catalog& catalog, int swaps) {
  auto* store = dynamic_cast<PointerStore*>(&catalog);
  if (!store) return {};
  std::vector<double> ms;
  std::string current = Must(store->CurrentMetadataLocation(kTable));
  const std::string original = current;
  for (int i = 0; i < swaps; ++i) {
    PointerSwap swap;
    swap.id = kTable;
    swap.base_location = current;
    swap.new_location = i % 2 == 0 ? original + ".bench" : original;
    int64_t t = MonotonicMicros();
    Must(store->SwapPointer(swap));
    ms.push_back((MonotonicMicros() - t) / 1000.0);
    current = swap.new_location;
  }
  if (current != original) {
    PointerSwap back{kTable, current, original};
    Must(store->SwapPointer(back));
  }
  return {Percentile(ms, 0.5), Percentile(ms, 0.99)};
}

// Each run's own folder, removed only when the whole benchmark ends. On ext4 without a
// journal (this machine) an inode freed in the last seconds is skipped, one by one, by every
// later file creation in its block group (ext4's recently_deleted check): removing a run's
// thousands of files right before the next run made that run's creates pay for them (30% of
// an 8-writer run's CPU went to that scan). A table's own writers do not delete thousands of
// files between two commits.
std::vector<std::string> bench_folders;

std::string NewBenchFolder() {
  std::string dir = (std::filesystem::temp_directory_path() / ("floe-bench-" + RandomUuidString().substr(0, 8))).string();
  std::filesystem::create_directories(dir);
  bench_folders.push_back(dir);
  return dir;
}

void HistoryBench() {
  std::printf("### (a) one append commit vs history and table size (SQLite, p50 / p99 ms)\n\n");
  std::printf("| history | data files in table | document | bare swap | commit bare I/O | metadata-only commit "
              "| append commit | append CPU ms | append / swap | append rate / bare I/O rate |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (auto [history, data_files] : std::vector<std::pair<int, int>>{{10, 10}, {1000, 10}, {10000, 10}, {10, 10000}}) {
    const std::string dir = NewBenchFolder();
    auto catalog = MakeCatalog(dir, true);
    auto files = WriteDataFiles(*catalog, 30);
    if (data_files > 10) {
      // A table that already holds many data files (one commit, one manifest).
      auto table = Must(catalog->LoadTable(kTable));
      std::vector<DataFile> many;
      DataFile proto = files.back();
      for (int i = 0; i < data_files; ++i) {
        proto.file_path = files.back().file_path + ".copy-" + std::to_string(i);
        many.push_back(proto);
      }
      FilesOperation op(FastAppend(many));
      Must(CommitOperation(*catalog, kTable, op));
    } else {
      FilesOperation op(FastAppend({files.back()}));
      files.pop_back();
      Must(CommitOperation(*catalog, kTable, op));
    }
    AddHistory(*catalog, history - 1);
    Latency swap = TimeBareSwap(*catalog, 50);
    size_t document_bytes = 0;
    Latency floor = TimeBareCommitIo(*catalog, 20, &document_bytes);
    Latency meta = TimeMetadataOnly(*catalog, 10);
    Latency append = TimeAppends(*catalog, files, 20);
    std::printf("| %d | %d | %.0f KB | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.2f | %.1fx | %.2f |\n",
                history, data_files, document_bytes / 1024.0, swap.p50, swap.p99, floor.p50, floor.p99, meta.p50,
                meta.p99, append.p50, append.p99, append.cpu_ms, append.p50 / std::max(swap.p50, 1e-6),
                floor.p50 / std::max(append.p50, 1e-6));
    std::fflush(stdout);
    catalog.reset();
  }
}

// Issue 19: the append commit at 10, 1,000 and 10,000 snapshots, and at 10,000 once
// expire-snapshots kept only the last 100.
void ExpiryBench() {
  std::printf("### (d) one append commit before and after expire-snapshots (SQLite, p50 / p99 ms)\n\n");
  std::printf("| history | document | append commit | vs 10 snapshots |\n|---|---|---|---|\n");
  double at_ten = 0;
  for (int history : {10, 1000, 10000}) {
    const std::string dir = NewBenchFolder();
    auto catalog = MakeCatalog(dir, true);
    auto files = WriteDataFiles(*catalog, 50);
    FilesOperation op(FastAppend({files.back()}));
    files.pop_back();
    Must(CommitOperation(*catalog, kTable, op));
    AddHistory(*catalog, history - 1);
    auto report = [&](const std::string& label) {
      auto table = Must(catalog->LoadTable(kTable));
      const size_t bytes = std::filesystem::file_size(table.metadata_location);
      Latency append = TimeAppends(*catalog, files, 20);
      if (at_ten == 0) at_ten = append.p50;
      std::printf("| %s | %.0f KB | %.2f / %.2f | %.2fx |\n", label.c_str(), bytes / 1024.0, append.p50, append.p99,
                  append.p50 / at_ten);
      std::fflush(stdout);
    };
    report(std::to_string(history));
    if (history == 10000) {
      ExpireOptions expire;
      expire.retention.older_than_ms = NowMillis();
      expire.retention.retain_last = 100;
      const int64_t start = MonotonicMicros();
      auto expired = Must(ExpireSnapshots(*catalog, kTable, expire));
      std::printf("| (expire-snapshots --retain-last 100: %zu snapshots in %.0f ms) | | | |\n",
                  expired.expired_snapshot_ids.size(), (MonotonicMicros() - start) / 1000.0);
      report("10,000 expired to 100");
    }
    catalog.reset();
  }
}

void ContentionBench(double seconds, RetryProperties retry) {
  std::printf("\n### (b) processes appending to one table (SQLite, %.0f s each, %s)\n\n", seconds,
              retry == RetryProperties::kBench
                  ? "commit.retry.num-retries=1000, min-wait-ms=1, max-wait-ms=50"
                  : "Iceberg's default commit.retry.* properties");
  std::printf("| processes | commits/s | vs 1 process | retries per commit | p50 ms | p99 ms | fewest commits by one "
              "process | fewest / mean | a fair draw's fewest / mean (median; 5%%) | spread / a fair draw's | most in a row "
              "| commits out of retries |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  double single_rate = 0;
  std::vector<int> proc_counts{1, 2, 4, 8};
  if (const char* only = std::getenv("FLOE_BENCH_PROCS")) proc_counts = {1, std::atoi(only)};
  for (int procs : proc_counts) {
    const std::string dir = NewBenchFolder();
    { MakeCatalog(dir, true, retry); }
    // Enough data files that no writer runs out before the time is up (a lone writer at 400
    // commits/s included); the rate is taken over the time the writers actually ran.
    const int files_per_worker = std::min(4000, static_cast<int>(seconds * 500 / procs) + 100);
    std::vector<pid_t> pids;
    for (int p = 0; p < procs; ++p) {
      pid_t pid = fork();
      if (pid == 0) {
        auto catalog = MakeCatalog(dir, false);
        auto files = WriteDataFiles(*catalog, files_per_worker);
        std::ofstream out(dir + "/worker-" + std::to_string(p));
        // Start together: say ready, then wait for the go file.
        std::ofstream(dir + "/ready-" + std::to_string(p)) << "ready";
        while (!std::filesystem::exists(dir + "/go")) usleep(200);
        const int64_t start = MonotonicMicros();
        const int64_t end = start + static_cast<int64_t>(seconds * 1e6);
        while (MonotonicMicros() < end && !files.empty()) {
          FilesOperation op(FastAppend({files.back()}));
          files.pop_back();
          int64_t t = MonotonicMicros();
          auto r = CommitOperation(*catalog, kTable, op);
          if (!r && r.error().kind != ErrorKind::kCommitConflict) Die(r.error());
          // A commit that ran out of retries is a failure the table never sees: counted apart.
          out << (MonotonicMicros() - t) / 1000.0 << " " << (r ? r->attempts - 1 : -1) << " "
              << (r ? r->sequence_number : -1) << "\n";
        }
        out << "window " << start << " " << MonotonicMicros() << "\n";
        out.close();
        _exit(0);
      }
      pids.push_back(pid);
    }
    for (int p = 0; p < procs; ++p) {
      while (!std::filesystem::exists(dir + "/ready-" + std::to_string(p))) usleep(1000);
    }
    std::ofstream(dir + "/go") << "go";
    for (pid_t pid : pids) waitpid(pid, nullptr, 0);
    std::vector<double> ms;
    int64_t retries = 0, fewest = INT64_MAX, failed = 0;
    std::vector<int64_t> counts;
    std::vector<std::pair<int64_t, int>> landed_by;  // (sequence number, process) of each commit
    int64_t first_start = INT64_MAX, last_end = 0;
    for (int p = 0; p < procs; ++p) {
      std::ifstream in(dir + "/worker-" + std::to_string(p));
      int64_t n = 0;
      std::string first;
      while (in >> first) {
        if (first == "window") {
          int64_t start = 0, end = 0;
          in >> start >> end;
          first_start = std::min(first_start, start);
          last_end = std::max(last_end, end);
          continue;
        }
        const double l = std::stod(first);
        int64_t r = 0, sequence_number = 0;
        in >> r >> sequence_number;
        if (r < 0) {
          ++failed;
          continue;
        }
        ms.push_back(l);
        landed_by.emplace_back(sequence_number, p);
        retries += r;
        ++n;
      }
      fewest = std::min(fewest, n);
      counts.push_back(n);
    }
    const double ran_seconds = std::max<int64_t>(last_end - first_start, 1) / 1e6;
    double rate = ms.size() / ran_seconds;
    if (procs == 1) single_rate = rate;
    const double mean = static_cast<double>(ms.size()) / procs;
    const FairDraw fair = FairDrawFewestShare(static_cast<int64_t>(ms.size()), procs);
    // The most commits one process landed in a row, in the table's order: a writer that has
    // captured the table (its next commit always starts before the others' retries) shows as a
    // long run; among fair writers long runs are rare (with 6, a given commit starts a run of 6
    // once in 7,776).
    std::sort(landed_by.begin(), landed_by.end());
    int64_t longest_run = 0;
    for (size_t i = 0, run = 0; i < landed_by.size(); ++i) {
      run = i > 0 && landed_by[i].second == landed_by[i - 1].second ? run + 1 : 1;
      longest_run = std::max<int64_t>(longest_run, static_cast<int64_t>(run));
    }
    std::printf("| %d | %.0f | %.2f | %.2f | %.2f | %.2f | %lld | %.2f | %.2f; %.2f | %.2f | %lld | %lld |\n", procs, rate,
                rate / single_rate, ms.empty() ? 0.0 : static_cast<double>(retries) / ms.size(), Percentile(ms, 0.5),
                Percentile(ms, 0.99), static_cast<long long>(fewest), mean > 0 ? fewest / mean : 0.0, fair.median,
                fair.p5, SpreadOverFairDraw(counts), static_cast<long long>(longest_run), static_cast<long long>(failed));
    std::fflush(stdout);
  }
}

// Median wall time of `runs` calls of `parse`, in ms.
template <typename F>
double MedianMs(int runs, F parse) {
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const int64_t t = MonotonicMicros();
    parse(i);
    ms.push_back((MonotonicMicros() - t) / 1000.0);
  }
  return Percentile(ms, 0.5);
}

void ParseBench() {
  constexpr int kRuns = 9;
  std::printf("\n### (c) parsing another writer's new document: full parse vs reusing the document one commit "
              "earlier (median of %d, ms)\n\n", kRuns);
  std::printf("| history | document | full parse | reusing parse | reusing, previous handed over | snapshots reused "
              "| full / reusing | full / handed over |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (int history : {600, 10000}) {
    const std::string dir = NewBenchFolder();
    auto catalog = MakeCatalog(dir, true);
    auto files = WriteDataFiles(*catalog, 2);
    {
      FilesOperation op(FastAppend({files[0]}));
      Must(CommitOperation(*catalog, kTable, op));
    }
    AddHistory(*catalog, history - 2);
    const std::string previous_text = Must(catalog->io()->ReadAll(Must(catalog->LoadTable(kTable)).metadata_location));
    {
      FilesOperation op(FastAppend({files[1]}));
      Must(CommitOperation(*catalog, kTable, op));
    }
    const std::string text = Must(catalog->io()->ReadAll(Must(catalog->LoadTable(kTable)).metadata_location));
    // The previous document as a cache holds one it parsed.
    IndexedMetadata parsed_previous = Must(ParseTableMetadataReusing(previous_text, PreviousDocument{}));
    const PreviousDocument previous{std::make_shared<TableMetadata>(std::move(parsed_previous.metadata)),
                                    parsed_previous.text};
    // Results are kept until the timing ends: freeing a long history is not parsing it.
    std::vector<TableMetadata> full_results(kRuns);
    const double full = MedianMs(kRuns, [&](int i) { full_results[i] = Must(ParseTableMetadata(text)); });
    std::vector<std::string> copies(kRuns, text);  // the parse takes its text; copied untimed
    std::vector<IndexedMetadata> reusing_results(kRuns);
    const double reusing = MedianMs(kRuns, [&](int i) {
      reusing_results[i] = Must(ParseTableMetadataReusing(std::move(copies[i]), previous));
    });
    const size_t reused = reusing_results.back().reused_snapshots;
    // As the cache parses when only it held the previous document: handed over, its snapshots
    // are moved, not copied. Each run gets its own copy of the previous document, made untimed.
    std::vector<PreviousDocument> handed(kRuns);
    for (int i = 0; i < kRuns; ++i) {
      handed[i] = {std::make_shared<TableMetadata>(*previous.metadata), previous.text, /*handed_over=*/true};
    }
    copies.assign(kRuns, text);
    std::vector<IndexedMetadata> handed_results(kRuns);
    const double reusing_handed = MedianMs(kRuns, [&](int i) {
      handed_results[i] = Must(ParseTableMetadataReusing(std::move(copies[i]), [&](std::string_view) {
        return std::exchange(handed[i], {});
      }));
    });
    std::printf("| %d | %.0f KB | %.2f | %.2f | %.2f | %zu | %.1fx | %.1fx |\n", history, text.size() / 1024.0, full,
                reusing, reusing_handed, reused, full / std::max(reusing, 1e-6), full / std::max(reusing_handed, 1e-6));
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = argc > 1 ? std::atof(argv[1]) : 5;
  std::string part = argc > 2 ? argv[2] : "all";
  if (part != "all" && part != "history" && part != "contention" && part != "contention-defaults" && part != "parse" &&
      part != "expiry") {
    std::fprintf(stderr,
                 "usage: commit_bench [seconds_per_contention_run=5] "
                 "[all|history|contention|contention-defaults|parse|expiry]\n");
    return 2;
  }
  if (part == "all" || part == "history") HistoryBench();
  if (part == "all" || part == "contention") ContentionBench(seconds, RetryProperties::kBench);
  if (part == "all" || part == "contention-defaults") ContentionBench(seconds, RetryProperties::kIcebergDefaults);
  if (part == "all" || part == "parse") ParseBench();
  if (part == "all" || part == "expiry") ExpiryBench();
  for (const auto& dir : bench_folders) std::filesystem::remove_all(dir);
  return 0;
}
