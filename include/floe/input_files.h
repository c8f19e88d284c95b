// InputFiles: rows a program has in CSV, JSON-lines or Parquet files (or JSON lines in memory),
// written to a table by Table::AppendFiles, OverwriteFiles and UpsertFiles.
//
// Columns are matched to the table's current schema by name; a column the table lacks is
// ignored, one the input lacks is null (a required one is refused). A value that cannot be
// read as its column's type is refused, naming the file and its line (CSV, JSON lines) or
// column (Parquet). Files are read and converted on a thread of their own while the table's
// files are written, a few batches ahead.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "floe/result.h"

namespace floe {

// How far a write from InputFiles has come, for a progress display.
struct InputProgress {
  int64_t rows = 0;                // rows written so far
  int64_t bytes_written = 0;       // bytes of data files written so far
  int64_t input_bytes_done = 0;    // bytes of the input files read, counting whole files
  int64_t input_bytes_total = 0;   // bytes of all the input files (0 when unknown)
};

struct InputFiles {
  // Read in this order.
  std::vector<std::string> paths;
  // "csv", "jsonl" ("json", "ndjson") or "parquet"; empty: each file by its extension
  // (.csv, .jsonl / .ndjson / .json, .parquet).
  std::string format;
  // CSV: the unquoted text read as null (default: an empty field; "" is always the empty string).
  std::string null_string;
  // Instead of `paths`: JSON lines held in memory (a chunk of a stream), named "stdin" in
  // errors, read as one batch.
  std::optional<std::string> json_lines;
  // Called from the writing thread as rows are written (at most as often as batches are).
  std::function<void(const InputProgress&)> progress;
};

// InvalidArgument naming the format, unless InputFiles::format takes it: empty, "parquet", or
// csv, jsonl, json or ndjson in any case. Reads nothing: a program checks its arguments
// before it connects.
Status CheckInputFormat(const std::string& format);

}  // namespace floe
