#include "write/data_writer.h"

#include "meta/row_lineage.h"

#include "types/field_defaults.h"

#include <algorithm>
#include <thread>

#include "meta/table_properties.h"
#include "parquet/parquet_writer.h"
#include "util/strings.h"
#include "write/column_conform.h"
#include "write/file_sink.h"
#include "write/parquet_data_file.h"
#include "write/partition_rows.h"

namespace floe {

struct DataWriter::OpenFile {
  std::unique_ptr<FileIOSink> sink;
  std::unique_ptr<parquet::ParquetWriter> writer;
};

struct DataWriter::Partition {
  std::vector<Literal> tuple;
  size_t lane = 0;
  std::unique_ptr<OpenFile> open;  // the file its next rows go to, if one is open
  std::vector<DataFile> closed;    // in the order written
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

namespace {

// Threads writing a partitioned table's files: one per core, up to 4. An unpartitioned table
// has one file open at a time, whose columns its ParquetWriter already encodes on two threads:
// it is written on the calling thread.
int WritingThreads(const PartitionSpec& spec) {
  const unsigned cores = std::thread::hardware_concurrency();
  if (spec.fields().empty() || cores < 2) return 0;
  return static_cast<int>(std::min(cores, 4u));
}

// Rows handed to the writing threads and not yet written, at most: two batches of the usual
// 65,536 rows (more when the batches given are larger, see Write).
constexpr size_t kQueuedRows = 1 << 17;

}  // namespace

DataWriter::DataWriter(FileIO& io, const TableMetadata& table, FileNamer* names)
    : io_(io),
      table_(table),
      names_(names),
      schema_(table.CurrentSchema()),
      spec_(table.DefaultSpec()),
      target_file_size_(table.CountProperty(props::kTargetFileSizeBytes, props::kTargetFileSizeBytesDefault)),
      lanes_(std::make_unique<TaskLanes>(WritingThreads(spec_), kQueuedRows)) {}

void DataWriter::KeepRowLineage() { schema_ = WithRowLineage(schema_); }

DataWriter::~DataWriter() {
  // Files never finished are not published: their OutputFile aborts on destruction.
  lanes_->Stop();
  for (auto& p : partitions_)
    if (p->open) p->open->sink->Abort();
}

WriteStats DataWriter::stats() const {
  std::lock_guard lock(stats_mu_);
  return stats_;
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
      // Different but convertible type (int into long; a struct without a field added since):
      // converted column by column, nested values kept.
      FLOE_ASSIGN_OR_RETURN(out.columns[i], ConformColumn(batch.columns[index], field.type, field.name));
      continue;
    }
    // A column the rows leave out holds the field's write-default (format 3), else null.
    auto fill = WriteDefault(field);
    if (!fill) return std::unexpected(fill.error());
    if (!*fill && field.required)
      return InvalidArgument("required column '" + field.name + "' is missing from the rows");
    if (!*fill) {
      out.columns[i] = NullColumn(field.type, batch.num_rows);
      continue;
    }
    Column filled(field.type);
    for (size_t r = 0; r < batch.num_rows; ++r) {
      if (*fill) {
        FLOE_RETURN_IF_ERROR(filled.Append(**fill));
      } else {
        filled.AppendNull();
      }
    }
    out.columns[i] = std::move(filled);
  }
  return out;
}

Result<DataWriter::Partition*> DataWriter::PartitionFor(const PartitionGroup& group) {
  if (auto it = partition_of_key_.find(group.key); it != partition_of_key_.end()) return it->second;
  auto p = std::make_unique<Partition>();
  p->tuple = group.tuple;
  p->lane = lanes_->AddLane();
  Partition* raw = p.get();
  partitions_.push_back(std::move(p));
  partition_of_key_.emplace(group.key, raw);
  return raw;
}

Status DataWriter::OpenFileFor(Partition& partition) {
  std::string dir = JoinPath(table_.location, "data");
  if (!spec_.fields().empty()) dir += "/" + PartitionPath(spec_, partition.tuple);
  FileNamer unrecorded;
  FLOE_ASSIGN_OR_RETURN(std::string path, (names_ ? *names_ : unrecorded).NewPath(dir, "", ".parquet"));
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<OutputFile> out, io_.NewUnreferencedOutputFile(path));
  auto file = std::make_unique<OpenFile>();
  file->sink = std::make_unique<FileIOSink>(std::move(out));
  FLOE_ASSIGN_OR_RETURN(file->writer, parquet::ParquetWriter::Open(file->sink.get(), schema_, table_.properties));
  StoreIcebergSchema(*file->writer, schema_);
  partition.open = std::move(file);
  return Ok();
}

Status DataWriter::CloseFile(Partition& partition) {
  OpenFile& file = *partition.open;
  FLOE_ASSIGN_OR_RETURN(parquet::DataFileMetrics m, file.writer->Close());
  DataFile f = ParquetDataFile(file.sink->path(), m);
  f.content = FileContent::kData;
  f.spec_id = spec_.spec_id();
  f.partition = partition.tuple;
  f.sort_order_id = table_.default_sort_order_id;
  {
    std::lock_guard lock(stats_mu_);
    stats_.bytes += f.file_size_in_bytes;
    ++stats_.files;
  }
  partition.closed.push_back(std::move(f));
  partition.open.reset();
  return Ok();
}

Status DataWriter::WriteRows(Partition& partition, const ColumnBatch& rows) {
  for (size_t begin = 0; begin < rows.num_rows;) {
    if (!partition.open) FLOE_RETURN_IF_ERROR(OpenFileFor(partition));
    OpenFile& file = *partition.open;
    const size_t end = std::min(rows.num_rows, begin + RowsBeforeSizeCheck(file));
    FLOE_RETURN_IF_ERROR(file.writer->Write(rows, begin, end));
    begin = end;
    // The next rows of this partition start a new file.
    if (static_cast<int64_t>(file.writer->EstimatedFileSize()) >= *target_file_size_)
      FLOE_RETURN_IF_ERROR(CloseFile(partition));
  }
  return Ok();
}

Status DataWriter::Write(const ColumnBatch& input) {
  if (input.num_rows == 0) return Ok();
  return Write(ColumnBatch(input));
}

Status DataWriter::Write(ColumnBatch&& input) {
  if (!target_file_size_) return std::unexpected(target_file_size_.error());
  if (input.num_rows == 0) return Ok();
  // A partition field or sort field floe cannot compute (an unknown or multi-argument transform):
  // refused before any file is written.
  FLOE_RETURN_IF_ERROR(spec_.CheckWritable());
  if (const SortOrder* order = table_.SortOrderById(table_.default_sort_order_id)) FLOE_RETURN_IF_ERROR(order->CheckWritable());
  FLOE_ASSIGN_OR_RETURN(ColumnBatch batch, ConformToSchema(std::move(input)));
  {
    std::lock_guard lock(stats_mu_);
    stats_.rows += static_cast<int64_t>(batch.num_rows);
  }
  // Batches larger than usual may be queued two at a time too (memory: a few batches).
  lanes_->RaiseMaxCost(2 * batch.num_rows);

  std::vector<PartitionGroup> groups;
  if (spec_.fields().empty()) {
    groups.push_back(PartitionGroup{});
  } else {
    FLOE_ASSIGN_OR_RETURN(groups, GroupRowsByPartition(spec_, batch));
  }
  for (const PartitionGroup& group : groups) {
    FLOE_ASSIGN_OR_RETURN(Partition * partition, PartitionFor(group));
    auto rows = std::make_shared<const ColumnBatch>(groups.size() == 1 ? std::move(batch) : batch.Take(group.rows));
    const size_t count = rows->num_rows;
    FLOE_RETURN_IF_ERROR(lanes_->Submit(partition->lane, count, [this, partition, rows = std::move(rows)] {
      return WriteRows(*partition, *rows);
    }));
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
  for (auto& p : partitions_) {
    Partition* partition = p.get();
    FLOE_RETURN_IF_ERROR(lanes_->Submit(partition->lane, 0, [this, partition] {
      return partition->open ? CloseFile(*partition) : Ok();
    }));
  }
  FLOE_RETURN_IF_ERROR(lanes_->Wait());
  finished_.clear();
  written_.clear();
  for (const auto& p : partitions_) {
    for (const DataFile& f : p->closed) {
      finished_.push_back(f);
      written_.push_back(f.file_path);
    }
  }
  return finished_;
}

void DataWriter::Abort() {
  lanes_->Stop();
  for (auto& p : partitions_) {
    if (p->open) p->open->sink->Abort();
    p->open.reset();
    for (const DataFile& f : p->closed) (void)io_.Delete(f.file_path);
    p->closed.clear();
  }
  written_.clear();
  finished_.clear();
}

}  // namespace floe
