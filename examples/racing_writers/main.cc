// Two writers in one program, each with its own connection, append to one table at the same
// time. Each loses some swaps to the other, retries on top of it, and every append lands.
//   racing_writers <folder>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <floe/floe.h>

namespace {

constexpr int kAppendsPerWriter = 10;

struct Tally {
  int landed = 0, attempts = 0, conflicts = 0;
  std::string error;
};

void Write(const std::string& uri, int writer, Tally* tally) {
  auto catalog = floe::Connection::Open(uri);
  auto orders = catalog ? catalog->LoadTable("sales.orders") : std::unexpected(catalog.error());
  if (!orders) {
    tally->error = orders.error().ToString();
    return;
  }
  for (int i = 0; i < kAppendsPerWriter; ++i) {
    floe::Rows rows;
    rows.columns = {"writer", "seq"};
    rows.rows = {{int64_t{writer}, int64_t{i}}};
    auto appended = orders->Append(rows);
    if (!appended) {
      tally->error = appended.error().ToString();
      return;
    }
    ++tally->landed;
    tally->attempts += appended->attempts;
    tally->conflicts += appended->conflicts;
  }
}

floe::Status Run(const std::string& folder) {
  const std::string uri = "sqlite://" + folder + "/catalog.db";
  FLOE_ASSIGN_OR_RETURN(floe::Connection catalog, floe::Connection::Open(uri));
  FLOE_RETURN_IF_ERROR(catalog.CreateNamespace("sales"));
  floe::TableDefinition definition;
  definition.schema = "writer long not null, seq long not null";
  definition.properties = {{"commit.retry.num-retries", "100"}, {"commit.retry.min-wait-ms", "1"},
                           {"commit.retry.max-wait-ms", "50"}};
  FLOE_ASSIGN_OR_RETURN(floe::Table orders, catalog.CreateTable("sales.orders", definition));

  Tally a, b;
  std::thread first(Write, uri, 1, &a), second(Write, uri, 2, &b);
  first.join();
  second.join();
  for (const Tally* t : {&a, &b}) {
    if (!t->error.empty()) return floe::CommitConflict("a writer failed: " + t->error);
    std::printf("writer: %d appends landed in %d attempts (%d swaps lost to the other)\n", t->landed, t->attempts,
                t->conflicts);
  }
  FLOE_ASSIGN_OR_RETURN(floe::Rows all, orders.Scan());
  FLOE_ASSIGN_OR_RETURN(std::vector<floe::SnapshotInfo> snapshots, orders.Snapshots());
  std::printf("rows: %zu, snapshots: %zu\n", all.size(), snapshots.size());
  if (all.size() != 2 * kAppendsPerWriter || snapshots.size() != 2 * kAppendsPerWriter)
    return floe::Corrupt("expected " + std::to_string(2 * kAppendsPerWriter) + " rows and snapshots");
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
    std::fprintf(stderr, "racing_writers: %s\n", done.error().ToString().c_str());
    return 1;
  }
  std::printf("racing_writers: ok\n");
  return 0;
}
