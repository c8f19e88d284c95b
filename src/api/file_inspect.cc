// floe/file_inspect.h over the codecs' describers (avro/, parquet/) and the Parquet reader.
#include "floe/file_inspect.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "api/batch_text.h"
#include "api/moved_folder.h"
#include "api/reader_internal.h"
#include "avro/avro_describe.h"
#include "io/local_file_io.h"
#include "maint/relocate_table.h"
#include "meta/metadata_json.h"
#include "parquet/describe.h"
#include "parquet/parquet_reader.h"
#include "parquet/puffin_describe.h"
#include "scan/static_table.h"
#include "table_files/moved_paths_file_io.h"
#include "util/json_indent.h"
#include "util/utf8.h"

namespace floe {
namespace {

Result<std::string> ReadLocalFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound("cannot open '" + path + "'");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return IOError("cannot read '" + path + "'");
  return buffer.str();
}

enum class FileKind { kMetadataJson, kAvro, kParquet, kPuffin, kUnknown };

FileKind DetectKind(std::string_view bytes) {
  if (bytes.size() >= 4 && bytes.substr(0, 4) == "PAR1") return FileKind::kParquet;
  if (parquet::LooksLikePuffin(bytes)) return FileKind::kPuffin;
  if (bytes.size() >= 4 && bytes.substr(0, 4) == std::string_view("Obj\x01", 4)) return FileKind::kAvro;
  size_t first = bytes.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && bytes[first] == '{') return FileKind::kMetadataJson;
  return FileKind::kUnknown;
}

// With allow_moved_paths: every string under the table's recorded location, relocated.
void RelocateStrings(nlohmann::json& j, const MovedPathsFileIO& moved) {
  if (j.is_string()) {
    j = moved.Map(j.get_ref<const std::string&>());
  } else if (j.is_structured()) {
    for (auto& child : j) RelocateStrings(child, moved);
  }
}

// The table a file of a copied or moved table belongs to, read from the folder it is in now.
Result<std::unique_ptr<MovedPathsFileIO>> MovedTableOf(const std::string& path) {
  std::string folder = TableFolderOf(path);
  if (folder.empty())
    return InvalidArgument("--allow-moved-paths: " + path + " lies under no metadata/ or data/ folder, so its table is unknown");
  auto io = std::make_shared<LocalFileIO>();
  auto table = OpenStaticTable(*io, folder);
  if (!table) return std::unexpected(table.error().WithContext("--allow-moved-paths: the table of " + path));
  return std::make_unique<MovedPathsFileIO>(io, table->metadata.location, folder);
}

}  // namespace

Result<std::string> InspectFile(const std::string& path, const InspectOptions& options) {
  FLOE_ASSIGN_OR_RETURN(std::string bytes, ReadLocalFile(path));
  std::unique_ptr<MovedPathsFileIO> moved;
  if (options.allow_moved_paths) {
    FLOE_ASSIGN_OR_RETURN(moved, MovedTableOf(path));
  }
  nlohmann::json j;
  switch (DetectKind(bytes)) {
    case FileKind::kMetadataJson: {
      auto metadata = ParseTableMetadata(bytes);
      if (!metadata) return std::unexpected(metadata.error().WithContext(path));
      if (moved) RelocateDocumentPaths(*metadata, *moved);
      // Indented for people; the document itself is written compact. Key order kept.
      return IndentJson(WriteTableMetadata(*metadata));
    }
    case FileKind::kAvro: {
      FLOE_ASSIGN_OR_RETURN(j, DescribeAvroFile(bytes, path, nullptr));
      break;
    }
    case FileKind::kParquet: {
      FLOE_ASSIGN_OR_RETURN(j, parquet::DescribeParquetBytes(bytes, path));
      break;
    }
    case FileKind::kPuffin: {
      FLOE_ASSIGN_OR_RETURN(j, parquet::DescribePuffinBytes(bytes, path));
      break;
    }
    case FileKind::kUnknown:
      return InvalidArgument(path + ": not a table metadata document, Avro manifest, Parquet or Puffin file");
  }
  if (moved) RelocateStrings(j, *moved);
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

struct ParquetFileRows::Impl {
  std::shared_ptr<parquet::ParquetFile> file;
  std::unique_ptr<parquet::ParquetReader> reader;
  std::vector<std::string> columns;
};

Result<ParquetFileRows> ParquetFileRows::Open(const std::string& path) {
  auto impl = std::make_shared<Impl>();
  FLOE_ASSIGN_OR_RETURN(impl->file, parquet::ParquetFile::OpenPath(path));
  FLOE_ASSIGN_OR_RETURN(impl->reader, parquet::ParquetReader::Make(impl->file));
  for (const auto& f : impl->file->schema().fields()) impl->columns.push_back(f.name);
  return ParquetFileRows(std::move(impl));
}

const std::vector<std::string>& ParquetFileRows::columns() const { return impl_->columns; }

Result<int64_t> ParquetFileRows::WriteText(ScanTextFormat format, int64_t limit, std::ostream& out) {
  BatchText text(impl_->columns, format);
  BatchTextWriter writer(text, out);  // writes the CSV header
  int64_t written = 0;
  while (limit < 0 || written < limit) {
    FLOE_ASSIGN_OR_RETURN(std::optional<ColumnBatch> batch, impl_->reader->Next());
    if (!batch) break;
    size_t take = batch->num_rows;
    if (limit >= 0) take = std::min<size_t>(take, static_cast<size_t>(limit - written));
    writer.WriteRows(*batch, take);
    written += static_cast<int64_t>(take);
  }
  writer.Finish();
  return written;
}

Status ParquetFileRows::ForEachRow(int64_t limit, const ListedRowConsumer& consume) {
  int64_t emitted = 0;
  while (limit < 0 || emitted < limit) {
    FLOE_ASSIGN_OR_RETURN(std::optional<ColumnBatch> batch, impl_->reader->Next());
    if (!batch) break;
    for (size_t r = 0; r < batch->num_rows && (limit < 0 || emitted < limit); ++r, ++emitted) {
      std::vector<ListedCell> cells;
      cells.reserve(batch->columns.size());
      for (const auto& c : batch->columns)
        cells.push_back(ToListedCell(c, r));
      FLOE_ASSIGN_OR_RETURN(bool more, consume(std::move(cells)));
      if (!more) return {};
    }
  }
  return {};
}

std::string PrintableText(std::string_view text) { return EscapeInvalidUtf8(text); }

}  // namespace floe
