// floe stats NS.T: what a table holds per partition and whether maintenance would help.
#include <algorithm>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/table_argument.h"
#include "floe/stats.h"

namespace floe::cli {
namespace {

struct StatsArgs {
  std::string table;
  std::string format = "table";
};

std::string Histogram(const PartitionStats& p) {
  std::string out;
  for (size_t b = 0; b < kFileSizeBuckets; ++b) {
    if (p.size_histogram[b] == 0) continue;
    out += fmt::format("{}{}:{}", out.empty() ? "" : " ", FileSizeBucketLabel(b), p.size_histogram[b]);
  }
  return out;
}

nlohmann::json PartitionJsonOf(const PartitionStats& p) {
  nlohmann::json histogram = nlohmann::json::object();
  for (size_t b = 0; b < kFileSizeBuckets; ++b) histogram[FileSizeBucketLabel(b)] = p.size_histogram[b];
  return {{"partition", nlohmann::json::parse(p.partition.empty() ? "null" : p.partition)},
          {"spec_id", p.spec_id},
          {"data_files", p.data_files},
          {"data_bytes", p.data_bytes},
          {"records", p.records},
          {"small_files", p.small_files},
          {"position_delete_files", p.position_delete_files},
          {"equality_delete_files", p.equality_delete_files},
          {"delete_records", p.delete_records},
          {"file_size_histogram", histogram}};
}

// The data files with the most deleted rows the text output lists; --format json lists every one.
constexpr size_t kFileDeletesShown = 20;

nlohmann::json FileDeletesJsonOf(const DataFileDeletes& f) {
  return {{"data_file", f.data_file},
          {"records", f.records},
          {"deletion_vector_rows", f.deletion_vector_rows},
          {"position_delete_rows", f.position_delete_rows},
          {"live_records", f.live_records()}};
}

// The data files with deleted rows, most deleted first (ties by path), as many as the text shows.
void PrintFileDeletes(const std::vector<DataFileDeletes>& files) {
  if (files.empty()) return;
  std::vector<const DataFileDeletes*> order;
  for (const auto& f : files) order.push_back(&f);
  auto deleted = [](const DataFileDeletes* f) { return f->deletion_vector_rows + f->position_delete_rows; };
  std::stable_sort(order.begin(), order.end(), [&](auto* a, auto* b) { return deleted(a) > deleted(b); });
  std::cout << fmt::format("\ndeleted rows per data file ({} files):\n", files.size());
  Listing listing{{"data_file", "records", "deletion_vector_rows", "position_delete_rows", "live_records"}, {}};
  for (size_t i = 0; i < order.size() && i < kFileDeletesShown; ++i) {
    const DataFileDeletes& f = *order[i];
    listing.rows.push_back({f.data_file, f.records, f.deletion_vector_rows, f.position_delete_rows, f.live_records()});
  }
  PrintListing(listing, OutputFormat::kTable, std::cout);
  if (order.size() > kFileDeletesShown) {
    std::cout << fmt::format("({} more: --format json lists every file)\n", order.size() - kFileDeletesShown);
  }
}

int RunStats(CliContext& ctx, const StatsArgs& args) {
  if (args.format != "table" && args.format != "json") return ctx.Usage("--format must be table or json");
  auto table = OpenTableArgument(ctx, args.table);
  if (!table) return ctx.Fail(table.error());
  auto stats = table->folder ? table->folder->Stats() : table->table->Stats();
  if (!stats) return ctx.Fail(stats.error());
  if (args.format == "json") {
    nlohmann::json parts = nlohmann::json::array();
    for (const auto& p : stats->partitions) parts.push_back(PartitionJsonOf(p));
    nlohmann::json file_deletes = nlohmann::json::array();
    for (const auto& f : stats->file_deletes) file_deletes.push_back(FileDeletesJsonOf(f));
    nlohmann::json out = {{"snapshot_id", stats->snapshot_id},   {"snapshots", stats->snapshots},
                          {"refs", stats->refs},                 {"metadata_log_entries", stats->metadata_log_entries},
                          {"manifests", stats->manifests},       {"target_file_size", stats->target_file_size},
                          {"total", PartitionJsonOf(stats->total)}, {"partitions", parts},
                          {"file_deletes", file_deletes}, {"hints", stats->hints}};
    std::cout << out.dump(2) << "\n";
    return kExitOk;
  }
  const PartitionStats& t = stats->total;
  std::cout << fmt::format("{}: {} data files ({}, {} rows) in {} partitions, {} delete files, {} manifests\n",
                           args.table, t.data_files, FormatByteSize(t.data_bytes), t.records, stats->partitions.size(),
                           t.position_delete_files + t.equality_delete_files, stats->manifests);
  std::cout << fmt::format("history: {} snapshots, {} refs, {} earlier metadata documents\n", stats->snapshots,
                           stats->refs, stats->metadata_log_entries);
  std::cout << fmt::format("file sizes (target {}): {}\n\n", FormatByteSize(stats->target_file_size),
                           Histogram(t).empty() ? "no data files" : Histogram(t));
  Listing listing{{"partition", "data_files", "bytes", "records", "small_files", "delete_files", "sizes"}, {}};
  for (const auto& p : stats->partitions) {
    listing.rows.push_back({p.partition, p.data_files, FormatByteSize(p.data_bytes), p.records, p.small_files,
                            p.position_delete_files + p.equality_delete_files, Histogram(p)});
  }
  if (!listing.rows.empty()) PrintListing(listing, OutputFormat::kTable, std::cout);
  PrintFileDeletes(stats->file_deletes);
  for (const auto& hint : stats->hints) std::cout << "hint: " << hint << "\n";
  return kExitOk;
}

}  // namespace

void RegisterStatsCommand(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* stats = app.add_subcommand("stats", "summarise a table's files per partition, sizes, deletes and history");
  auto& args = ctx.Keep<StatsArgs>();
  stats->add_option("TABLE", args.table, "NS.TABLE, or a table folder or metadata file")->required();
  stats->add_option("--format", args.format, "table or json")->default_val("table");
  OnRun(stats, exit_status, [&] { return RunStats(ctx, args); });
}

}  // namespace floe::cli
