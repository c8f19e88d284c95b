// What every writing command takes (the table, --branch, --idempotency-key) and how it prints
// the commit it made. Public-only: built on include/floe.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "floe/table.h"

namespace floe::cli {

struct WriteArgs {
  std::string table;
  std::string branch = "main";
  std::string idempotency_key;

  WriteOptions ToWriteOptions() const;
};

void AddWriteOptions(CLI::App* cmd, WriteArgs* args);

// "delete db.t: 2 rows deleted, 3 rows written in 1 files, 1 files replaced; snapshot ..."
void PrintCommit(const std::string& what, const std::string& table, const CommitInfo& info);

}  // namespace floe::cli
