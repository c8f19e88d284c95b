// Scan planning over a table of 100,000 data files in 1,000 manifests, partitioned by day (one
// manifest per day, as 1,000 daily appends leave it), next to merely reading manifest bytes;
// and the same at 1.5 million files in 15,000 manifests (the Plan1500k_* benchmarks, whose
// table is written only when one of them is selected: about 100 MB of manifests).
//
//   build/bench/scan_bench  (or build-*/scan_bench)  [--benchmark_filter=...]
//   build/scan_bench --benchmark_filter='Plan1500k_UnfilteredNoStats/0'   # one per process: see peak_rss
//
// The table lives in a temporary folder on local disk; data files are never opened by
// planning, so only metadata is written. Each entry carries metrics for four columns, as a
// real writer's entries do. Compared in one run:
//   RawRead/AllManifests       read the manifest list and all 1,000 manifests (bytes only)
//   RawRead/OneDayManifests    read the manifest list and the one manifest a one-day filter needs
//   Plan/OneDay                PlanScan with day = <one day>: list + summaries + 1 manifest
//   Plan/Unfiltered            PlanScan with no filter: every manifest decoded, 100,000 tasks
//   Plan/IdFilter              PlanScan with id = <one id>: every manifest opened, files pruned by metrics
// Plans run with 1 planning thread and with one per core (/1 and /0); real time is reported,
// since threads make CPU time of the calling thread meaningless.
// Counters report the manifests each one opens, and for plans the plan's own size (plan_MB: its
// task vector and what each task owns on the heap) next to how far the process's peak resident
// memory grew while planning (peak_rss_growth_MB, from getrusage; a high-water mark, so it
// means one benchmark's figure only when that benchmark runs alone in its process).
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "avro/manifest_list.h"
#include "avro/manifest_writer.h"
#include "io/local_file_io.h"
#include "scan/table_scan.h"
#include "util/uuid.h"

namespace floe {
namespace {

constexpr int kManifests = 1000;
constexpr int kLargeManifests = 15000;
constexpr int kFilesPerManifest = 100;
constexpr int32_t kDay0 = 19723;  // 2024-01-01

Schema BenchSchema() {
  return Schema(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "day", Type::Date(), true, ""},
                    NestedField{3, "country", Type::String(), false, ""}, NestedField{4, "amount", Type::Double(), false, ""}});
}

struct BenchTable {
  std::string dir;
  LocalFileIO io;
  TableMetadata table;
  std::vector<std::string> manifest_paths;
  std::string list_path;
  bool keep = false;  // FLOE_SCAN_BENCH_DIR: the table stays for the next run

  ~BenchTable() {
    std::error_code ec;
    if (!keep) std::filesystem::remove_all(dir, ec);
  }
};

void Check(const Status& s) {
  if (!s) {
    fprintf(stderr, "setup failed: %s\n", s.error().ToString().c_str());
    std::abort();
  }
}

// Bench files are written without fsync: the table is rebuilt by every run, and at 15,000
// manifests durable creates would make the setup take minutes on a shared disk.
void WriteBenchFile(const std::string& path, std::string_view bytes) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out.flush()) {
    fprintf(stderr, "setup failed: cannot write %s\n", path.c_str());
    std::abort();
  }
}

// With FLOE_SCAN_BENCH_DIR set, the table is written under it once (files-<count>/) and reused by
// later runs (profilers then skip the setup); otherwise a fresh temporary folder per run.
std::unique_ptr<BenchTable> MakeTable(int manifest_count) {
  auto t = std::make_unique<BenchTable>();
  const char* keep_dir = std::getenv("FLOE_SCAN_BENCH_DIR");
  bool reuse = false;
  if (keep_dir && *keep_dir) {
    t->dir = std::string(keep_dir) + "/files-" + std::to_string(manifest_count * kFilesPerManifest);
    t->keep = true;
    reuse = std::filesystem::exists(t->dir + "/metadata/snap-1.avro");
  } else {
    t->dir = (std::filesystem::temp_directory_path() / ("floe-scan-bench-" + RandomUuidString().substr(0, 8))).string();
  }
  TableMetadata& m = t->table;
  m.format_version = 2;
  m.table_uuid = RandomUuidString();
  m.location = t->dir;
  m.schemas.push_back(BenchSchema());
  m.last_column_id = 4;
  PartitionSpec spec(0, {PartitionField{2, 1000, "day", Transform::Identity()}});
  m.partition_specs.push_back(spec);
  m.last_partition_id = 1000;
  m.sort_orders.push_back(SortOrder::Unsorted());

  std::vector<ManifestFile> manifests;
  int64_t next_id = 0;
  t->list_path = t->dir + "/metadata/snap-1.avro";
  if (reuse) {
    auto bytes = t->io.ReadAll(t->list_path);
    Check(bytes ? Ok() : Status(std::unexpected(bytes.error())));
    auto list = ReadManifestList(*bytes, t->list_path);
    Check(list ? Ok() : Status(std::unexpected(list.error())));
    for (const ManifestFile& mf : list->manifests) t->manifest_paths.push_back(mf.manifest_path);
  }
  for (int d = 0; d < manifest_count && !reuse; ++d) {
    int32_t day = kDay0 + d;
    std::vector<ManifestEntry> entries;
    for (int f = 0; f < kFilesPerManifest; ++f) {
      ManifestEntry e;
      e.status = EntryStatus::kAdded;
      DataFile& file = e.file;
      file.file_path = t->dir + "/data/day=" + std::to_string(day) + "/" + RandomUuidString() + ".parquet";
      file.partition = {Literal::Date(day)};
      file.record_count = 10000;
      file.file_size_in_bytes = 400000;
      int64_t lo = next_id, hi = next_id + 9999;
      next_id += 10000;
      for (int c = 1; c <= 4; ++c) {
        file.column_sizes[c] = 100000;
        file.value_counts[c] = 10000;
        file.null_value_counts[c] = c == 4 ? 12 : 0;
      }
      file.nan_value_counts[4] = 0;
      file.lower_bounds[1] = *Literal::Long(lo).ToBinary();
      file.upper_bounds[1] = *Literal::Long(hi).ToBinary();
      file.lower_bounds[2] = *Literal::Date(day).ToBinary();
      file.upper_bounds[2] = *Literal::Date(day).ToBinary();
      file.lower_bounds[3] = "AT";
      file.upper_bounds[3] = "US";
      file.lower_bounds[4] = *Literal::Double(0.5).ToBinary();
      file.upper_bounds[4] = *Literal::Double(9999.5).ToBinary();
      file.split_offsets = {4};
      entries.push_back(std::move(e));
    }
    ManifestWriterOptions o;
    o.schema = m.schemas[0];
    o.spec = spec;
    o.manifest_path = t->dir + "/metadata/" + RandomUuidString() + "-m0.avro";
    o.snapshot_id = 1;
    auto written = WriteManifest(o, entries);
    Check(written ? Ok() : Status(std::unexpected(written.error())));
    WriteBenchFile(o.manifest_path, written->bytes);
    t->manifest_paths.push_back(o.manifest_path);
    manifests.push_back(written->manifest);
  }
  if (!reuse) {
    ManifestListWriterOptions lo;
    lo.snapshot_id = 1;
    lo.sequence_number = 1;
    auto list = WriteManifestList(lo, manifests);
    Check(list ? Ok() : Status(std::unexpected(list.error())));
    Check(t->io.CreateIfAbsent(t->list_path, *list));  // last: its presence marks a complete table
  }

  Snapshot s;
  s.snapshot_id = 1;
  s.sequence_number = 1;
  s.timestamp_ms = 1'700'000'000'000;
  s.manifest_list = t->list_path;
  s.summary["operation"] = "append";
  s.schema_id = 0;
  m.snapshots.push_back(s);
  m.snapshot_log.push_back({s.timestamp_ms, 1});
  m.current_snapshot_id = 1;
  m.refs[kMainBranch] = SnapshotRef{1, RefType::kBranch, {}, {}, {}};
  m.last_sequence_number = 1;
  return t;
}

BenchTable& Table() {
  static std::unique_ptr<BenchTable> table = MakeTable(kManifests);
  return *table;
}

BenchTable& LargeTable() {
  static std::unique_ptr<BenchTable> table = MakeTable(kLargeManifests);
  return *table;
}

double PeakRssMiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// What the plan itself holds: its task vector and, per task, the heap blocks its strings and
// vectors own (capacity, not counting malloc's own per-block overhead).
double PlanMiB(const ScanPlan& plan) {
  size_t bytes = plan.tasks.capacity() * sizeof(FileScanTask);
  for (const FileScanTask& t : plan.tasks) {
    const DataFile& f = t.file;
    if (f.file_path.capacity() > 15) bytes += f.file_path.capacity() + 1;
    bytes += f.partition.capacity() * sizeof(Literal);
    if (f.split_offsets.capacity() > 1) bytes += f.split_offsets.capacity() * sizeof(int64_t);  // one is inline
    bytes += t.deletes.capacity() * sizeof(ManifestEntry);
  }
  return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

void ReadBytes(benchmark::State& state, int manifests, BenchTable& t = Table()) {
  const int total = static_cast<int>(t.manifest_paths.size());
  int64_t bytes = 0;
  for (auto _ : state) {
    bytes = 0;
    auto list = t.io.ReadAll(t.list_path);
    bytes += list->size();
    for (int i = 0; i < manifests; ++i) {
      auto m = t.io.ReadAll(t.manifest_paths[(total / 2 + i) % total]);
      bytes += m->size();
      benchmark::DoNotOptimize(m->data());
    }
  }
  state.counters["manifests_opened"] = manifests;
  state.counters["bytes"] = static_cast<double>(bytes);
}

void BM_RawRead_AllManifests(benchmark::State& state) { ReadBytes(state, kManifests); }
void BM_RawRead_OneDayManifests(benchmark::State& state) { ReadBytes(state, 1); }
void BM_RawRead1500k_AllManifests(benchmark::State& state) { ReadBytes(state, kLargeManifests, LargeTable()); }

// state.range(0): planning threads (1 = single-threaded, 0 = one per core).
void PlanOn(BenchTable& t, benchmark::State& state, const std::string& filter, size_t expected_tasks, bool keep_stats) {
  ScanOptions o;
  o.filter_text = filter;
  o.planning_threads = static_cast<int>(state.range(0));
  o.include_column_stats = keep_stats;
  PlanStats stats;
  double plan_mib = 0;
  double rss_before = PeakRssMiB();
  for (auto _ : state) {
    auto plan = PlanScan(t.io, t.table, o);
    if (!plan || plan->tasks.size() != expected_tasks) {
      state.SkipWithError(plan ? "unexpected task count" : plan.error().message.c_str());
      return;
    }
    stats = plan->stats;
    benchmark::DoNotOptimize(plan->tasks.data());
    if (plan_mib == 0) {
      state.PauseTiming();
      plan_mib = PlanMiB(*plan);
      state.ResumeTiming();
    }
  }
  state.counters["manifests_opened"] = stats.manifests_opened;
  state.counters["tasks"] = static_cast<double>(stats.tasks);
  state.counters["plan_MB"] = plan_mib;
  state.counters["peak_rss_growth_MB"] = PeakRssMiB() - rss_before;
}

void Plan(benchmark::State& state, const std::string& filter, size_t expected_tasks, bool keep_stats = true) {
  PlanOn(Table(), state, filter, expected_tasks, keep_stats);
}

void PlanLarge(benchmark::State& state, const std::string& filter, size_t expected_tasks, bool keep_stats = true) {
  PlanOn(LargeTable(), state, filter, expected_tasks, keep_stats);
}

void BM_Plan_OneDay(benchmark::State& state) { Plan(state, "day = '2025-06-01'", kFilesPerManifest); }
void BM_Plan_Unfiltered(benchmark::State& state) { Plan(state, "", kManifests * kFilesPerManifest); }
void BM_Plan_UnfilteredNoStats(benchmark::State& state) { Plan(state, "", kManifests * kFilesPerManifest, false); }
void BM_Plan_IdFilter(benchmark::State& state) { Plan(state, "id = 123456789", 1); }
void BM_Plan1500k_OneDay(benchmark::State& state) { PlanLarge(state, "day = '2025-06-01'", kFilesPerManifest); }
void BM_Plan1500k_UnfilteredNoStats(benchmark::State& state) {
  PlanLarge(state, "", size_t{kLargeManifests} * kFilesPerManifest, false);
}
void BM_Plan1500k_IdFilter(benchmark::State& state) { PlanLarge(state, "id = 123456789", 1); }

BENCHMARK(BM_RawRead_OneDayManifests)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Plan_OneDay)->Arg(1)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_RawRead_AllManifests)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Plan_Unfiltered)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Plan_UnfilteredNoStats)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Plan_IdFilter)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_RawRead1500k_AllManifests)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Plan1500k_OneDay)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Plan1500k_UnfilteredNoStats)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Plan1500k_IdFilter)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace floe

BENCHMARK_MAIN();
