// floe/scan_export.h: a planned scan streamed out (scan/task_stream.h). Text is formatted on
// the reading threads a slice of rows at a time and written here in task order.
#include "floe/scan_export.h"

#include "api/batch_text.h"
#include "api/reader_internal.h"
#include "parquet/output_sink.h"
#include "parquet/parquet_writer.h"
#include "scan/task_stream.h"

namespace floe {
namespace {

// Rows formatted as text on a reading thread, waiting to be written.
struct TextPart {
  size_t rows = 0;
  std::string text;
};

// A read's error, explained when its snapshot was expired meanwhile.
Status Explained(const ScanExport::Impl& scan, Status read) {
  if (read) return read;
  return std::unexpected(ExplainMissingFile(*scan.table, scan.options, read.error()));
}

// Batches as they arrive, in task order, on this thread.
Status StreamBatches(const ScanExport::Impl& scan, const std::function<Result<bool>(ColumnBatch&&)>& take) {
  return StreamTasks<ColumnBatch>(
      *scan.table->io, scan.table->metadata, scan.plan, scan.options.read_parallelism,
      [](ColumnBatch&& rows, const PartSink<ColumnBatch>& emit) -> Status {
        emit(std::move(rows));
        return Ok();
      },
      take);
}

}  // namespace

const std::vector<std::string>& ScanExport::columns() const { return impl_->columns; }

Result<int64_t> ScanExport::WriteText(ScanTextFormat format, std::ostream& out) const {
  const BatchText text(impl_->columns, format);
  BatchTextWriter writer(text, out);  // writes the CSV header
  int64_t written = 0;
  // The plan's limit caps the rows read (StreamTasks), so every row that arrives is written.
  FLOE_RETURN_IF_ERROR(Explained(
      *impl_, StreamTasks<TextPart>(
                  *impl_->table->io, impl_->table->metadata, impl_->plan, impl_->options.read_parallelism,
                  [&](ColumnBatch&& rows, const PartSink<TextPart>& emit) -> Status {
                    for (size_t begin = 0; begin < rows.num_rows; begin += BatchText::kRowsPerSlice) {
                      size_t end = std::min(rows.num_rows, begin + BatchText::kRowsPerSlice);
                      TextPart part{.rows = end - begin};
                      text.Append(rows, begin, end, &part.text);
                      if (!emit(std::move(part))) break;
                    }
                    return Ok();
                  },
                  [&](TextPart&& part) -> Result<bool> {
                    writer.Write(part.text);
                    written += static_cast<int64_t>(part.rows);
                    return true;
                  })));
  writer.Finish();
  return written;
}

Result<int64_t> ScanExport::WriteParquet(const std::string& path) const {
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<parquet::FileSink> sink, parquet::FileSink::Create(path, true));
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<parquet::ParquetWriter> writer,
                        parquet::ParquetWriter::Open(sink.get(), impl_->plan.projection, {}));
  int64_t written = 0;
  bool output_failed = false;  // an error of the output file, not of the table's files
  Status read = StreamBatches(*impl_, [&](ColumnBatch&& rows) -> Result<bool> {
    if (auto st = writer->Write(rows); !st) {
      output_failed = true;
      return std::unexpected(st.error());
    }
    written += static_cast<int64_t>(rows.num_rows);
    return true;
  });
  if (!read && output_failed) return std::unexpected(read.error());
  FLOE_RETURN_IF_ERROR(Explained(*impl_, read));
  auto closed = writer->Close();
  if (!closed) return std::unexpected(closed.error());
  return written;
}

Status ScanExport::ForEachRow(const ListedRowConsumer& consume) const {
  bool consumer_failed = false;  // the consumer's own error is passed on as it is
  Status read = StreamBatches(*impl_, [&](ColumnBatch&& rows) -> Result<bool> {
    for (size_t r = 0; r < rows.num_rows; ++r) {
      std::vector<ListedCell> cells;
      cells.reserve(rows.columns.size());
      for (const auto& c : rows.columns) {
        cells.push_back(ToListedCell(c, r));
      }
      auto more = consume(std::move(cells));
      if (!more) {
        consumer_failed = true;
        return more;
      }
      if (!*more) return false;
    }
    return true;
  });
  if (!read && !consumer_failed) return std::unexpected(ExplainMissingFile(*impl_->table, impl_->options, read.error()));
  return read;
}

}  // namespace floe
