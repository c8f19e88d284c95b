// Scans with a filter, then reads the table as it was before the last append (time travel by
// snapshot id and by time).
//   scan_time_travel <folder>
#include <cstdio>
#include <string>

#include <floe/floe.h>

namespace {

floe::Rows Orders(std::initializer_list<std::pair<int64_t, const char*>> orders) {
  floe::Rows rows;
  rows.columns = {"order_id", "country"};
  for (const auto& [id, country] : orders) rows.rows.push_back({id, std::string(country)});
  return rows;
}

floe::Status Expect(size_t got, size_t want, const char* what) {
  std::printf("%s: %zu rows\n", what, got);
  if (got != want) return floe::Corrupt(std::string(what) + ": expected " + std::to_string(want) + " rows");
  return floe::Ok();
}

floe::Status Run(const std::string& folder) {
  FLOE_ASSIGN_OR_RETURN(floe::Connection catalog, floe::Connection::Open("sqlite://" + folder + "/catalog.db"));
  FLOE_RETURN_IF_ERROR(catalog.CreateNamespace("sales"));
  FLOE_ASSIGN_OR_RETURN(floe::Table orders,
                        catalog.CreateTable("sales.orders", {.schema = "order_id long not null, country string"}));
  FLOE_ASSIGN_OR_RETURN(floe::CommitInfo first, orders.Append(Orders({{1, "DE"}, {2, "FR"}, {3, "DE"}})));
  FLOE_ASSIGN_OR_RETURN(floe::CommitInfo second, orders.Append(Orders({{4, "DE"}, {5, "NL"}})));

  FLOE_ASSIGN_OR_RETURN(floe::Filter german, floe::Filter::Parse("country = 'DE'"));
  floe::ScanRequest now;
  now.filter = german;
  FLOE_ASSIGN_OR_RETURN(floe::Rows german_now, orders.Scan(now));
  FLOE_RETURN_IF_ERROR(Expect(german_now.size(), 3, "country = 'DE' now"));

  floe::ScanRequest before = now;  // the same filter on the first snapshot
  before.snapshot_id = first.snapshot_id;
  FLOE_ASSIGN_OR_RETURN(floe::Rows german_before, orders.Scan(before));
  FLOE_RETURN_IF_ERROR(Expect(german_before.size(), 2, "country = 'DE' at the first snapshot"));

  FLOE_ASSIGN_OR_RETURN(std::vector<floe::SnapshotInfo> snapshots, orders.Snapshots());
  floe::ScanRequest as_of;  // the snapshot current when the first append committed
  as_of.as_of_ms = snapshots.front().timestamp_ms;
  as_of.columns = {"order_id"};
  FLOE_ASSIGN_OR_RETURN(floe::Rows then, orders.Scan(as_of));
  FLOE_RETURN_IF_ERROR(Expect(then.size(), 3, "every order as of the first commit"));
  if (then.columns.size() != 1) return floe::Corrupt("expected only the order_id column");
  std::printf("snapshots: %zu, latest %lld\n", snapshots.size(), static_cast<long long>(second.snapshot_id));
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
    std::fprintf(stderr, "scan_time_travel: %s\n", done.error().ToString().c_str());
    return 1;
  }
  std::printf("scan_time_travel: ok\n");
  return 0;
}
