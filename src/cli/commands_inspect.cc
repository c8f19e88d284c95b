// floe inspect FILE: metadata documents, manifests, manifest lists, Parquet and Puffin files.
#include <iostream>
#include <optional>

#include "cli/commands.h"
#include "cli/output.h"
#include "floe/file_inspect.h"

namespace floe::cli {
namespace {

struct CatArgs {
  std::string path;
  int64_t limit = -1;
  std::string format = "table";
};

int RunCat(CliContext& ctx, const CatArgs& args) {
  auto format = ParseOutputFormat(args.format);
  if (!format) return ctx.Usage(format.error().message);
  auto file = ParquetFileRows::Open(args.path);
  if (!file) return ctx.Fail(file.error());
  // CSV, JSON lines and JSON stream batch by batch, as `floe scan` writes them; the table is laid
  // out once every row is in (its column widths need them all).
  if (const std::optional<ScanTextFormat> streamed = StreamedFormat(*format)) {
    auto written = file->WriteText(*streamed, args.limit, std::cout);
    if (!written) return ctx.Fail(written.error());
    return kExitOk;
  }
  Listing listing{file->columns(), {}};
  auto read = file->ForEachRow(args.limit, [&](std::vector<ListedCell>&& cells) -> Result<bool> {
    listing.rows.push_back(ListingRow(std::move(cells)));
    return true;
  });
  if (!read) return ctx.Fail(read.error());
  PrintListing(listing, *format, std::cout);
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
    auto text = InspectFile(path, InspectOptions{allow_moved_paths});
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
