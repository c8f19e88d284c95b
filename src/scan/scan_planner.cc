// PlanScan and PlanFiles (table_scan.h).
//
// Phases: read the manifest list; choose the manifests to open (partition summaries); read the
// delete manifests and index their live entries; then read the data manifests, turning each
// surviving entry straight into a task. Manifests are read by a few threads; results are put
// together in manifest-list order, so a plan does not depend on thread timing. An unfiltered
// plan (every live entry a task) is sized up front from the manifest list's file counts and
// each entry is decoded in its place in the plan: no per-manifest vector copied afterwards.
#include <algorithm>
#include <atomic>
#include <numeric>
#include <thread>
#include <unordered_map>

#include "avro/manifest_reader.h"
#include "expr/binder.h"
#include "expr/metrics_evaluator.h"
#include "expr/parser.h"
#include "expr/projection.h"
#include "meta/data_file_metrics.h"
#include "scan/delete_index.h"
#include "scan/manifest_evaluator.h"
#include "scan/partition_key.h"
#include "scan/snapshot_selection.h"
#include "scan/table_scan.h"
#include "table_files/manifest_io.h"

namespace floe {

namespace {

// What planning needs per partition spec, computed once per spec id before any thread starts.
struct SpecFilter {
  const PartitionSpec* spec = nullptr;
  Expr projected;  // the filter projected inclusively onto the spec's partition tuples
  std::optional<ManifestEvaluator> manifests;
  bool partition_decides_nothing = false;  // projection is True: skip per-file partition checks
};

Result<Expr> BuildFilter(const ScanOptions& options, const Schema& schema) {
  Expr filter = options.filter ? options.filter : True();
  if (!options.filter_text.empty()) {
    auto parsed = ParseFilter(options.filter_text);
    if (!parsed) return std::unexpected(parsed.error().WithContext("filter '" + options.filter_text + "'"));
    filter = And(*parsed, filter);
  }
  if (filter->op() == Op::kTrue) return filter;
  return Bind(filter, schema, options.case_sensitive);
}

void DropStats(DataFile* f) {
  f->column_sizes.clear();
  f->value_counts.clear();
  f->null_value_counts.clear();
  f->nan_value_counts.clear();
  f->lower_bounds.clear();
  f->upper_bounds.clear();
}

// InclusiveMetrics on the file's metrics, lent to the evaluator and handed back rather than
// copied (MetricsOf): a pruned plan asks this of every entry.
bool MightMatchByMetrics(const Expr& filter, DataFile* f) {
  FileMetrics m;
  m.record_count = f->record_count;
  m.value_counts = std::move(f->value_counts);
  m.null_value_counts = std::move(f->null_value_counts);
  m.nan_value_counts = std::move(f->nan_value_counts);
  m.lower_bounds = std::move(f->lower_bounds);
  m.upper_bounds = std::move(f->upper_bounds);
  bool might = InclusiveMetrics(filter, m);
  f->value_counts = std::move(m.value_counts);
  f->null_value_counts = std::move(m.null_value_counts);
  f->nan_value_counts = std::move(m.nan_value_counts);
  f->lower_bounds = std::move(m.lower_bounds);
  f->upper_bounds = std::move(m.upper_bounds);
  return might;
}

// Runs fn(index, worker) for index in [0, n) on up to `threads` threads; the error of the
// lowest failing index wins, so failures are reported deterministically too. The calling
// thread (worker 0) runs `first()` before it takes any index, while the others already work.
template <typename Fn, typename First>
Status ParallelFor(size_t n, int threads, Fn fn, First first) {
  std::vector<Status> results(n);
  std::atomic<size_t> next{0};
  auto work = [&](int worker) {
    for (size_t i = next++; i < n; i = next++) results[i] = fn(i, worker);
  };
  int count = static_cast<int>(std::min<size_t>(n, static_cast<size_t>(std::max(threads, 1))));
  if (count <= 1) {
    first();
    work(0);
  } else {
    std::vector<std::thread> pool;
    for (int w = 1; w < count; ++w) pool.emplace_back(work, w);
    first();
    work(0);
    for (auto& t : pool) t.join();
  }
  for (auto& r : results)
    if (!r) return r;
  return Ok();
}

template <typename Fn>
Status ParallelFor(size_t n, int threads, Fn fn) {
  return ParallelFor(n, threads, fn, [] {});
}

// Builds the default tasks of a plan sized up front, in order, while other threads already
// decode into the ones built: a plan of a million files is hundreds of megabytes of fresh
// pages, and faulting them in on one thread before any decoding starts was a third of the
// plan. Elements are appended into reserved capacity, so none moves; a reader waits (Await)
// until the range it writes has been built.
class TaskBuilder {
 public:
  TaskBuilder(std::vector<FileScanTask>* tasks, size_t total) : tasks_(tasks), total_(total) { tasks_->reserve(total); }
  // Called by one thread.
  void BuildAll() {
    while (tasks_->size() < total_) {
      size_t end = std::min(total_, tasks_->size() + kStep);
      while (tasks_->size() < end) tasks_->emplace_back();
      built_.store(end, std::memory_order_release);
      built_.notify_all();
    }
  }
  // Returns once tasks [0, end) exist.
  void Await(size_t end) const {
    for (size_t b = built_.load(std::memory_order_acquire); b < end; b = built_.load(std::memory_order_acquire)) {
      built_.wait(b, std::memory_order_acquire);
    }
  }

 private:
  static constexpr size_t kStep = 2048;
  std::vector<FileScanTask>* tasks_;
  size_t total_;
  std::atomic<size_t> built_{0};
};

// Where a limited plan may stop: after the first task by which the tasks so far certainly
// hold `limit` rows. A task certainly holds its record count when no delete applies and its
// partition decides the whole filter (residual True); any other task may hold none.
class LimitCutoff {
 public:
  explicit LimitCutoff(int64_t limit) : left_(limit) {}
  bool reached() const { return left_ <= 0; }
  // Counts the next manifest's tasks, dropping those after the cutoff.
  void Add(std::vector<FileScanTask>* tasks) {
    for (size_t i = 0; i < tasks->size(); ++i) {
      if (reached()) {
        tasks->resize(i);
        return;
      }
      const FileScanTask& t = (*tasks)[i];
      if (t.deletes.empty() && t.residual->op() == Op::kTrue) left_ -= t.file.record_count;
    }
  }

 private:
  int64_t left_;
};

// Where one manifest's tasks go in a plan sized up front from the manifest list's counts:
// plan.tasks[first, first + count), then `overflow` if the manifest holds more live entries
// than its list entry says.
struct TaskSlots {
  size_t first = 0, count = 0, used = 0;
  std::vector<FileScanTask> overflow;
};

// A manifest list whose counts claim more files than this is not trusted to size the plan up
// front (a hostile list must not make planning allocate gigabytes before reading anything);
// such plans are put together manifest by manifest instead.
constexpr int64_t kMaxPresizedTasks = int64_t{1} << 21;

// What reading one manifest dropped.
struct ManifestRead {
  int64_t considered = 0, pruned_by_partition = 0, pruned_by_metrics = 0;
};

class Planner {
 public:
  Planner(FileIO& io, const TableMetadata& table, const ScanOptions& options, ScanPlan* plan)
      : io_(io), table_(table), options_(options), plan_(plan) {}

  Status Run(const Snapshot& snapshot) {
    if (plan_->filter->op() != Op::kTrue) filter_field_ids_ = ReferencedFieldIds(plan_->filter);
    FLOE_ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests, ReadManifestList(io_, table_, snapshot));
    PlanStats& stats = plan_->stats;
    if (snapshot.manifest_list.empty()) {
      stats.manifests_opened += static_cast<int>(manifests.size());  // summarized from their bytes
    } else {
      stats.manifest_lists_read = 1;
    }
    stats.manifests_total = static_cast<int>(manifests.size());

    // Which manifests to open. Counts are required from v2 on; v1 lists may lack them.
    bool trust_counts = table_.format_version >= 2 && !snapshot.manifest_list.empty();
    std::vector<const ManifestFile*> data, deletes;
    for (const ManifestFile& m : manifests) {
      if (trust_counts && !m.has_added_files() && !m.has_existing_files()) {
        ++stats.manifests_without_live_files;
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(SpecFilter * sf, ForSpec(m.partition_spec_id));
      if (sf->manifests) {
        FLOE_ASSIGN_OR_RETURN(bool might, sf->manifests->MightMatch(m));
        if (!might) {
          ++stats.manifests_pruned;
          continue;
        }
      }
      (m.content == ManifestContent::kDeletes ? deletes : data).push_back(&m);
    }
    stats.manifests_opened += static_cast<int>(data.size() + deletes.size());
    int threads = ScanParallelism(options_.planning_threads, table_.location);

    // Deletes first: each data entry then becomes a task as soon as it is read.
    std::vector<ManifestRead> delete_reads(deletes.size());
    std::vector<std::vector<ManifestEntry>> delete_lists(deletes.size());
    block_buffers_.resize(static_cast<size_t>(threads));
    FLOE_RETURN_IF_ERROR(ParallelFor(deletes.size(), threads, [&](size_t i, int worker) {
      ManifestEntry scratch;
      return ReadManifest(*deletes[i], worker, &delete_reads[i], [&] { return &scratch.file; },
                          [&](ManifestEntry& e, DataFile& file) -> Status {
                            ManifestEntry& kept = delete_lists[i].emplace_back(std::move(e));
                            kept.file = std::move(file);
                            return Ok();
                          });
    }));
    std::vector<ManifestEntry> delete_entries;
    for (auto& list : delete_lists)
      for (auto& e : list) delete_entries.push_back(std::move(e));
    delete_lists = {};
    stats.delete_files = static_cast<int64_t>(delete_entries.size());
    FLOE_ASSIGN_OR_RETURN(DeleteIndex index, DeleteIndex::Build(table_, std::move(delete_entries)));

    std::vector<ManifestRead> counts(data.size());
    std::vector<std::unordered_map<std::string, Expr>> residual_caches(static_cast<size_t>(threads));
    // What every kept entry becomes, wherever its DataFile was decoded.
    auto fill_task = [&](const ManifestEntry& e, int worker, FileScanTask* task) -> Status {
      task->data_sequence_number = DataSequenceNumber(e);
      if (!index.empty()) task->deletes = index.ForDataFile(task->file, task->data_sequence_number);
      FLOE_ASSIGN_OR_RETURN(task->residual, ResidualFor(task->file, &residual_caches[worker]));
      return Ok();
    };
    size_t read = data.size();
    std::optional<std::vector<TaskSlots>> slots;
    if (!options_.limit && plan_->filter->op() == Op::kTrue && trust_counts) slots = PresizeTasks(data);
    if (slots) {
      // No filter: every live entry is a task and the list's counts say how many each manifest
      // holds, so each entry is decoded straight into its place in the plan. The calling
      // thread builds the places (TaskBuilder) while the others decode into the first ones.
      TaskBuilder builder(&plan_->tasks, presized_);
      FileScanTask* const base = plan_->tasks.data();  // reserved: stays put while being built
      FLOE_RETURN_IF_ERROR(ParallelFor(
          data.size(), threads,
          [&](size_t i, int worker) -> Status {
            TaskSlots& ts = (*slots)[i];
            builder.Await(ts.first + ts.count);
            auto slot = [&]() -> DataFile* {
              if (ts.used < ts.count) return &base[ts.first + ts.used].file;
              return &ts.overflow.emplace_back().file;  // the list undercounted: kept aside, in order
            };
            return ReadManifest(*data[i], worker, &counts[i], slot, [&](ManifestEntry& e, DataFile& file) -> Status {
              FileScanTask* task = ts.used < ts.count ? &base[ts.first + ts.used] : &ts.overflow.back();
              (void)file;  // decoded in place: task->file
              ++ts.used;
              return fill_task(e, worker, task);
            });
          },
          [&] { builder.BuildAll(); }));
      AssembleSlots(&*slots);
    } else {
      std::vector<std::vector<FileScanTask>> tasks(data.size());
      auto read_data = [&](size_t i, int worker) -> Status {
        std::vector<FileScanTask>& out = tasks[i];
        FileScanTask scratch;
        return ReadManifest(*data[i], worker, &counts[i], [&] { return &scratch.file; },
                            [&](ManifestEntry& e, DataFile&) -> Status {
                              FLOE_RETURN_IF_ERROR(fill_task(e, worker, &scratch));
                              out.push_back(std::move(scratch));
                              scratch = FileScanTask();
                              return Ok();
                            });
      };
      // With a limit, manifests are read a few at a time (as many as there are threads) until
      // the tasks planned so far certainly hold the limit's rows.
      if (options_.limit) {
        LimitCutoff cutoff(*options_.limit);
        size_t step = static_cast<size_t>(std::max(threads, 1));
        read = 0;
        while (read < data.size() && !cutoff.reached()) {
          size_t end = std::min(data.size(), read + step);
          FLOE_RETURN_IF_ERROR(ParallelFor(end - read, threads, [&](size_t i, int worker) { return read_data(read + i, worker); }));
          for (; read < end && !cutoff.reached(); ++read) cutoff.Add(&tasks[read]);
        }
      } else {
        FLOE_RETURN_IF_ERROR(ParallelFor(data.size(), threads, read_data));
      }
      size_t total = 0;
      for (size_t i = 0; i < read; ++i) total += tasks[i].size();
      plan_->tasks.reserve(total);
      for (size_t i = 0; i < read; ++i) std::move(tasks[i].begin(), tasks[i].end(), std::back_inserter(plan_->tasks));
    }
    stats.manifests_opened -= static_cast<int>(data.size() - std::min(data.size(), read));
    for (size_t i = 0; i < read; ++i) {
      stats.data_files_considered += counts[i].considered;
      stats.data_files_pruned_by_partition += counts[i].pruned_by_partition;
      stats.data_files_pruned_by_metrics += counts[i].pruned_by_metrics;
    }
    stats.tasks = static_cast<int64_t>(plan_->tasks.size());
    return Ok();
  }

 private:
  Result<SpecFilter*> ForSpec(int spec_id) {
    auto it = specs_.find(spec_id);
    if (it != specs_.end()) return &it->second;
    const PartitionSpec* spec = table_.SpecById(spec_id);
    if (!spec) return Corrupt("a manifest names partition spec " + std::to_string(spec_id) + ", which the table metadata does not have");
    SpecFilter sf;
    sf.spec = spec;
    if (plan_->filter->op() == Op::kTrue) {
      sf.projected = True();
    } else {
      FLOE_ASSIGN_OR_RETURN(sf.projected, ProjectInclusive(plan_->filter, *spec));
    }
    sf.partition_decides_nothing = sf.projected->op() == Op::kTrue;
    if (!sf.partition_decides_nothing) {
      FLOE_ASSIGN_OR_RETURN(TypePtr ptype, PartitionTypeOf(table_, *spec));
      sf.manifests.emplace(sf.projected, ptype);
    }
    return &specs_.emplace(spec_id, std::move(sf)).first->second;
  }

  // Places plan.tasks' ranges for the live files the list counts in `data`, one per manifest,
  // and sets presized_ to their total (TaskBuilder builds them); none when the counts are
  // implausible.
  std::optional<std::vector<TaskSlots>> PresizeTasks(const std::vector<const ManifestFile*>& data) {
    std::vector<TaskSlots> slots(data.size());
    int64_t total = 0;
    for (size_t i = 0; i < data.size(); ++i) {
      int64_t n = int64_t{data[i]->added_files_count} + data[i]->existing_files_count;
      if (data[i]->added_files_count < 0 || data[i]->existing_files_count < 0 || total + n > kMaxPresizedTasks) return std::nullopt;
      slots[i].first = static_cast<size_t>(total);
      slots[i].count = static_cast<size_t>(n);
      total += n;
    }
    presized_ = static_cast<size_t>(total);
    return slots;
  }

  // Closes the gaps a manifest left by holding fewer live entries than counted, and puts the
  // overflow of one holding more after its counted ones: the plan then lists every manifest's
  // tasks in order, as when built manifest by manifest.
  void AssembleSlots(std::vector<TaskSlots>* slots) {
    bool exact = true;
    for (const TaskSlots& ts : *slots) exact = exact && ts.used == ts.count;
    if (exact) return;
    std::vector<FileScanTask> all;
    all.reserve(std::accumulate(slots->begin(), slots->end(), size_t{0}, [](size_t n, const TaskSlots& ts) { return n + ts.used; }));
    for (TaskSlots& ts : *slots) {
      auto begin = plan_->tasks.begin() + static_cast<ptrdiff_t>(ts.first);
      std::move(begin, begin + static_cast<ptrdiff_t>(std::min(ts.used, ts.count)), std::back_inserter(all));
      // The overflow's last element may be a place asked for after the last kept entry.
      size_t extra = ts.used > ts.count ? ts.used - ts.count : 0;
      std::move(ts.overflow.begin(), ts.overflow.begin() + static_cast<ptrdiff_t>(extra), std::back_inserter(all));
    }
    plan_->tasks = std::move(all);
  }

  // Called from worker threads: reads only what ForSpec prepared.
  const SpecFilter* PreparedSpec(int spec_id) const {
    auto it = specs_.find(spec_id);
    return it == specs_.end() ? nullptr : &it->second;
  }

  Result<Expr> ResidualFor(const DataFile& file, std::unordered_map<std::string, Expr>* cache) const {
    const Expr& filter = plan_->filter;
    if (filter->op() == Op::kTrue) return filter;
    const SpecFilter* sf = PreparedSpec(file.spec_id);
    if (!sf) return Corrupt("data file " + file.file_path + " names partition spec " + std::to_string(file.spec_id) +
                            ", unlike its manifest");
    if (sf->spec->fields().empty()) return filter;
    std::string key = PartitionKey(file.spec_id, file.partition);
    auto it = cache->find(key);
    if (it != cache->end()) return it->second;
    FLOE_ASSIGN_OR_RETURN(Expr residual, Residual(filter, *sf->spec, file.partition));
    cache->emplace(std::move(key), residual);
    return residual;
  }

  // Reads one manifest, decoding each entry's data file into slot() (asked again only after an
  // entry was kept, else the same place is reused) and handing each live entry that may match
  // to keep(entry, file), which may move from both. Thread-safe, one thread per `worker`.
  template <typename Slot, typename Keep>
  Status ReadManifest(const ManifestFile& manifest, int worker, ManifestRead* out, Slot slot, Keep keep) const {
    const SpecFilter* sf = PreparedSpec(manifest.partition_spec_id);
    auto bytes = io_.ReadAll(manifest.manifest_path);
    if (!bytes) return std::unexpected(bytes.error().WithContext("reading manifest"));
    ManifestReadOptions options;
    options.manifest = &manifest;
    options.table = &table_;
    options.header_cache = &header_cache_;
    options.block_buffer = &block_buffers_[static_cast<size_t>(worker)];
    bool deletes = manifest.content == ManifestContent::kDeletes;
    bool check_metrics = !deletes && plan_->filter->op() != Op::kTrue;
    // Metrics are most of an entry's decoding: a data manifest decodes those of the filter's
    // columns, and all of them only for the files kept, when the caller asked for them.
    // Delete files keep all: the delete index uses the file_path bounds.
    const bool all_metrics_later = check_metrics && options_.include_column_stats;
    if (check_metrics) {
      options.metric_field_ids = filter_field_ids_;
    } else if (!deletes && !options_.include_column_stats) {
      options.metric_field_ids.emplace();
    }
    FLOE_ASSIGN_OR_RETURN(ManifestReader reader, ManifestReader::Open(*bytes, manifest.manifest_path, options));
    ManifestEntry entry;
    DataFile* file = nullptr;
    while (true) {
      if (!file) file = slot();
      FLOE_ASSIGN_OR_RETURN(bool more, reader.Next(&entry, file));
      if (!more) break;
      if (entry.status == EntryStatus::kDeleted) continue;
      if (deletes != (file->content != FileContent::kData))
        return Corrupt("manifest " + manifest.manifest_path + " mixes data and delete files");
      if (file->spec_id != manifest.partition_spec_id)
        return Corrupt("manifest " + manifest.manifest_path + " of partition spec " +
                       std::to_string(manifest.partition_spec_id) + " lists " + file->file_path + " under spec " +
                       std::to_string(file->spec_id));
      if (!deletes) ++out->considered;
      if (!sf->partition_decides_nothing && !EvaluatePartition(sf->projected, *sf->spec, file->partition)) {
        if (!deletes) ++out->pruned_by_partition;
        continue;
      }
      if (check_metrics && !MightMatchByMetrics(plan_->filter, file)) {
        ++out->pruned_by_metrics;
        continue;
      }
      if (all_metrics_later) {
        FLOE_RETURN_IF_ERROR(reader.ReadAllMetrics(file));
      } else if (!deletes && !options_.include_column_stats) {
        DropStats(file);
      }
      FLOE_RETURN_IF_ERROR(keep(entry, *file));
      file = nullptr;
    }
    return Ok();
  }

  FileIO& io_;
  const TableMetadata& table_;
  const ScanOptions& options_;
  ScanPlan* plan_;
  std::unordered_map<int, SpecFilter> specs_;
  std::vector<int> filter_field_ids_;  // the columns the filter names
  size_t presized_ = 0;               // tasks PresizeTasks placed
  mutable ManifestHeaderCache header_cache_;  // thread-safe: shared by the reading threads
  mutable std::vector<std::string> block_buffers_;  // one per worker: its manifests' blocks
};

}  // namespace

Result<ScanPlan> PlanScan(FileIO& io, const TableMetadata& table, const ScanOptions& options) {
  FLOE_ASSIGN_OR_RETURN(const Snapshot* snapshot, SelectSnapshot(table, options));
  ScanPlan plan;
  plan.schema = ScanSchema(table, snapshot, options);
  FLOE_ASSIGN_OR_RETURN(plan.projection, SelectColumns(plan.schema, options.columns, options.case_sensitive));
  FLOE_ASSIGN_OR_RETURN(plan.filter, BuildFilter(options, plan.schema));
  plan.limit = options.limit;
  if (!snapshot) return plan;
  plan.snapshot_id = snapshot->snapshot_id;
  Planner planner(io, table, options, &plan);
  FLOE_RETURN_IF_ERROR(planner.Run(*snapshot));
  return plan;
}

Result<std::vector<FileScanTask>> PlanFiles(FileIO& io, const TableMetadata& table, const ScanOptions& options) {
  FLOE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(io, table, options));
  return std::move(plan.tasks);
}

}  // namespace floe
