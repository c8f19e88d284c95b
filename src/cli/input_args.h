// The options of a command that reads rows from files (--format, --null-string), as the
// public InputFiles (floe/input_files.h). Public-only: built on include/floe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "floe/input_files.h"

namespace CLI {
class App;
}

namespace floe::cli {

// --null-string S on a command that reads CSV files.
void AddNullStringOption(CLI::App* command, std::string* null_string);

// How a command that appends files reads them: --format (empty: each file by its extension)
// and --null-string.
struct FileInput {
  std::string format;
  std::string null_string;

  InputFiles Of(std::vector<std::string> paths) const;
};
void AddFileInputOptions(CLI::App* command, FileInput* input);
// The usage message for a --format that is not csv, jsonl (json) or parquet; nullopt when it is.
std::optional<std::string> BadFileFormat(const std::string& format);

}  // namespace floe::cli
