// What a writer pays for losing a race on S3, end to end through the commit engine and the
// storage catalog: between its refused PUT If-None-Match of v<N+1> and its landed retry it
// reads the winner's document (with the HEAD of v<N+2>, one round trip) and the winner's
// manifest list, nothing else (no hint, no probe before the read), and once landed it deletes
// its lost attempt's manifest list in one DeleteObjects request, not a DELETE per file. And
// what a turn saves a thread that lost to another thread's commits (below).
#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "catalog/catalog_test_env.h"
#include "catalog/storage/storage_catalog.h"
#include "contention/contention_scheduler.h"
#include "commit/commit_operation.h"
#include "commit/operations.h"
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

// Threads of one process on separate catalog objects take turns (contention/table_turns.h), and a turn
// hands on where the attempts before it left the table: a writer that lost to five commits of
// another thread reloads with one GET of the newest document and one HEAD after it, not a HEAD
// per version landed since. Without turns the same reload walks forward HEAD by HEAD.
int64_t HeadsOfAReloadPastFiveVersions(bool take_turns) {
  auto config = TestS3Config();
  auto other_io = std::make_shared<S3FileIO>(*config);
  auto writer_io = std::make_shared<S3FileIO>(*config);
  const std::string warehouse = TestS3Prefix(take_turns ? "turn-reload" : "race-reload");
  StorageCatalog other("o", warehouse, other_io);
  StorageCatalog writer("w", warehouse, writer_io);
  EXPECT_TRUE(other.CreateNamespace(kTable.ns, {}));
  EXPECT_TRUE(other.CreateTable(kTable, CreateTableRequest{testing_env::SimpleSchema()}));
  std::vector<DataFile> others;
  for (int i = 0; i < 5; ++i) others.push_back(OneRowFile(other, 10 + i));
  DataFile mine = OneRowFile(writer, 1);

  S3RequestCounts at_swap;
  ContentionScheduler process;  // the two threads' commits meet in it, as a program's do
  CommitOptions options;
  options.take_turns = take_turns;
  options.scheduler = &process;
  options.before_swap = [&](int attempt) {
    if (attempt != 1) return;
    // Another thread commits five times through its own catalog object (v2..v6) before this
    // swap. With turns it waits for this attempt's turn until the turn limit passes it by.
    std::thread another([&] {
      CommitOptions theirs;
      theirs.take_turns = take_turns;
      theirs.scheduler = &process;
      for (const DataFile& f : others) {
        FilesOperation append(FastAppend({f}));
        EXPECT_TRUE(CommitOperation(other, kTable, append, theirs));
      }
      other.WaitForHintWrite();
    });
    another.join();
    at_swap = writer_io->RequestCounts();
  };
  FilesOperation append(FastAppend({mine}));
  auto report = CommitOperation(writer, kTable, append, options);
  EXPECT_TRUE(report) << report.error().ToString();
  if (!report) return -1;
  writer.WaitForHintWrite();
  const int64_t heads = (writer_io->RequestCounts() - at_swap).head;
  EXPECT_EQ(report->attempts, 2);
  auto table = StorageCatalog("r", warehouse, std::make_shared<S3FileIO>(*config)).LoadTable(kTable);
  EXPECT_TRUE(table);
  if (table) {
    EXPECT_EQ(table->metadata_location, warehouse + "/db/t/metadata/v7.metadata.json");
    EXPECT_EQ(table->metadata.snapshots.size(), 6u);
  }
  return heads;
}

TEST(S3LostRace, ATurnHandsOnWhereTheTableIsSoAReloadDoesNotWalkEveryVersion) {
  auto config = TestS3Config();
  if (!config) GTEST_SKIP() << kNoS3Message;
  ASSERT_NE(TestS3FileIO(), nullptr) << "cannot reach the test S3 server at " << config->endpoint;
  const int64_t with_turns = HeadsOfAReloadPastFiveVersions(true);
  const int64_t racing = HeadsOfAReloadPastFiveVersions(false);
  EXPECT_GE(with_turns, 0);
  EXPECT_LE(with_turns, 1) << "the HEAD of v7 only";
  EXPECT_GE(racing, 4) << "a HEAD per version from v3 on";
}

}  // namespace
}  // namespace floe
