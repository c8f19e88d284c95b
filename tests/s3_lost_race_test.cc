// What a writer pays for losing a race on S3, end to end through the commit engine and the
// storage catalog: between its refused PUT If-None-Match of v<N+1> and its landed retry it
// reads the winner's document (with the HEAD of v<N+2>, one round trip) and the winner's
// manifest list, nothing else (no hint, no probe before the read), and once landed it deletes
// its lost attempt's manifest list in one DeleteObjects request, not a DELETE per file.
#include <gtest/gtest.h>

#include <set>

#include "catalog/catalog_test_env.h"
#include "catalog/storage/storage_catalog.h"
#include "txn/commit_loop.h"
#include "txn/operations.h"
#include "write/data_writer.h"

namespace floe {
namespace {

const TableIdentifier kTable{{"db"}, "t"};

DataFile OneRowFile(Catalog& catalog, int64_t id) {
  const TableMetadata table = catalog.LoadTable(kTable).value().metadata;
  ColumnBatch batch(table.CurrentSchema());
  EXPECT_TRUE(batch.AppendRow({Literal::Long(id), Literal::String("row")}));
  DataWriter writer(*catalog.io(), table);
  EXPECT_TRUE(writer.Write(batch));
  auto files = writer.Finish();
  EXPECT_TRUE(files && files->size() == 1);
  return files->front();
}

TEST(S3LostRace, ALoserReadsOnlyTheWinnersDocumentAndListAndDeletesItsLostListInOneRequest) {
  auto config = TestS3Config();
  if (!config) GTEST_SKIP() << kNoS3Message;
  ASSERT_NE(TestS3FileIO(), nullptr) << "cannot reach the test S3 server at " << config->endpoint;
  // Two writers as two processes: a FileIO and a catalog each, nothing shared in memory.
  auto winner_io = std::make_shared<S3FileIO>(*config);
  auto loser_io = std::make_shared<S3FileIO>(*config);
  const std::string warehouse = TestS3Prefix("lost-race");
  StorageCatalog winner("w", warehouse, winner_io);
  StorageCatalog loser("l", warehouse, loser_io);
  ASSERT_TRUE(winner.CreateNamespace(kTable.ns, {}));
  ASSERT_TRUE(winner.CreateTable(kTable, CreateTableRequest{testing_env::SimpleSchema()}));
  DataFile won = OneRowFile(winner, 1);
  DataFile lost = OneRowFile(loser, 2);

  S3RequestCounts at_swap;
  CommitOptions options;
  options.before_swap = [&](int attempt) {
    if (attempt != 1) return;
    FilesOperation first(FastAppend({won}));
    ASSERT_TRUE(CommitOperation(winner, kTable, first));  // v2, before the loser's swap
    winner.WaitForHintWrite();
    at_swap = loser_io->RequestCounts();
  };
  FilesOperation append(FastAppend({lost}));
  auto report = CommitOperation(loser, kTable, append, options);
  ASSERT_TRUE(report) << report.error().ToString();
  loser.WaitForHintWrite();
  const S3RequestCounts after = loser_io->RequestCounts();
  EXPECT_EQ(report->attempts, 2);
  EXPECT_EQ(report->conflicts, 1);
  EXPECT_EQ(after.get - at_swap.get, 2) << "the winner's v2 and its manifest list";
  EXPECT_EQ(after.head - at_swap.head, 1) << "v3";
  EXPECT_EQ(after.list - at_swap.list, 0);
  EXPECT_EQ(after.del - at_swap.del, 0);
  EXPECT_EQ(after.post - at_swap.post, 1) << "the lost attempt's manifest list, in one DeleteObjects";

  // Both appends landed, once each, at v2 and v3; the lost attempt's manifest list is gone.
  StorageCatalog reader("r", warehouse, std::make_shared<S3FileIO>(*config));
  auto table = reader.LoadTable(kTable);
  ASSERT_TRUE(table) << table.error().ToString();
  EXPECT_EQ(table->metadata_location, warehouse + "/db/t/metadata/v3.metadata.json");
  ASSERT_EQ(table->metadata.snapshots.size(), 2u);
  std::set<std::string> lists;
  for (const auto& snapshot : table->metadata.snapshots) lists.insert(snapshot.manifest_list);
  auto objects = loser_io->ListPrefix(warehouse + "/db/t/metadata/snap-");
  ASSERT_TRUE(objects) << objects.error().ToString();
  for (const auto& object : *objects) EXPECT_TRUE(lists.contains(object.path)) << object.path << " is left over";
}

}  // namespace
}  // namespace floe
