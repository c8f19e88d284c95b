#include "cli/input_args.h"

#include <CLI/CLI.hpp>

namespace floe::cli {

void AddNullStringOption(CLI::App* command, std::string* null_string) {
  command->add_option("--null-string", *null_string,
                      "CSV: the unquoted text that means null (default: an empty field; \"\" is always the empty string)");
}

void AddFileInputOptions(CLI::App* command, FileInput* input) {
  AddNullStringOption(command, &input->null_string);
  command->add_option("--format", input->format, "csv, jsonl or parquet (default: from each file's extension)");
}

InputFiles FileInput::Of(std::vector<std::string> paths) const {
  InputFiles files;
  files.paths = std::move(paths);
  files.format = format;
  files.null_string = null_string;
  return files;
}

std::optional<std::string> BadFileFormat(const std::string& format) {
  if (format.empty() || format == "csv" || format == "jsonl" || format == "json" || format == "parquet")
    return std::nullopt;
  return "--format must be csv, jsonl or parquet, not '" + format + "'";
}

}  // namespace floe::cli
