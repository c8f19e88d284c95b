#include "cli/write_args.h"

#include <iostream>

namespace floe::cli {

WriteOptions WriteArgs::ToWriteOptions() const {
  WriteOptions options;
  options.branch = branch;
  if (!idempotency_key.empty()) options.idempotency_key = idempotency_key;
  return options;
}

void AddWriteOptions(CLI::App* cmd, WriteArgs* args) {
  cmd->add_option("TABLE", args->table, "NS.TABLE")->required();
  cmd->add_option("--branch", args->branch, "the branch to write to")->default_val("main");
  cmd->add_option("--idempotency-key", args->idempotency_key,
                  "a key that makes a re-run of this exact write a no-op (kept in the snapshot summary)");
}

void PrintCommit(const std::string& what, const std::string& table, const CommitInfo& info) {
  if (info.idempotent_replay) {
    std::cout << what << " " << table << ": already committed as snapshot " << info.snapshot_id
              << " (idempotency key); nothing written\n";
    return;
  }
  if (!info.committed) {
    std::cout << what << " " << table << ": no rows matched; nothing committed\n";
    return;
  }
  std::cout << what << " " << table << ": ";
  if (info.rows_deleted) std::cout << info.rows_deleted << " rows deleted, ";
  if (info.rows_updated) std::cout << info.rows_updated << " rows updated, ";
  std::cout << info.rows_added << " rows written in " << info.files_added << " files";
  if (info.files_removed) std::cout << ", " << info.files_removed << " files replaced";
  std::cout << "; " << info.summary << "\n";
}

}  // namespace floe::cli
