// Creates a catalog, a namespace and a partitioned table, appends rows, and reads them back.
//   create_and_append <folder>   (the folder holds the SQLite catalog and the table's files)
#include <cstdio>
#include <string>

#include <floe/floe.h>

namespace {

floe::Status Run(const std::string& folder) {
  FLOE_ASSIGN_OR_RETURN(floe::Connection catalog, floe::Connection::Open("sqlite://" + folder + "/catalog.db"));
  FLOE_RETURN_IF_ERROR(catalog.CreateNamespace("sales"));
  floe::TableDefinition definition;
  definition.schema = "order_id long not null, country string, amount decimal(10,2), ts timestamp";
  definition.partition_by = "country";
  FLOE_ASSIGN_OR_RETURN(floe::Table orders, catalog.CreateTable("sales.orders", definition));

  floe::Rows rows;
  rows.columns = {"order_id", "country", "amount", "ts"};
  rows.rows = {{int64_t{1}, "DE", "12.50", "2026-12-01T09:00:00"},
               {int64_t{2}, "FR", "7.25", "2026-12-01T09:05:00"},
               {int64_t{3}, "DE", "99.99", "2026-12-01T09:10:00"}};
  FLOE_ASSIGN_OR_RETURN(floe::CommitInfo appended, orders.Append(rows));
  std::printf("appended %lld rows: %s\n", static_cast<long long>(appended.rows_added), appended.summary.c_str());

  FLOE_ASSIGN_OR_RETURN(floe::Rows all, orders.Scan());
  for (size_t r = 0; r < all.size(); ++r)
    std::printf("%s %s %s\n", floe::CellToString(all.At(r, "order_id")).c_str(),
                floe::CellToString(all.At(r, "country")).c_str(), floe::CellToString(all.At(r, "amount")).c_str());
  if (all.size() != 3) return floe::Corrupt("expected 3 rows, read " + std::to_string(all.size()));
  return floe::Ok();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <folder>\n", argv[0]);
    return 2;
  }
  floe::Status done = Run(argv[1]);
  if (!done) {
    std::fprintf(stderr, "create_and_append: %s\n", done.error().ToString().c_str());
    return 1;
  }
  std::printf("create_and_append: ok (floe %s)\n", FLOE_VERSION);
  return 0;
}
