// A writer whose commit loses to another writer's parses the winner's document for its retry,
// reusing what it already holds of the table's history (catalog/metadata_cache.h): here its
// cached base, as the winner commits just before the writer's swap. The table it then commits
// on is exactly the winner's. (A swap lost after the document was written reuses the lost
// document instead: metadata_cache_test.cc.)
#include <gtest/gtest.h>

#include "catalog/commit.h"
#include "table_files/metadata_cache.h"
#include "meta/metadata_json.h"
#include "rows/row_writes.h"
#include "rows/table_test_util.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::OnFirstAttempt;
using txn_test::OrdersTable;

TEST(LostSwapReload, TheRetryParsesTheWinnersDocumentReusingWhatItHad) {
  OrdersTable t;
  for (int64_t i = 1; i <= 5; ++i) ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{i, "DE", i}})).has_value());
  PointerStore* store = t.catalog().capabilities().pointer_store;
  ASSERT_NE(store, nullptr);
  MetadataCache* cache = store->metadata_cache();
  ASSERT_NE(cache, nullptr);
  const size_t reused_before = cache->reused_snapshots();

  auto b = t.Open();
  RowWriteOptions a_options;
  a_options.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{10, "FR", 1}})).has_value()); });
  auto a = AppendBatch(t.catalog(), t.id(), Batch({{20, "DE", 2}}), a_options);
  ASSERT_TRUE(a.has_value()) << a.error().message;
  EXPECT_EQ(a->commit.attempts, 2);
  // Only B's snapshot was parsed: the five before it came from A's own earlier document.
  EXPECT_EQ(cache->reused_snapshots() - reused_before, 5u);

  // A's commit landed on exactly B's state: the document reads the same both ways.
  auto loaded = t.catalog().LoadTable(t.id());
  ASSERT_TRUE(loaded.has_value());
  auto text = t.catalog().io()->ReadAll(loaded->metadata_location);
  ASSERT_TRUE(text.has_value());
  auto full = ParseTableMetadata(*text);
  ASSERT_TRUE(full.has_value()) << full.error().message;
  EXPECT_EQ(TableMetadataToJson(loaded->metadata), TableMetadataToJson(*full));
  EXPECT_EQ(full->snapshots.size(), 7u);
  EXPECT_EQ(t.Rows().size(), 7u);
}

}  // namespace
}  // namespace floe
