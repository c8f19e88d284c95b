// A write intent's record whose answer was lost (the database went down after the insert
// landed) must not make the next record of the same write collide with it: the write goes on
// naming files under the same attempt.
#include <gtest/gtest.h>

#include "catalog/catalog.h"
#include "catalog/catalog_test_env.h"
#include "catalog/fault_injecting_catalog.h"
#include "catalog/intent_store.h"
#include "table_files/metadata_location.h"

namespace floe {
namespace {

TEST(IntentLostAnswer, TheNextRecordOfTheWriteTakesTheNextBatchNumber) {
  testing_env::TempDir dir;
  auto opened = OpenCatalog("sqlite://" + dir.path() + "/wh/catalog.db");
  ASSERT_TRUE(opened) << opened.error().ToString();
  FaultInjectingCatalog catalog(std::move(*opened));
  const TableIdentifier id{{"db"}, "t"};
  ASSERT_TRUE(catalog.CreateNamespace({"db"}, {}));
  CreateTableRequest request;
  request.schema = testing_env::SimpleSchema();
  auto table = catalog.CreateTable(id, request);
  ASSERT_TRUE(table) << table.error().ToString();
  catalog.LoseIntentAnswerWhen([](int record) { return record == 1; });

  auto namer = NewIntentNamer(catalog, id, table->metadata);
  ASSERT_TRUE(namer);
  const std::string folder = MetadataFolder(table->metadata);
  auto lost = namer->NewPath(folder, "snap-1-", ".avro");
  ASSERT_FALSE(lost);  // its record landed, but the writer was told it failed
  EXPECT_NE(lost.error().message.find("injected"), std::string::npos) << lost.error().ToString();
  auto next = namer->NewPath(folder, "snap-2-", ".avro");
  ASSERT_TRUE(next) << next.error().ToString();  // before: a duplicate key on (attempt, batch 0)

  IntentStore* store = catalog.capabilities().intent_store;
  ASSERT_NE(store, nullptr);
  auto batches = store->ListIntents(id, folder);
  ASSERT_TRUE(batches) << batches.error().ToString();
  ASSERT_EQ(batches->size(), 2u);  // the lost one and the next, under one attempt
  EXPECT_EQ((*batches)[0].attempt_id, (*batches)[1].attempt_id);
  EXPECT_NE((*batches)[0].batch_number, (*batches)[1].batch_number);
  bool named = false;
  for (const auto& b : *batches)
    for (const auto& p : b.paths) named = named || p == *next;
  EXPECT_TRUE(named) << *next << " is in no recorded batch";
  EXPECT_TRUE(namer->Clear());
}

}  // namespace
}  // namespace floe
