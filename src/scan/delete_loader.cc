#include "scan/delete_loader.h"

#include "parquet/deletion_vector.h"
#include "parquet/puffin.h"

#include "scan/delete_index.h"
#include "scan/file_source.h"

namespace floe {

Result<std::shared_ptr<const ColumnBatch>> DeleteFileCache::Get(const std::string& path, const Loader& load) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = batches_.find(path);
    if (it != batches_.end()) return it->second;
  }
  FLOE_ASSIGN_OR_RETURN(ColumnBatch batch, load());
  auto shared = std::make_shared<const ColumnBatch>(std::move(batch));
  std::lock_guard<std::mutex> lock(mutex_);
  return batches_.emplace(path, shared).first->second;
}

const NestedField* FindFieldInTable(const TableMetadata& table, int field_id) {
  if (const NestedField* f = table.CurrentSchema().FindField(field_id)) return f;
  for (auto it = table.schemas.rbegin(); it != table.schemas.rend(); ++it)
    if (const NestedField* f = it->FindField(field_id)) return f;
  return nullptr;
}

namespace {

Result<ColumnBatch> ReadDeleteFile(FileIO& io, const DataFile& file, const Schema& projection) {
  if (file.file_format != FileFormat::kParquet)
    return NotSupported("delete file " + file.file_path + " is " + std::string(FileFormatName(file.file_format)) +
                        "; only Parquet delete files can be read");
  FLOE_ASSIGN_OR_RETURN(auto parquet_file, OpenParquetFile(io, file.file_path));
  parquet::ReadOptions options;
  options.projection = projection;
  auto batch = parquet::ReadParquetFile(parquet_file, options);
  if (!batch) return std::unexpected(batch.error().WithContext("reading delete file " + file.file_path));
  return batch;
}

// The columns of an equality delete file, shaped as in the table schema (an equality field
// inside a struct is read as that struct holding only it), from the newest schema holding all
// of them.
Result<Schema> EqualityProjection(const TableMetadata& table, const DataFile& file) {
  std::vector<const Schema*> candidates = {&table.CurrentSchema()};
  for (auto it = table.schemas.rbegin(); it != table.schemas.rend(); ++it) candidates.push_back(&*it);
  for (const Schema* schema : candidates) {
    std::vector<std::string> names;
    for (int id : file.equality_ids) {
      const NestedField* f = schema->FindField(id);
      if (!f) break;
      if (!f->type->is_primitive())
        return Corrupt("equality delete file " + file.file_path + " names field " + f->name + ", which is not primitive");
      names.push_back(schema->FindColumnName(id));
    }
    if (names.size() != file.equality_ids.size()) continue;
    FLOE_ASSIGN_OR_RETURN(Schema selected, SelectColumns(*schema, names, true));
    // Delete files may leave out values a data schema requires; read every column as optional.
    std::vector<NestedField> fields = selected.fields();
    for (auto& f : fields) f.required = false;
    return Schema(0, std::move(fields));
  }
  return Corrupt("equality delete file " + file.file_path + " names field ids that no schema of the table holds together");
}

}  // namespace

Result<ColumnBatch> ReadPositionDeleteFile(FileIO& io, const DataFile& file) {
  static const Schema kPositionSchema(0, {NestedField{kDeleteFilePathFieldId, "file_path", Type::String(), true, ""},
                                          NestedField{kDeletePosFieldId, "pos", Type::Long(), true, ""}});
  return ReadDeleteFile(io, file, kPositionSchema);
}

Result<std::vector<int64_t>> ReadDeletionVector(FileIO& io, const DataFile& vector) {
  const std::string what = "deletion vector in " + vector.file_path + " for " +
                           vector.referenced_data_file.value_or("(no referenced_data_file)");
  if (!IsDeletionVector(vector) || !vector.referenced_data_file || !vector.content_offset ||
      !vector.content_size_in_bytes)
    return Corrupt(what + ": the manifest entry lacks referenced_data_file, content_offset or content_size_in_bytes");
  const int64_t offset = *vector.content_offset, length = *vector.content_size_in_bytes;
  const std::string place =
      ": content_offset " + std::to_string(offset) + " and content_size_in_bytes " + std::to_string(length);
  // The blob lies after the Puffin header, and within the file: a read past its end is refused
  // by the FileIO (InvalidArgument, both on disk and on S3), without asking for the size first.
  if (offset < static_cast<int64_t>(parquet::kPuffinMagic.size()) || length <= 0)
    return Corrupt(what + place + " lie outside the file's blobs");
  auto blob = io.ReadRange(vector.file_path, offset, length);
  if (!blob && blob.error().kind == ErrorKind::kInvalidArgument)
    return Corrupt(what + place + " lie outside the file (" + blob.error().message + ")");
  if (!blob) return std::unexpected(blob.error().WithContext(what));
  if (static_cast<int64_t>(blob->size()) != length)
    return Corrupt(what + place + " lie outside the file (" + std::to_string(blob->size()) + " bytes read)");
  auto positions = parquet::DecodeDeletionVector(*blob);
  if (!positions) return std::unexpected(positions.error().WithContext(what));
  if (static_cast<int64_t>(positions->size()) != vector.record_count)
    return Corrupt(what + ": the blob holds " + std::to_string(positions->size()) +
                   " positions, the manifest entry's record_count says " + std::to_string(vector.record_count));
  return positions;
}

Result<TaskDeletes> LoadTaskDeletes(FileIO& io, const TableMetadata& table, const FileScanTask& task,
                                    DeleteFileCache* cache) {
  TaskDeletes out;
  DeleteFileCache local;
  if (!cache) cache = &local;
  for (const ManifestEntry& e : task.deletes) {
    const DataFile& file = e.file;
    if (file.file_format == FileFormat::kPuffin) {
      // A deletion vector: one blob of the Puffin file, for this data file alone (delete_index.cc
      // checked it names one). Read once per task: no other task's data file shares it.
      if (file.referenced_data_file.value_or("") != task.file.file_path) continue;
      FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> positions, ReadDeletionVector(io, file));
      // A position past the data file's rows deletes nothing a reader could see; a writer that
      // put one there counted rows wrongly, and its other positions cannot be trusted either.
      if (!positions.empty() && positions.back() >= task.file.record_count)
        return Corrupt("deletion vector in " + file.file_path + " for " + task.file.file_path + " deletes position " +
                       std::to_string(positions.back()) + ", past the data file's " +
                       std::to_string(task.file.record_count) + " rows");
      out.positions.AddPositions(positions);
      continue;
    }
    if (file.content == FileContent::kPositionDeletes) {
      FLOE_ASSIGN_OR_RETURN(auto batch, cache->Get(file.file_path, [&] { return ReadPositionDeleteFile(io, file); }));
      FLOE_RETURN_IF_ERROR(out.positions.Add(*batch, task.file.file_path, file.file_path));
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(Schema projection, EqualityProjection(table, file));
    FLOE_ASSIGN_OR_RETURN(auto batch, cache->Get(file.file_path, [&] { return ReadDeleteFile(io, file, projection); }));
    EqualityDeleteSet* set = nullptr;
    for (auto& s : out.equality)
      if (s.field_ids() == file.equality_ids) set = &s;
    if (!set) set = &out.equality.emplace_back(file.equality_ids);
    FLOE_RETURN_IF_ERROR(set->Add(*batch, file.file_path));
  }
  return out;
}

}  // namespace floe
