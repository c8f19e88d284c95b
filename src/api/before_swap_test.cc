// WriteOptions::before_swap (floe/table.h): another writer landing in the hook makes this one
// lose its first swap and land on top, every row of both kept; the idempotency of a replay
// is untouched by the hook.
#include <filesystem>

#include <gtest/gtest.h>

#include "floe/floe.h"
#include "util/uuid.h"

namespace floe {
namespace {

TEST(PublicBeforeSwap, AWriterLandingInTheHookMakesThisOneRetryOnTop) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("floe-swap-" + RandomUuidString().substr(0, 12))).string();
  std::filesystem::create_directories(dir);
  const std::string uri = "sqlite://" + dir + "/catalog.db";
  auto x_catalog = Connection::Open(uri);
  auto y_catalog = Connection::Open(uri);  // its own connection: commits as another process would
  ASSERT_TRUE(x_catalog.has_value() && y_catalog.has_value());
  ASSERT_TRUE(x_catalog->CreateNamespace("db").has_value());
  auto x = x_catalog->CreateTable("db.t", {.schema = "id long not null"});
  ASSERT_TRUE(x.has_value()) << x.error().message;
  auto y = y_catalog->GetTable("db.t");
  ASSERT_TRUE(y.has_value());

  Rows x_rows{{"id"}, {{int64_t{1}}, {int64_t{2}}}};
  Rows y_rows{{"id"}, {{int64_t{3}}}};
  std::vector<int> attempts_seen;
  int64_t y_snapshot = 0;
  WriteOptions options;
  options.before_swap = [&](int attempt) {
    attempts_seen.push_back(attempt);
    if (attempt != 1) return;
    auto landed = y->Append(y_rows);
    ASSERT_TRUE(landed.has_value()) << landed.error().message;
    y_snapshot = landed->snapshot_id;
  };
  auto landed = x->Append(x_rows, options);
  ASSERT_TRUE(landed.has_value()) << landed.error().message;
  EXPECT_EQ(attempts_seen, (std::vector<int>{1, 2}));
  EXPECT_EQ(landed->attempts, 2);
  EXPECT_EQ(landed->conflicts, 1);
  auto snapshots = x->Snapshots();
  ASSERT_TRUE(snapshots.has_value());
  ASSERT_EQ(snapshots->size(), 2u);
  EXPECT_EQ(snapshots->back().parent_id, y_snapshot);  // X landed on top of Y
  auto rows = x->Scan();
  ASSERT_TRUE(rows.has_value());
  EXPECT_EQ(rows->size(), 3u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace floe
