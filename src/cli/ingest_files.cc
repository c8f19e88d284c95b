#include "cli/ingest_files.h"

#include <algorithm>
#include <atomic>
#include <iostream>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "cli/cli_context.h"

namespace floe::cli {

int IngestFiles(const CliContext& ctx, Table& target, const IngestFilesArgs& args) {
  const std::string table = target.name();
  std::atomic<size_t> next{0};
  std::mutex mu;  // guards everything below and the output, so lines never interleave
  int64_t rows = 0, commits = 0, replays = 0, failed = 0;
  std::set<std::string> documents;  // the metadata documents the landed commits left
  std::optional<int> first_failure;

  auto produce = [&] {
    while (true) {
      const size_t i = next.fetch_add(1);
      if (i >= args.files.size()) return;
      const std::string& file = args.files[i];
      WriteOptions options = args.options;
      if (options.idempotency_key) *options.idempotency_key += ":" + file;
      auto result = target.AppendFiles(args.input.Of({file}), options);
      std::lock_guard lock(mu);
      if (!result) {
        ++failed;
        const int status = ctx.Fail(result.error().WithContext("ingest " + table + " " + file));
        if (!first_failure) first_failure = status;
        continue;
      }
      std::cout << "ingest " << table << " " << file << ": ";
      if (result->idempotent_replay) {
        ++replays;
        std::cout << "already committed as snapshot " << result->snapshot_id << " (idempotency key)\n";
      } else if (!result->committed) {
        std::cout << "no rows; nothing committed\n";
      } else {
        ++commits;
        rows += result->rows_added;
        documents.insert(result->metadata_location);
        std::cout << result->rows_added << " rows; " << result->summary << "\n";
      }
      std::cout.flush();
    }
  };

  const int producers = static_cast<int>(std::min<size_t>(static_cast<size_t>(args.producers), args.files.size()));
  std::vector<std::thread> threads;
  for (int p = 1; p < producers; ++p) threads.emplace_back(produce);
  produce();
  for (auto& t : threads) t.join();

  std::cout << "ingest " << table << ": " << rows << " rows from " << args.files.size() << " files in " << commits
            << " commits, " << documents.size() << " metadata swaps, " << producers << " producers";
  if (replays) std::cout << "; " << replays << " already committed";
  if (failed) std::cout << "; " << failed << " failed";
  std::cout << "\n";
  return first_failure.value_or(kExitOk);
}

}  // namespace floe::cli
