// A commit's manifests and manifest list are made durable while the commit goes on (the list
// on another thread, beside the catalog's document write). When one of those writes fails,
// the commit must fail cleanly: no swap, the table as it was, and nothing of it left behind.
#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include "catalog/fault_injecting_catalog.h"
#include "io/fault_injecting_file_io.h"
#include "commit/commit_operation.h"
#include "commit/operations.h"
#include "rows/row_writes.h"
#include "rows/table_test_util.h"
#include "write/data_writer.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::Order;
using txn_test::OrdersTable;

std::set<std::string> FilesUnder(const std::string& folder) {
  std::set<std::string> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder))
    if (entry.is_regular_file()) out.insert(entry.path().string());
  return out;
}

// Appends one new data file through a catalog whose writer-side FileIO fails the first create
// of a file whose path contains `failing`.
void ExpectAppendFailsCleanly(const std::string& failing) {
  SCOPED_TRACE(failing);
  OrdersTable table;
  ASSERT_TRUE(AppendBatch(table.catalog(), table.id(), Batch({{1, "DE", 10}})));
  const TableMetadata before = table.Metadata();

  DataWriter writer(*table.catalog().io(), before);
  ASSERT_TRUE(writer.Write(Batch({{2, "DE", 20}})));
  auto data_files = writer.Finish();
  ASSERT_TRUE(data_files);
  const auto files_before = FilesUnder(before.location);

  auto faulty_io = std::make_shared<FaultInjectingFileIO>(table.catalog().io());
  faulty_io->AddRule({.op = FileOp::kCreateIfAbsent, .path_contains = failing});
  FaultInjectingCatalog catalog(table.Open());
  catalog.HandOutFileIO(faulty_io);

  FilesOperation op(FastAppend(*data_files));
  auto committed = CommitOperation(catalog, table.id(), op);
  ASSERT_FALSE(committed);
  EXPECT_EQ(committed.error().kind, ErrorKind::kIOError) << committed.error().ToString();
  EXPECT_NE(committed.error().message.find("injected"), std::string::npos) << committed.error().ToString();

  const TableMetadata after = table.Metadata();
  EXPECT_EQ(after.CurrentSnapshot()->snapshot_id, before.CurrentSnapshot()->snapshot_id);
  EXPECT_EQ(after.snapshots.size(), before.snapshots.size());
  EXPECT_EQ(table.Rows(), (std::vector<Order>{{1, "DE", 10}}));
  EXPECT_EQ(FilesUnder(before.location), files_before);  // no manifest, list or document left
}

TEST(FileWriteFailure, AFailedManifestWriteFailsTheCommitAndLeavesNothing) { ExpectAppendFailsCleanly("-m0.avro"); }

TEST(FileWriteFailure, AFailedManifestListWriteFailsTheCommitAndLeavesNothing) { ExpectAppendFailsCleanly("/snap-"); }

}  // namespace
}  // namespace floe
