#include "write/data_writer.h"

#include <algorithm>

#include "meta/table_properties.h"
#include "parquet/parquet_writer.h"
#include "util/strings.h"
#include "write/file_sink.h"
#include "write/parquet_data_file.h"
#include "write/partition_rows.h"

namespace floe {

struct DataWriter::OpenFile {
  std::vector<Literal> partition;
  std::unique_ptr<FileIOSink> sink;
  std::unique_ptr<parquet::ParquetWriter> writer;
};

namespace {

std::string EscapePathPart(const std::string& s) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == ':' || c == '+') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

}  // namespace

std::string PartitionPath(const PartitionSpec& spec, const std::vector<Literal>& partition) {
  std::string out;
  for (size_t i = 0; i < spec.fields().size() && i < partition.size(); ++i) {
    if (!out.empty()) out += "/";
    const Literal& v = partition[i];
    out += EscapePathPart(spec.fields()[i].name) + "=" + (v.is_null() ? "null" : EscapePathPart(v.ToString()));
  }
  return out;
}

DataWriter::DataWriter(FileIO& io, const TableMetadata& table, FileNamer* names)
    : io_(io),
      table_(table),
      names_(names),
      schema_(table.CurrentSchema()),
      spec_(table.DefaultSpec()),
      target_file_size_(table.CountProperty(props::kTargetFileSizeBytes, props::kTargetFileSizeBytesDefault)) {}

DataWriter::~DataWriter() {
  // Files never finished are not published: their OutputFile aborts on destruction.
  for (auto& [key, file] : open_)
    if (file->sink) file->sink->Abort();
}

Result<ColumnBatch> DataWriter::ConformToSchema(ColumnBatch batch) const {
  bool same = batch.fields.size() == schema_.fields().size();
  for (size_t i = 0; same && i < batch.fields.size(); ++i)
    same = batch.fields[i].id == schema_.fields()[i].id && batch.fields[i].type->Equals(*schema_.fields()[i].type);
  if (same) return batch;
  ColumnBatch out(schema_);
  out.num_rows = batch.num_rows;
  for (size_t i = 0; i < schema_.fields().size(); ++i) {
    const NestedField& field = schema_.fields()[i];
    int index = batch.ColumnIndexById(field.id);
    if (index >= 0 && batch.fields[index].type->Equals(*field.type)) {
      out.columns[i] = std::move(batch.columns[index]);  // each source column is used once
      continue;
    }
    if (index >= 0) {
      // Different but convertible type (e.g. int into long): convert value by value.
      Column converted(field.type);
      for (size_t r = 0; r < batch.num_rows; ++r) {
        auto st = converted.Append(batch.columns[index].Get(r));
        if (!st) return std::unexpected(st.error().WithContext("column '" + field.name + "'"));
      }
      out.columns[i] = std::move(converted);
      continue;
    }
    if (field.required) return InvalidArgument("required column '" + field.name + "' is missing from the rows");
    Column nulls(field.type);
    for (size_t r = 0; r < batch.num_rows; ++r) nulls.AppendNull();
    out.columns[i] = std::move(nulls);
  }
  return out;
}

Result<DataWriter::OpenFile*> DataWriter::FileFor(const std::vector<Literal>& partition, const std::string& key) {
  auto it = open_.find(key);
  if (it != open_.end()) return it->second.get();
  std::string dir = JoinPath(table_.location, "data");
  if (!spec_.fields().empty()) dir += "/" + PartitionPath(spec_, partition);
  FileNamer unrecorded;
  FLOE_ASSIGN_OR_RETURN(std::string path, (names_ ? *names_ : unrecorded).NewPath(dir, "", ".parquet"));
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<OutputFile> out, io_.NewUnreferencedOutputFile(path));
  auto file = std::make_unique<OpenFile>();
  file->partition = partition;
  file->sink = std::make_unique<FileIOSink>(std::move(out));
  FLOE_ASSIGN_OR_RETURN(file->writer, parquet::ParquetWriter::Open(file->sink.get(), schema_, table_.properties));
  OpenFile* raw = file.get();
  open_[key] = std::move(file);
  return raw;
}

Status DataWriter::CloseFile(OpenFile& file) {
  FLOE_ASSIGN_OR_RETURN(parquet::DataFileMetrics m, file.writer->Close());
  written_.push_back(file.sink->path());
  DataFile f = ParquetDataFile(file.sink->path(), m);
  f.content = FileContent::kData;
  f.spec_id = spec_.spec_id();
  f.partition = file.partition;
  f.sort_order_id = table_.default_sort_order_id;
  stats_.bytes += f.file_size_in_bytes;
  ++stats_.files;
  finished_.push_back(std::move(f));
  file.sink.reset();
  return Ok();
}

Status DataWriter::Write(const ColumnBatch& input) {
  if (input.num_rows == 0) return Ok();
  return Write(ColumnBatch(input));
}

Status DataWriter::Write(ColumnBatch&& input) {
  if (!target_file_size_) return std::unexpected(target_file_size_.error());
  if (input.num_rows == 0) return Ok();
  FLOE_ASSIGN_OR_RETURN(ColumnBatch batch, ConformToSchema(std::move(input)));
  stats_.rows += static_cast<int64_t>(batch.num_rows);

  std::vector<PartitionGroup> groups;
  if (spec_.fields().empty()) {
    groups.push_back(PartitionGroup{});
  } else {
    FLOE_ASSIGN_OR_RETURN(groups, GroupRowsByPartition(spec_, batch));
  }
  for (const PartitionGroup& group : groups) {
    const ColumnBatch rows = groups.size() == 1 ? std::move(batch) : batch.Take(group.rows);
    for (size_t begin = 0; begin < rows.num_rows;) {
      FLOE_ASSIGN_OR_RETURN(OpenFile * file, FileFor(group.tuple, group.key));
      const size_t end = std::min(rows.num_rows, begin + RowsBeforeSizeCheck(*file));
      FLOE_RETURN_IF_ERROR(file->writer->Write(rows, begin, end));
      begin = end;
      if (static_cast<int64_t>(file->writer->EstimatedFileSize()) >= *target_file_size_) {
        FLOE_RETURN_IF_ERROR(CloseFile(*file));
        open_.erase(group.key);  // the next rows of this partition start a new file
      }
    }
  }
  return Ok();
}

size_t DataWriter::RowsBeforeSizeCheck(const OpenFile& file) const {
  // Iceberg's writers check every 1,000 rows; floe checks at least every 1,024 and, while the
  // file is far from the target, after half the rows its size so far says would reach it.
  constexpr size_t kMinRows = 1024;
  constexpr size_t kMaxRows = 1 << 20;
  const int64_t rows = file.writer->rows_written();
  const auto size = static_cast<int64_t>(file.writer->EstimatedFileSize());
  if (rows == 0 || size <= 0) return kMinRows;
  const double per_row = static_cast<double>(size) / static_cast<double>(rows);
  const double to_target = static_cast<double>(std::max<int64_t>(*target_file_size_ - size, 0)) / per_row / 2;
  return static_cast<size_t>(std::clamp(to_target, static_cast<double>(kMinRows), static_cast<double>(kMaxRows)));
}

Result<std::vector<DataFile>> DataWriter::Finish() {
  for (auto& [key, file] : open_) FLOE_RETURN_IF_ERROR(CloseFile(*file));
  open_.clear();
  return finished_;
}

void DataWriter::Abort() {
  for (auto& [key, file] : open_)
    if (file->sink) file->sink->Abort();
  open_.clear();
  for (const auto& path : written_) (void)io_.Delete(path);
  written_.clear();
  finished_.clear();
}

}  // namespace floe
