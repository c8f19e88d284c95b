// write.metadata.delete-after-commit.enabled with write.metadata.previous-versions-max: a
// commit deletes the metadata documents that fell out of the metadata log, as Iceberg's
// writers do; without it every document stays.
#include <gtest/gtest.h>

#include "maint/maint_test_util.h"
#include "rows/row_writes.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::OrdersTable;

std::set<std::string> Documents(OrdersTable& t) {
  std::set<std::string> out;
  for (const auto& f : maint_test::FilesOnDisk(maint_test::LocalPathOf(t.Metadata().location)))
    if (f.ends_with(".metadata.json")) out.insert(f);
  return out;
}

TEST(MetadataRetention, DeleteAfterCommitKeepsOnlyTheLoggedDocuments) {
  OrdersTable t("", {{"write.metadata.delete-after-commit.enabled", "true"},
                     {"write.metadata.previous-versions-max", "2"}});
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{i, "DE", i}})).has_value());
  const TableMetadata m = t.Metadata();
  ASSERT_EQ(m.metadata_log.size(), 2u);
  std::set<std::string> expected;
  for (const auto& e : m.metadata_log) expected.insert(maint_test::LocalPathOf(e.metadata_file));
  auto loaded = t.catalog().LoadTable(t.id());
  expected.insert(maint_test::LocalPathOf(loaded->metadata_location));
  EXPECT_EQ(Documents(t), expected);
  EXPECT_EQ(t.Rows().size(), 5u);
}

TEST(MetadataRetention, WithoutItEveryDocumentStays) {
  OrdersTable t("", {{"write.metadata.previous-versions-max", "2"}});
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{i, "DE", i}})).has_value());
  EXPECT_EQ(Documents(t).size(), 6u);  // the create and five appends
}

}  // namespace
}  // namespace floe
