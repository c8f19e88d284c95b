// ReadTask and ReadTable (table_scan.h).
#include <algorithm>
#include <set>
#include <thread>

#include "expr/metrics_evaluator.h"
#include "expr/row_evaluator.h"
#include "io/s3_client.h"
#include "meta/row_lineage.h"
#include "parquet/row_group_stream.h"
#include "scan/delete_loader.h"
#include "scan/file_source.h"
#include "scan/ordered_reads.h"
#include "scan/table_scan.h"
#include "scan/task_stream.h"
#include "types/field_defaults.h"

namespace floe {

namespace {

constexpr int64_t kStreamBatchRows = int64_t{1} << 16;  // rows a streamed read decodes per batch

bool TypeHolds(const Type& type, int id) {
  for (const auto& f : type.fields())
    if (f.id == id || (f.type->is_nested() && TypeHolds(*f.type, id))) return true;
  return false;
}

// The top-level field of `schema` that is or holds `id`.
const NestedField* TopLevelOf(const Schema& schema, int id) {
  for (const auto& f : schema.fields())
    if (f.id == id || (f.type->is_nested() && TypeHolds(*f.type, id))) return &f;
  return nullptr;
}

const NestedField* TopLevelInTable(const TableMetadata& table, int id) {
  if (const NestedField* f = TopLevelOf(table.CurrentSchema(), id)) return f;
  for (auto it = table.schemas.rbegin(); it != table.schemas.rend(); ++it)
    if (const NestedField* f = TopLevelOf(*it, id)) return f;
  return nullptr;
}

// The fields to read from the file: the projection, plus whatever the residual and the
// equality deletes need. A struct the projection prunes is read whole when an extra column
// lies inside it.
Result<std::vector<NestedField>> ReadFields(const TableMetadata& table, const FileScanTask& task, const Schema& projection) {
  std::vector<NestedField> fields = projection.fields();
  std::set<int> needed;
  if (task.residual && task.residual->op() != Op::kTrue)
    for (int id : ReferencedFieldIds(task.residual)) needed.insert(id);
  for (const ManifestEntry& d : task.deletes)
    if (d.file.content == FileContent::kEqualityDeletes) needed.insert(d.file.equality_ids.begin(), d.file.equality_ids.end());
  for (int id : needed) {
    bool have = false;
    for (const auto& f : fields) have |= f.id == id || (f.type->is_nested() && TypeHolds(*f.type, id));
    if (have) continue;
    const NestedField* top = TopLevelOf(projection, id);
    if (!top) top = TopLevelInTable(table, id);
    if (!top) return Corrupt("data file " + task.file.file_path + ": no schema of the table has field id " + std::to_string(id));
    auto same = std::find_if(fields.begin(), fields.end(), [&](const NestedField& f) { return f.id == top->id; });
    if (same != fields.end()) {
      *same = *top;  // the projection pruned this struct; read all of it
    } else {
      fields.push_back(*top);
    }
  }
  return fields;
}

// Whether the file has a top-level column for `field` (by field id, or by name in a file
// written without ids, as the Parquet reader matches).
bool FileHasColumn(const parquet::ParquetFile& file, const NestedField& field) {
  const auto& children = file.file_schema().root.children;
  bool ids = std::any_of(children.begin(), children.end(), [](const parquet::SchemaNode& n) { return n.field_id() >= 0; });
  for (const auto& c : children)
    if (ids ? c.field_id() == field.id : c.element.name == field.name) return true;
  return false;
}

// The identity partition value for a source column, when the task's spec has one.
const Literal* IdentityPartitionValue(const TableMetadata& table, const DataFile& file, int source_id) {
  const PartitionSpec* spec = table.SpecById(file.spec_id);
  if (!spec) return nullptr;
  for (size_t i = 0; i < spec->fields().size() && i < file.partition.size(); ++i) {
    const PartitionField& pf = spec->fields()[i];
    if (pf.source_id == source_id && pf.transform.kind() == TransformKind::kIdentity) return &file.partition[i];
  }
  return nullptr;
}

Result<Column> ConstantColumn(const NestedField& field, const Literal& value, size_t rows) {
  Column c(field.type);
  c.Reserve(rows);
  for (size_t r = 0; r < rows; ++r) {
    auto st = c.Append(value);
    if (!st) return std::unexpected(st.error().WithContext("partition value of column '" + field.name + "'"));
  }
  return c;
}

// A column shaped like `out` (a possibly pruned version of the field `in` was read as).
Column ProjectColumn(const Column& in, const NestedField& in_field, const NestedField& out_field) {
  if (in_field.type->is_primitive() || in_field.type->Equals(*out_field.type)) return in;
  if (in_field.type->id() == TypeId::kList || in_field.type->id() == TypeId::kMap) {
    // Same rows and offsets; the element (a map's value) projected in turn.
    Column out = in;
    out.type = out_field.type;
    const size_t last = in.children.size() - 1;
    out.children[last] = ProjectColumn(in.children[last], in_field.type->fields()[last], out_field.type->fields()[last]);
    return out;
  }
  Column out(out_field.type);
  out.length = in.length;
  out.nulls = in.nulls;
  const auto& in_children = in_field.type->fields();
  const auto& out_children = out_field.type->fields();
  for (size_t k = 0; k < out_children.size(); ++k) {
    for (size_t j = 0; j < in_children.size(); ++j)
      if (in_children[j].id == out_children[k].id)
        out.children[k] = ProjectColumn(in.children[j], in_children[j], out_children[k]);
  }
  return out;
}

parquet::RowGroupFilter MakeRowGroupFilter(const Expr& residual, const std::set<int>& present_ids) {
  if (!residual || residual->op() == Op::kTrue) return nullptr;
  return [residual, present_ids](const parquet::RowGroupStatistics& stats) {
    FileMetrics m;
    m.record_count = stats.num_rows;
    for (const auto& [id, c] : stats.columns) {
      if (!present_ids.count(id)) continue;  // a column filled in later: its nulls prove nothing
      m.value_counts[id] = c.value_count;
      if (c.null_count) m.null_value_counts[id] = *c.null_count;
      if (!c.min.is_null() && !c.max.is_null()) {
        auto lo = c.min.ToBinary();
        auto hi = c.max.ToBinary();
        if (lo && hi) {
          m.lower_bounds[id] = *lo;
          m.upper_bounds[id] = *hi;
        }
      }
    }
    return InclusiveMetrics(residual, m);
  };
}

void CollectIds(const Type& type, std::set<int>* ids) {
  for (const auto& f : type.fields()) {
    ids->insert(f.id);
    if (f.type->is_nested()) CollectIds(*f.type, ids);
  }
}

// Row lineage (meta/row_lineage.h): a `_row_id` or `_last_updated_sequence_number` value the
// file does not store (null, or no such column) is inherited: the file's first_row_id plus the
// row's position, and the file's data sequence number. `start` is the file position of the
// batch's first row (its rows are contiguous). A file without a first_row_id (written before
// the table was upgraded, and not since listed by a format 3 snapshot) has null row ids.
void InheritRowLineage(Column& column, int field_id, const FileScanTask& task, int64_t start, size_t rows) {
  const bool row_id = field_id == kRowIdFieldId;
  if (row_id && !task.file.first_row_id) return;
  const bool stored = column.length == rows && !column.longs.empty();
  Column out(Type::Long());
  out.length = rows;
  out.longs.resize(rows);
  for (size_t r = 0; r < rows; ++r) {
    if (stored && !column.IsNull(r)) {
      out.longs[r] = column.longs[r];
    } else {
      out.longs[r] = row_id ? *task.file.first_row_id + start + static_cast<int64_t>(r) : task.data_sequence_number;
    }
  }
  column = std::move(out);
}

// How ReadBatches reads a task's row groups.
struct BatchReading {
  std::vector<int64_t>* positions = nullptr;  // when given, receives each returned row's file position
  int64_t max_rows = -1;  // >= 0: only the first that many rows, no row group (for flat columns no page) past them
  // Flat columns are decoded a few pages at a time (RowGroupStream) instead of a row group at
  // once, so that memory holds a batch, not a row group. A limited read always streams.
  bool stream_pages = false;
  // The file positions to read and the deletes already loaded (TaskRows, task_stream.h).
  TaskRows rows{};
};

// Whether the row group of file positions [first, first + rows) is read by a read of `range`:
// streamed, the part of it inside the range; read whole, when its first row is inside (a row
// group that cannot be streamed is not split).
bool HoldsRowGroupStart(const TaskRows& range, int64_t first) {
  return first >= range.row_begin && (range.row_end < 0 || first < range.row_end);
}

// The task's rows, deletes and residual applied, in the projection's shape, to `emit` one
// non-empty batch at a time in file order; `emit` returning false stops the read.
Status ReadBatches(FileIO& io, const TableMetadata& table, const FileScanTask& task, const Schema& projection,
                   DeleteFileCache* cache, const BatchReading& how, const std::function<bool(ColumnBatch&&)>& emit) {
  std::vector<int64_t>* positions = how.positions;
  const int64_t max_rows = how.max_rows;
  const DataFile& file = task.file;
  if (file.content != FileContent::kData) return InvalidArgument("scan task file " + file.file_path + " is not a data file");
  if (file.file_format != FileFormat::kParquet)
    return NotSupported("data file " + file.file_path + " is " + std::string(FileFormatName(file.file_format)) +
                        "; only Parquet data files can be read");

  FLOE_ASSIGN_OR_RETURN(std::vector<NestedField> read_fields, ReadFields(table, task, projection));
  Schema read_schema(projection.schema_id(), read_fields);
  FLOE_ASSIGN_OR_RETURN(auto pq, OpenParquetFile(io, file.file_path));

  // Columns the file lacks: an identity partition value, else the field's initial-default
  // (format 3: what rows written before the field existed read as), else null.
  std::vector<std::optional<Literal>> constants(read_fields.size());
  std::set<int> present_ids;
  for (size_t i = 0; i < read_fields.size(); ++i) {
    const NestedField& f = read_fields[i];
    if (FileHasColumn(*pq, f)) {
      present_ids.insert(f.id);
      if (f.type->is_nested()) CollectIds(*f.type, &present_ids);
      continue;
    }
    auto initial = InitialDefault(f);
    if (!initial) return std::unexpected(initial.error().WithContext("reading data file " + file.file_path));
    if (const Literal* v = IdentityPartitionValue(table, file, f.id)) {
      constants[i] = *v;
    } else if (*initial) {
      constants[i] = std::move(**initial);
    } else if (f.required) {
      return Corrupt("data file " + file.file_path + " lacks required column '" + f.name + "' (field id " +
                     std::to_string(f.id) + ")");
    }
  }

  TaskDeletes loaded;
  if (!how.rows.deletes) {
    FLOE_ASSIGN_OR_RETURN(loaded, LoadTaskDeletes(io, table, task, cache));
  }
  const TaskDeletes& deletes = how.rows.deletes ? *how.rows.deletes : loaded;
  bool has_residual = task.residual && task.residual->op() != Op::kTrue;
  parquet::RowGroupFilter row_group_filter = MakeRowGroupFilter(task.residual, present_ids);
  // An `=` / IN conjunct of the residual is evaluated inside the Parquet reader (on
  // dictionary ids, page by page) when no delete needs the rows' file positions; the whole
  // residual is still evaluated on the rows it keeps.
  // Inherited row lineage needs each row's file position: batches of contiguous rows.
  const bool lineage = std::any_of(read_fields.begin(), read_fields.end(),
                                   [](const NestedField& f) { return IsRowLineageField(f.id); });
  std::optional<parquet::ValuePredicate> pushdown;
  if (has_residual && !positions && !lineage && deletes.empty() && parquet::RowGroupStream::CanStream(read_schema)) {
    pushdown = parquet::PushdownPredicate(task.residual, read_schema);
    if (pushdown && !present_ids.count(pushdown->field.id)) pushdown.reset();
  }

  // One batch of the file's rows, `start` the file position of its first (rows contiguous):
  // deletes and the residual applied, then shaped to the projection and emitted.
  int64_t returned = 0;  // rows emitted
  bool stopped = false;  // emit said stop
  auto take = [&](ColumnBatch&& batch, int64_t start) -> Status {
    for (size_t i = 0; i < constants.size(); ++i) {
      if (!constants[i]) continue;
      FLOE_ASSIGN_OR_RETURN(batch.columns[i], ConstantColumn(read_fields[i], *constants[i], batch.num_rows));
    }
    if (lineage)
      for (size_t i = 0; i < read_fields.size(); ++i)
        if (IsRowLineageField(read_fields[i].id))
          InheritRowLineage(batch.columns[i], read_fields[i].id, task, start, batch.num_rows);

    std::vector<uint8_t> keep(batch.num_rows, 1);
    if (!deletes.positions.empty()) deletes.positions.Apply(start, &keep);
    for (const auto& eq : deletes.equality) FLOE_RETURN_IF_ERROR(eq.Apply(batch, &keep));
    if (has_residual) {
      auto match = EvaluateRows(task.residual, batch);
      if (!match) return std::unexpected(match.error().WithContext("filtering data file " + file.file_path));
      for (size_t r = 0; r < keep.size(); ++r) keep[r] &= (*match)[r];
    }
    if (max_rows >= 0) {  // rows past the limit are not returned
      int64_t room = max_rows - returned;
      for (size_t r = 0; r < keep.size(); ++r)
        if (keep[r] && room-- <= 0) keep[r] = 0;
    }
    if (positions)
      for (size_t r = 0; r < keep.size(); ++r)
        if (keep[r]) positions->push_back(start + static_cast<int64_t>(r));
    bool all = std::all_of(keep.begin(), keep.end(), [](uint8_t k) { return k != 0; });
    ColumnBatch kept = all ? std::move(batch) : batch.Filter(keep);

    // Into the projection's shape: drop the extra columns, prune structs.
    ColumnBatch shaped(projection.fields());
    shaped.num_rows = kept.num_rows;
    for (size_t i = 0; i < projection.fields().size(); ++i) {
      const NestedField& want = projection.fields()[i];
      int index = kept.ColumnIndexById(want.id);
      Column& column = kept.columns[index];  // each projected field is read once: moved, not copied
      const bool pruned = kept.fields[index].type->is_nested() && !kept.fields[index].type->Equals(*want.type);
      shaped.columns[i] = pruned ? ProjectColumn(column, kept.fields[index], want) : std::move(column);
    }
    if (shaped.num_rows == 0) return Ok();
    returned += static_cast<int64_t>(shaped.num_rows);
    stopped = !emit(std::move(shaped));
    return Ok();
  };
  auto have_enough = [&] { return stopped || (max_rows >= 0 && returned >= max_rows); };
  // A limited read of flat columns streams each row group a few pages at a time and stops as
  // soon as it has its rows; with nothing to drop rows (no residual, no deletes) it does not
  // even decode the pages past the rows it needs.
  const bool stream = (max_rows >= 0 || how.stream_pages) && parquet::RowGroupStream::CanStream(read_schema);

  // The row groups this task reads: those its range covers whose statistics may hold a match.
  // A limited read checks the statistics as it comes to each row group, so that it looks at
  // none past the rows it needs.
  const bool filter_first = max_rows < 0;
  struct Group {
    int rg;
    int64_t start;   // file position of the row group's first row
    int64_t lo, hi;  // the rows of it the range covers, counted from its first row
  };
  const TaskRows& range = how.rows;
  std::vector<Group> groups;
  int64_t first_position = 0;
  for (int rg = 0; rg < pq->num_row_groups(); ++rg) {
    int64_t rg_rows = pq->metadata().row_groups[rg].num_rows;
    int64_t start = first_position;
    first_position += rg_rows;
    int64_t lo = std::clamp<int64_t>(range.row_begin - start, 0, rg_rows);
    int64_t hi = range.row_end < 0 ? rg_rows : std::clamp<int64_t>(range.row_end - start, 0, rg_rows);
    if (stream ? lo >= hi : !HoldsRowGroupStart(range, start)) continue;
    if (row_group_filter && filter_first) {
      FLOE_ASSIGN_OR_RETURN(auto stats, pq->Statistics(rg, read_schema));
      if (!row_group_filter(stats)) continue;
    }
    groups.push_back(Group{rg, start, lo, hi});
  }
  // A read of every row (no limit) takes all those chunks: announced together, an object store
  // fetches them in one request (io/s3_input_file.h) instead of one or more per row group. A
  // limited read may stop after its first rows, so it announces each row group as it comes.
  std::vector<NestedField> chunk_fields = read_schema.fields();  // the columns whose chunks are read
  if (pushdown) chunk_fields.push_back(pushdown->field);
  if (filter_first && !groups.empty()) {
    std::vector<int> rgs;
    for (const Group& g : groups) rgs.push_back(g.rg);
    const std::vector<NestedField>& fields = chunk_fields;
    auto announced = pq->WillReadRowGroups(rgs, fields);
    if (!announced) return std::unexpected(announced.error().WithContext("reading data file " + file.file_path));
  }
  for (const Group& group : groups) {
    if (have_enough()) break;
    const int rg = group.rg;
    const int64_t start = group.start, lo = group.lo, hi = group.hi;
    if (row_group_filter && !filter_first) {
      FLOE_ASSIGN_OR_RETURN(auto stats, pq->Statistics(rg, read_schema));
      if (!row_group_filter(stats)) continue;
    }
    if (stream) {
      parquet::StreamOptions so;
      so.predicate = pushdown;
      so.row_begin = lo;
      so.row_end = hi;
      const bool exact = !has_residual && deletes.empty();
      if (max_rows >= 0) {
        int64_t need = max_rows - returned;
        if (exact) so.row_end = std::min(hi, lo + need);
        so.batch_rows = static_cast<size_t>(std::clamp<int64_t>(need, 1024, kStreamBatchRows));
      } else {
        so.batch_rows = kStreamBatchRows;
      }
      {
        auto opened = parquet::RowGroupStream::Open(pq, rg, read_schema, so);
        if (!opened) return std::unexpected(opened.error().WithContext("reading data file " + file.file_path));
        ColumnBatch batch(read_schema.fields());
        std::vector<int64_t> rows;
        while (!have_enough()) {
          auto more = (*opened)->Next(&batch, &rows);
          if (!more) return std::unexpected(more.error().WithContext("reading data file " + file.file_path));
          if (!*more) break;
          // Without a pushed-down predicate a batch's rows are contiguous; with one, no delete
          // needs positions and `positions` is null, so `start` only has to be right without.
          int64_t batch_start = start + (rows.empty() ? 0 : rows.front());
          FLOE_RETURN_IF_ERROR(take(std::move(batch), batch_start));
          batch = ColumnBatch(read_schema.fields());
        }
      }  // the stream, which views the chunks, ends here
    } else {
      auto read =
          pushdown ? parquet::ReadRowGroupWhere(pq, rg, read_schema, *pushdown) : pq->ReadRowGroup(rg, read_schema);
      if (!read) return std::unexpected(read.error().WithContext("reading data file " + file.file_path));
      FLOE_RETURN_IF_ERROR(take(std::move(*read), start));
    }
    // The group's rows are in batches of their own: its chunks' bytes can go (on S3 the reader
    // then holds about one row group at a time, io/s3_streamed_read.h).
    pq->DoneReadingRowGroup(rg, chunk_fields);
  }
  return Ok();
}

// The task's rows as one batch.
Result<ColumnBatch> ReadTaskCached(FileIO& io, const TableMetadata& table, const FileScanTask& task,
                                   const Schema& projection, DeleteFileCache* cache,
                                   std::vector<int64_t>* positions = nullptr, int64_t max_rows = -1) {
  ColumnBatch out(projection.fields());
  FLOE_RETURN_IF_ERROR(ReadBatches(io, table, task, projection, cache, {.positions = positions, .max_rows = max_rows},
                                   [&](ColumnBatch&& rows) {
                                     if (out.num_rows == 0) {
                                       out = std::move(rows);
                                     } else {
                                       out.Append(rows);
                                     }
                                     return true;
                                   }));
  return out;
}

}  // namespace

Status ReadTaskBatches(FileIO& io, const TableMetadata& table, const FileScanTask& task, const Schema& projection,
                       DeleteFileCache* cache, int64_t max_rows, const std::function<bool(ColumnBatch&&)>& emit,
                       const TaskRows& rows) {
  return ReadBatches(io, table, task, projection, cache, {.max_rows = max_rows, .stream_pages = true, .rows = rows},
                     emit);
}

Result<ColumnBatch> ReadTask(FileIO& io, const TableMetadata& table, const FileScanTask& task, const Schema& projection) {
  return ReadTaskCached(io, table, task, projection, nullptr);
}

Result<ColumnBatch> ReadTaskWithPositions(FileIO& io, const TableMetadata& table, const FileScanTask& task,
                                          const Schema& projection, std::vector<int64_t>* positions) {
  positions->clear();
  return ReadTaskCached(io, table, task, projection, nullptr, positions);
}

int ScanParallelism(int requested, std::string_view path) {
  if (requested > 0) return requested;
  // An object store answers in round trips, not CPU: keep several requests in flight. A local
  // disk is CPU-bound decoding: one reader per core.
  if (IsS3Uri(path)) return kRemoteScanParallelism;
  unsigned cores = std::thread::hardware_concurrency();
  return static_cast<int>(std::clamp(cores, 1u, static_cast<unsigned>(kRemoteScanParallelism)));
}

Status ReadTasks(FileIO& io, const TableMetadata& table, const ScanPlan& plan, int parallelism,
                 const TaskRowsConsumer& consume) {
  const std::vector<FileScanTask>& tasks = plan.tasks;
  if (tasks.empty()) return Ok();
  DeleteFileCache cache;  // thread-safe: tasks read at once share a delete file's rows
  auto read = [&](size_t i, int64_t max_rows) -> Result<ColumnBatch> {
    const std::string& path = tasks[i].file.file_path;
    auto rows = ReadTaskCached(io, table, tasks[i], plan.projection, &cache, nullptr, max_rows);
    if (!rows && rows.error().message.find(path) == std::string::npos)
      return std::unexpected(rows.error().WithContext("reading data file " + path));
    return rows;
  };
  if (plan.limit) {
    // A limited scan reads one task at a time, each for the rows still missing: reading ahead
    // would read files the limit never reaches.
    int64_t left = *plan.limit;
    for (size_t i = 0; i < tasks.size() && left > 0; ++i) {
      FLOE_ASSIGN_OR_RETURN(ColumnBatch rows, read(i, left));
      left -= static_cast<int64_t>(rows.num_rows);
      FLOE_ASSIGN_OR_RETURN(bool more, consume(i, std::move(rows)));
      if (!more) break;
    }
    return Ok();
  }
  int workers = ScanParallelism(parallelism, tasks.front().file.file_path);
  return OrderedReads<ColumnBatch>(
      tasks.size(), {.workers = workers, .window = static_cast<size_t>(workers)},
      [&](size_t i) { return read(i, -1); }, consume);
}

Result<ColumnBatch> ReadTable(FileIO& io, const TableMetadata& table, const ScanOptions& options) {
  FLOE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(io, table, options));
  ColumnBatch out(plan.projection.fields());
  FLOE_RETURN_IF_ERROR(ReadTasks(io, table, plan, options.read_parallelism,
                                 [&](size_t, ColumnBatch&& batch) -> Result<bool> {
                                   if (batch.num_rows == 0) return true;
                                   if (out.num_rows == 0) {
                                     out = std::move(batch);
                                   } else {
                                     out.Append(batch);
                                   }
                                   return true;
                                 }));
  return out;
}

}  // namespace floe
