// Table::AppendBatches (floe/table.h): rows handed out batch by batch land as one snapshot; an
// error from the producer stops the write with nothing committed.
#include <filesystem>

#include <gtest/gtest.h>

#include "floe/floe.h"
#include "util/uuid.h"

namespace floe {
namespace {

TEST(PublicAppendBatches, BatchesLandAsOneSnapshotAndAProducerErrorCommitsNothing) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("floe-batches-" + RandomUuidString().substr(0, 12))).string();
  std::filesystem::create_directories(dir);
  auto catalog = Connection::Open("sqlite://" + dir + "/catalog.db");
  ASSERT_TRUE(catalog.has_value()) << catalog.error().message;
  ASSERT_TRUE(catalog->CreateNamespace("db").has_value());
  auto table = catalog->CreateTable("db.t", {.schema = "id long not null, ts timestamp", .partition_by = "day(ts)"});
  ASSERT_TRUE(table.has_value()) << table.error().message;

  int calls = 0;
  auto landed = table->AppendBatches([&](Rows* batch) -> Result<bool> {
    if (calls == 3) return false;
    EXPECT_TRUE(batch->rows.empty());  // cleared before each call
    batch->columns = {"id", "ts"};
    for (int64_t i = 0; i < 100; ++i) batch->rows.push_back({calls * 100 + i, std::string("2026-01-0") + std::to_string(1 + calls) + "T10:00:00"});
    ++calls;
    return true;
  });
  ASSERT_TRUE(landed.has_value()) << landed.error().message;
  EXPECT_EQ(landed->rows_added, 300);
  EXPECT_EQ(landed->files_added, 3);  // one per day
  auto snapshots = table->Snapshots();
  ASSERT_TRUE(snapshots.has_value());
  EXPECT_EQ(snapshots->size(), 1u);

  auto failed = table->AppendBatches([&](Rows* batch) -> Result<bool> {
    batch->columns = {"id"};
    batch->rows = {{int64_t{1}}};
    if (batch->rows.size() == 1 && calls++ > 3) return IOError("the source went away");
    return true;
  });
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().kind, ErrorKind::kIOError);
  EXPECT_EQ(table->Snapshots()->size(), 1u);
  auto rows = table->Scan();
  ASSERT_TRUE(rows.has_value());
  EXPECT_EQ(rows->size(), 300u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace floe
