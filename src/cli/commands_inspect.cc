// floe inspect FILE: metadata documents, manifests, manifest lists, Parquet and Puffin files.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include "api/batch_text.h"
#include "cli/commands.h"
#include "cli/json_text.h"
#include "avro/avro_describe.h"
#include "cli/output.h"
#include "cli/table_ref.h"
#include "io/local_file_io.h"
#include "maint/relocate_table.h"
#include "meta/metadata_json.h"
#include "parquet/describe.h"
#include "parquet/parquet_reader.h"
#include "parquet/puffin_describe.h"
#include "scan/static_table.h"

namespace floe::cli {
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

// With --allow-moved-paths: every string under the table's recorded location, relocated.
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

Result<std::string> Inspect(const std::string& path, bool allow_moved_paths) {
  FLOE_ASSIGN_OR_RETURN(std::string bytes, ReadLocalFile(path));
  std::unique_ptr<MovedPathsFileIO> moved;
  if (allow_moved_paths) {
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
  return JsonText(j, 2);
}

struct CatArgs {
  std::string path;
  int64_t limit = -1;
  std::string format = "table";
};

int RunCat(CliContext& ctx, const CatArgs& args) {
  auto format = ParseOutputFormat(args.format);
  if (!format) return ctx.Usage(format.error().message);
  auto file = parquet::ParquetFile::OpenPath(args.path);
  if (!file) return ctx.Fail(file.error());
  auto reader = parquet::ParquetReader::Make(*file);
  if (!reader) return ctx.Fail(reader.error());
  Listing listing;
  for (const auto& f : (*file)->schema().fields()) listing.columns.push_back(f.name);
  // CSV, JSON lines and JSON stream batch by batch, as `floe scan` writes them (api/batch_text.h);
  // the table is laid out once every row is in (its column widths need them all).
  const std::optional<BatchText::Format> streamed = StreamedFormat(*format);
  std::optional<BatchText> batch_text;
  std::optional<BatchTextWriter> text_out;
  if (streamed) {
    batch_text.emplace(listing.columns, *streamed);
    text_out.emplace(*batch_text, std::cout);  // writes the CSV header
  }
  int64_t emitted = 0;
  while (args.limit < 0 || emitted < args.limit) {
    auto batch = (*reader)->Next();
    if (!batch) return ctx.Fail(batch.error());
    if (!batch->has_value()) break;
    const ColumnBatch& rows = **batch;
    if (streamed) {
      size_t take = rows.num_rows;
      if (args.limit >= 0) take = std::min<size_t>(take, static_cast<size_t>(args.limit - emitted));
      text_out->WriteRows(rows, take);
      emitted += static_cast<int64_t>(take);
      continue;
    }
    for (size_t r = 0; r < rows.num_rows && (args.limit < 0 || emitted < args.limit); ++r, ++emitted) {
      std::vector<nlohmann::json> row;
      for (const auto& c : rows.columns) row.push_back(c.type->is_nested() ? nlohmann::json(nullptr) : c.Get(r).ToJson());
      listing.rows.push_back(std::move(row));
    }
  }
  if (streamed) {
    text_out->Finish();
  } else {
    PrintListing(listing, *format, std::cout);
  }
  return kExitOk;
}

}  // namespace

void RegisterInspectCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* inspect = app.add_subcommand("inspect", "print a metadata document, manifest, manifest list or Parquet file");
  auto& path = ctx.Keep<std::string>();
  auto& allow_moved_paths = ctx.Keep<bool>();
  allow_moved_paths = false;
  inspect->add_option("FILE", path, "the file")->required();
  inspect->add_flag("--allow-moved-paths", allow_moved_paths,
                    "the file belongs to a copied or moved table: paths under the location its metadata records are "
                    "printed as they are now, under the folder the table is in");
  OnRun(inspect, exit_status, [&] {
    auto text = Inspect(path, allow_moved_paths);
    if (!text) return ctx.Fail(text.error());
    std::cout << *text;
    if (!text->empty() && text->back() != '\n') std::cout << "\n";
    return kExitOk;
  });

  auto* cat = app.add_subcommand("cat", "print the rows of a Parquet file");
  auto& cat_args = ctx.Keep<CatArgs>();
  cat->add_option("FILE", cat_args.path, "a Parquet file")->required();
  cat->add_option("--limit", cat_args.limit, "at most this many rows");
  cat->add_option("--format", cat_args.format, "table, csv, jsonl or json")->default_val("table");
  OnRun(cat, exit_status, [&] { return RunCat(ctx, cat_args); });
}

}  // namespace floe::cli
