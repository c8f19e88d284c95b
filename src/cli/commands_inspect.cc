// floe inspect FILE: metadata documents, manifests, manifest lists and Parquet files.
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "meta/metadata_json.h"

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

enum class FileKind { kMetadataJson, kAvro, kParquet, kUnknown };

FileKind DetectKind(std::string_view bytes) {
  if (bytes.size() >= 4 && bytes.substr(0, 4) == "PAR1") return FileKind::kParquet;
  if (bytes.size() >= 4 && bytes.substr(0, 4) == std::string_view("Obj\x01", 4)) return FileKind::kAvro;
  size_t first = bytes.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && bytes[first] == '{') return FileKind::kMetadataJson;
  return FileKind::kUnknown;
}

Result<std::string> Inspect(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(std::string bytes, ReadLocalFile(path));
  switch (DetectKind(bytes)) {
    case FileKind::kMetadataJson: {
      auto metadata = ParseTableMetadata(bytes);
      if (!metadata) return std::unexpected(metadata.error().WithContext(path));
      return WriteTableMetadata(*metadata);
    }
    case FileKind::kAvro:
    case FileKind::kParquet:
    case FileKind::kUnknown: break;
  }
  return InvalidArgument(path + ": not a table metadata document, Avro manifest or Parquet file");
}

}  // namespace

void RegisterInspectCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* inspect = app.add_subcommand("inspect", "print a metadata document, manifest, manifest list or Parquet file");
  static std::string path;
  inspect->add_option("FILE", path, "the file")->required();
  OnRun(inspect, exit_status, [&ctx] {
    auto text = Inspect(path);
    if (!text) return ctx.Fail(text.error());
    std::cout << *text;
    if (!text->empty() && text->back() != '\n') std::cout << "\n";
    return kExitOk;
  });
}

}  // namespace floe::cli
