// `floe ingest TABLE FILE... --producers N`: many files into one table, each file its own
// append, committed by N threads of this process at once. The appends that are in flight
// together go into one metadata document and one catalog swap (the library's group commit),
// each file still getting its own snapshot and sequence number. Public-only: built on include/floe.
#pragma once

#include <string>
#include <vector>

#include "cli/input_args.h"
#include "floe/table.h"

namespace floe::cli {

class CliContext;

struct IngestFilesArgs {
  std::vector<std::string> files;
  FileInput input;
  int producers = 4;
  // Each file's commit: branch, and the idempotency key (made per file: KEY:FILE, so that a
  // re-run of the same command skips the files that already landed).
  WriteOptions options;
};

// Appends every file, prints a line per file (stdout; a failed file's error on stderr, the
// other files still go in) and a summary: rows, commits, and the metadata documents they
// were swapped in with. Returns the exit status: 0, or that of the first failed file.
int IngestFiles(const CliContext& ctx, Table& table, const IngestFilesArgs& args);

}  // namespace floe::cli
