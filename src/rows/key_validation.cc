#include "rows/key_validation.h"

#include <algorithm>
#include <iterator>
#include <map>

#include "expr/row_evaluator.h"
#include "scan/delete_filter.h"
#include "scan/delete_index.h"
#include "scan/delete_loader.h"
#include "scan/file_source.h"
#include "scan/table_scan.h"

namespace floe {
namespace {

constexpr size_t kKeysShown = 10;

// Encodes one value so that two values are equal exactly when their encodings are; lists and
// maps (which AppendValueKey leaves out) by their text.
void AppendAnyValue(const Column& column, size_t row, std::string* out) {
  const TypeId id = column.type->id();
  if (id == TypeId::kList || id == TypeId::kMap) {
    std::string text = column.Get(row).ToString();
    uint32_t n = static_cast<uint32_t>(text.size());
    out->append(reinterpret_cast<const char*>(&n), sizeof n);
    out->append(text);
    return;
  }
  AppendValueKey(column, row, out);
}

// "(5, 2026-01-02)": the values of `columns` at `row`.
std::string Label(const ColumnBatch& batch, const std::vector<int>& columns, size_t row) {
  std::string text;
  for (int c : columns) text += (text.empty() ? "" : ", ") + batch.columns[c].Get(row).ToString();
  return "(" + text + ")";
}

// `fields` of the table (by id, top-level in the current schema) as an all-optional schema;
// nullopt when one is not a top-level column.
std::optional<Schema> TopLevelProjection(const TableMetadata& table, const std::vector<int>& ids) {
  std::vector<NestedField> fields;
  for (int id : ids) {
    const NestedField* found = nullptr;
    for (const auto& f : table.CurrentSchema().fields())
      if (f.id == id) found = &f;
    if (!found) return std::nullopt;
    if (std::none_of(fields.begin(), fields.end(), [&](const NestedField& f) { return f.id == id; }))
      fields.push_back(*found);
  }
  for (auto& f : fields) f.required = false;
  return Schema(0, std::move(fields));
}

Result<ColumnBatch> ReadWhole(FileIO& io, const std::string& path, const Schema& projection) {
  FLOE_ASSIGN_OR_RETURN(auto file, OpenParquetFile(io, path));
  parquet::ReadOptions options;
  options.projection = projection;
  auto batch = parquet::ReadParquetFile(file, options);
  if (!batch) return std::unexpected(batch.error().WithContext("reading " + path + " for the key check"));
  return batch;
}

// Reads the columns `projection` of a data file, every row in file order (no deletes applied).
Result<ColumnBatch> ReadDataColumns(FileIO& io, const TableMetadata& table, const DataFile& file,
                                    const Schema& projection) {
  FileScanTask task;
  task.file = file;
  task.residual = True();
  auto rows = ReadTask(io, table, task, projection);
  if (!rows) return std::unexpected(rows.error().WithContext("key check"));
  return rows;
}

}  // namespace

std::string KeyOfRow(const ColumnBatch& batch, const std::vector<int>& columns, size_t row) {
  std::string key;
  for (int c : columns) AppendValueKey(batch.columns[c], row, &key);
  return key;
}

// The rows of ours one file holds: full-row encodings (to tell a carried-over row from a
// changed one) with their labels. `unjudged` when the cap stopped the check from reading it.
struct RowConflictCheck::Hits {
  std::vector<std::string> rows;
  std::vector<std::string> labels;
  bool unjudged = false;
};

std::optional<JudgedFiles::Verdict> JudgedFiles::Find(int schema_id, const std::string& path) const {
  std::lock_guard lock(mutex_);
  auto it = verdicts_.find(std::to_string(schema_id) + "/" + path);
  if (it == verdicts_.end()) return std::nullopt;
  return it->second;
}

void JudgedFiles::Keep(int schema_id, const std::string& path, Verdict verdict) {
  std::lock_guard lock(mutex_);
  verdicts_.insert_or_assign(std::to_string(schema_id) + "/" + path, std::move(verdict));
}

size_t JudgedFiles::size() const {
  std::lock_guard lock(mutex_);
  return verdicts_.size();
}

std::vector<int> RowConflictCheck::DecidingIds() const {
  return scope_.keyed() ? scope_.key_ids : ReferencedFieldIds(filter_.bound());
}

std::optional<Schema> RowConflictCheck::DecidingProjection(const std::vector<int>& ids) const {
  if (ids.empty()) return table_.CurrentSchema();
  return TopLevelProjection(table_, ids);
}

Result<std::vector<uint8_t>> RowConflictCheck::OursAmong(const ColumnBatch& rows,
                                                        const std::vector<int>& columns) const {
  if (!scope_.keyed()) return EvaluateRows(filter_.bound(), rows);
  std::vector<uint8_t> match(rows.num_rows, 0);
  for (size_t r = 0; r < rows.num_rows; ++r) match[r] = scope_.keys->count(KeyOfRow(rows, columns, r)) > 0;
  return match;
}

bool RowConflictCheck::Charge(const DataFile& file, RowTouch* touch) {
  if (touch->files_read + 1 > scope_.max_files_read ||
      touch->bytes_read + file.file_size_in_bytes > scope_.max_bytes_read) {
    if (touch->gave_up.empty())
      touch->gave_up = "the key check reads at most " + std::to_string(scope_.max_files_read) + " concurrent files or " +
                       std::to_string(scope_.max_bytes_read) + " bytes per validation, and " + file.file_path +
                       " would pass that cap";
    return false;
  }
  touch->files_read += 1;
  touch->bytes_read += file.file_size_in_bytes;
  return true;
}

Result<RowConflictCheck::Hits> RowConflictCheck::RowsOfOurs(FileIO& io, const DataFile& file, RowTouch* touch) {
  FLOE_ASSIGN_OR_RETURN(bool may, filter_.MayMatch(file));
  if (!may) return Hits{};
  const int schema_id = table_.current_schema_id;
  if (auto known = scope_.judged->Find(schema_id, file.file_path)) {
    touch->files_recalled += 1;
    return Hits{std::move(known->rows), std::move(known->labels), false};
  }
  if (!Charge(file, touch)) return Hits{{}, {}, true};
  FLOE_ASSIGN_OR_RETURN(Hits hits, ReadRowsOfOurs(io, file, touch));
  if (!hits.unjudged)
    scope_.judged->Keep(schema_id, file.file_path, JudgedFiles::Verdict{hits.rows, hits.labels, false});
  return hits;
}

Result<RowConflictCheck::Hits> RowConflictCheck::ReadRowsOfOurs(FileIO& io, const DataFile& file, RowTouch* touch) {
  Hits hits;
  // 1. The deciding columns only: the key, or what the filter reads (a filter that reads no
  // column, `true`, makes every row ours: the whole file is read at once).
  std::vector<int> ids = DecidingIds();
  std::optional<Schema> projection = DecidingProjection(ids);
  if (!projection) {
    touch->gave_up = "a key or filter column is not a top-level column";
    hits.unjudged = true;
    return hits;
  }
  FLOE_ASSIGN_OR_RETURN(ColumnBatch deciding, ReadDataColumns(io, table_, file, *projection));
  std::vector<int> columns;
  for (int id : ids) columns.push_back(deciding.ColumnIndexById(id));
  FLOE_ASSIGN_OR_RETURN(std::vector<uint8_t> match, OursAmong(deciding, columns));
  std::vector<size_t> ours;
  for (size_t r = 0; r < match.size(); ++r)
    if (match[r]) ours.push_back(r);
  if (ours.empty()) return hits;
  // 2. Whole rows, only for a file that holds rows of ours.
  FLOE_ASSIGN_OR_RETURN(ColumnBatch whole, ReadDataColumns(io, table_, file, table_.CurrentSchema()));
  if (whole.num_rows != deciding.num_rows)
    return Corrupt("key check: " + file.file_path + " read as " + std::to_string(deciding.num_rows) + " and " +
                   std::to_string(whole.num_rows) + " rows");
  for (size_t r : ours) {
    std::string row;
    for (const Column& c : whole.columns) AppendAnyValue(c, r, &row);
    hits.rows.push_back(std::move(row));
    hits.labels.push_back(Label(deciding, columns, r));
  }
  return hits;
}

Status RowConflictCheck::DeletedByDeleteFile(FileIO& io, const DataFile& del, const std::vector<ManifestEntry>& removed,
                                             RowTouch* touch) {
  FLOE_ASSIGN_OR_RETURN(bool may, filter_.MayMatch(del));
  if (!may) return Ok();
  const int schema_id = table_.current_schema_id;
  // By ContentFileKey: the deletion vectors of one Puffin file share its path.
  const std::string key = ContentFileKey(del);
  std::optional<JudgedFiles::Verdict> verdict = scope_.judged->Find(schema_id, key);
  if (verdict) {
    touch->files_recalled += 1;
  } else {
    FLOE_ASSIGN_OR_RETURN(verdict, JudgeDeleteFile(io, del, removed, touch));
    if (!verdict) {  // judged conservatively: it counts as deleting rows of ours
      touch->deleted_by.push_back(del.file_path);
      return Ok();
    }
    scope_.judged->Keep(schema_id, key, *verdict);
  }
  if (!verdict->deletes_ours) return Ok();
  for (const auto& label : verdict->labels)
    touch->NoteKey(label);
  touch->deleted_by.push_back(del.file_path);
  return Ok();
}

Result<std::optional<JudgedFiles::Verdict>> RowConflictCheck::JudgeDeleteFile(FileIO& io, const DataFile& del,
                                                                              const std::vector<ManifestEntry>& removed,
                                                                              RowTouch* touch) {
  using Answer = std::optional<JudgedFiles::Verdict>;
  auto conservative = [&](const std::string& why) -> Answer {
    if (touch->gave_up.empty()) touch->gave_up = why;
    return std::nullopt;
  };
  if (!Charge(del, touch)) return conservative(touch->gave_up);
  if (del.file_format != FileFormat::kParquet && !IsDeletionVector(del))
    return conservative(del.file_path + " is not Parquet");
  JudgedFiles::Verdict verdict;
  auto note = [&](const ColumnBatch& rows, const std::vector<int>& columns, size_t r) {
    verdict.deletes_ours = true;
    if (verdict.labels.size() < kKeysShown) verdict.labels.push_back(Label(rows, columns, r));
  };

  if (del.content == FileContent::kEqualityDeletes) {
    // Judged when the delete's columns decide our rows: they cover the key (a delete on more
    // columns than the key counts if its key part is ours), or, keyless, the filter's columns.
    std::vector<int> deciding = DecidingIds();
    for (int id : deciding)
      if (std::find(del.equality_ids.begin(), del.equality_ids.end(), id) == del.equality_ids.end())
        return conservative("equality delete " + del.file_path + " is on other columns than the key");
    std::optional<Schema> projection = TopLevelProjection(table_, del.equality_ids);
    if (!projection) return conservative("equality delete " + del.file_path + " is on a nested column");
    FLOE_ASSIGN_OR_RETURN(ColumnBatch rows, ReadWhole(io, del.file_path, *projection));
    std::vector<int> columns;
    for (int id : deciding) columns.push_back(rows.ColumnIndexById(id));
    if (std::find(columns.begin(), columns.end(), -1) != columns.end())
      return conservative("equality delete " + del.file_path + " lacks one of its equality columns");
    FLOE_ASSIGN_OR_RETURN(std::vector<uint8_t> match, OursAmong(rows, columns));
    for (size_t r = 0; r < rows.num_rows; ++r)
      if (match[r]) note(rows, columns, r);
    return verdict;
  }

  // Position deletes: the rows they name, looked up in the data files they point at.
  std::map<std::string, std::vector<int64_t>> by_file;
  if (IsDeletionVector(del)) {
    FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> deleted, ReadDeletionVector(io, del));
    for (const ManifestEntry& old : removed) {
      if (!IsDeletionVector(old.file) || old.file.referenced_data_file != del.referenced_data_file) continue;
      FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> earlier, ReadDeletionVector(io, old.file));
      std::vector<int64_t> fresh;
      std::set_difference(deleted.begin(), deleted.end(), earlier.begin(), earlier.end(), std::back_inserter(fresh));
      deleted = std::move(fresh);
    }
    by_file[*del.referenced_data_file] = std::move(deleted);
  } else {
    static const Schema kPositions(0, {NestedField{kDeleteFilePathFieldId, "file_path", Type::String(), true, ""},
                                       NestedField{kDeletePosFieldId, "pos", Type::Long(), true, ""}});
    FLOE_ASSIGN_OR_RETURN(ColumnBatch positions, ReadWhole(io, del.file_path, kPositions));
    int path_index = positions.ColumnIndexById(kDeleteFilePathFieldId);
    int pos_index = positions.ColumnIndexById(kDeletePosFieldId);
    if (path_index < 0 || pos_index < 0) return conservative(del.file_path + " lacks file_path or pos");
    for (size_t r = 0; r < positions.num_rows; ++r) {
      Literal pos = positions.columns[pos_index].Get(r);
      auto as_long = pos.CastTo(Type::Long());
      if (!as_long) return conservative(del.file_path + " has a pos that is not a long");
      by_file[std::string(positions.columns[path_index].BytesAt(r))].push_back(as_long->AsLong());
    }
  }
  std::vector<int> ids = DecidingIds();
  std::optional<Schema> projection = DecidingProjection(ids);
  if (!projection) return conservative("a key or filter column is not a top-level column");
  for (const auto& [path, rows_deleted] : by_file) {
    DataFile data;  // what the delete says of the file it points at: its path and partition
    data.file_path = path;
    data.content = FileContent::kData;
    data.file_format = FileFormat::kParquet;
    data.spec_id = del.spec_id;
    data.partition = del.partition;
    if (!Charge(data, touch)) return conservative(touch->gave_up);
    FLOE_ASSIGN_OR_RETURN(ColumnBatch rows, ReadDataColumns(io, table_, data, *projection));
    std::vector<int> columns;
    for (int id : ids) columns.push_back(rows.ColumnIndexById(id));
    FLOE_ASSIGN_OR_RETURN(std::vector<uint8_t> match, OursAmong(rows, columns));
    for (int64_t p : rows_deleted)
      if (p >= 0 && static_cast<size_t>(p) < rows.num_rows && match[p]) note(rows, columns, static_cast<size_t>(p));
    if (verdict.deletes_ours) return verdict;
  }
  return verdict;
}

Status RowConflictCheck::Inspect(FileIO& io, const SnapshotChanges& changes, bool added_rows, bool deleted_rows,
                                 RowTouch* touch) {
  if (!added_rows && !deleted_rows) return Ok();
  // Rows of ours, counted +1 where the snapshot added them and -1 where it removed them: a row
  // a rewrite carried over cancels out.
  struct Count {
    int balance = 0;
    std::string label, added_in, removed_in;
  };
  std::map<std::string, Count> balance;
  bool any_added = false;
  for (const auto& e : changes.added_data) {
    FLOE_ASSIGN_OR_RETURN(Hits hits, RowsOfOurs(io, e.file, touch));
    if (hits.unjudged) (added_rows ? touch->added_in : touch->deleted_by).push_back(e.file.file_path);
    for (size_t i = 0; i < hits.rows.size(); ++i) {
      Count& c = balance[hits.rows[i]];
      c.balance += 1;
      c.label = hits.labels[i];
      c.added_in = e.file.file_path;
      any_added = true;
    }
  }
  if (deleted_rows || any_added) {
    for (const auto& e : changes.removed_data) {
      FLOE_ASSIGN_OR_RETURN(Hits hits, RowsOfOurs(io, e.file, touch));
      if (hits.unjudged) (added_rows ? touch->added_in : touch->deleted_by).push_back(e.file.file_path);
      for (size_t i = 0; i < hits.rows.size(); ++i) {
        Count& c = balance[hits.rows[i]];
        c.balance -= 1;
        c.label = hits.labels[i];
        c.removed_in = e.file.file_path;
      }
    }
  }
  for (const auto& [row, c] : balance) {
    const bool added = c.balance > 0 && added_rows;
    const bool deleted = c.balance < 0 && deleted_rows;
    if (!added && !deleted) continue;
    touch->NoteKey(c.label);
    auto& files = added ? touch->added_in : touch->deleted_by;
    const std::string& file = added ? c.added_in : c.removed_in;
    if (std::find(files.begin(), files.end(), file) == files.end()) files.push_back(file);
  }
  if (deleted_rows)
    for (const auto& e : changes.added_deletes)
      FLOE_RETURN_IF_ERROR(DeletedByDeleteFile(io, e.file, changes.removed_deletes, touch));
  return Ok();
}

Status RowScope::Inspect(FileIO& io, const TableMetadata& table, const FileFilter& filter,
                         const SnapshotChanges& changes, bool added_rows, bool deleted_rows, RowTouch* touch) const {
  return RowConflictCheck(*this, table, filter).Inspect(io, changes, added_rows, deleted_rows, touch);
}

}  // namespace floe
