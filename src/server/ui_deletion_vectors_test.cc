// The web view's deletion vectors (issue 37): a format 3 table's page lists each data file that
// a vector deletes from, with its rows, the rows deleted and where the vector is; written by
// floe's own merge-on-read deletes on a real SQLite catalog, read back through the /ui route.
#include "server/ui_deletion_vectors.h"

#include <gtest/gtest.h>

#include "rows/row_writes.h"
#include "rows/table_test_util.h"
#include "scan/table_scan.h"
#include "server/ui_routes.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::Order;
using txn_test::OrdersTable;
using txn_test::Where;

const std::map<std::string, std::string> kMergeOnRead = {{"write.delete.mode", "merge-on-read"}};

std::vector<Order> FourOrders() { return {{1, "DE", 100}, {2, "DE", 200}, {3, "FR", 300}, {4, "FR", 400}}; }

std::string Page(OrdersTable& t) {
  TableActivity activity;
  UiReply reply = HandleUi(t.catalog(), "/ui/namespaces/sales/tables/orders", nullptr, activity, 0);
  EXPECT_EQ(reply.status, 200) << reply.html;
  return reply.html;
}

std::string DataFileOf(OrdersTable& t, const std::string& country) {
  auto tasks = PlanFiles(*t.catalog().io(), t.Metadata(), ScanOptions{});
  EXPECT_TRUE(tasks.has_value());
  for (const auto& task : tasks.value_or(std::vector<FileScanTask>{})) {
    if (task.file.partition.size() == 1 && task.file.partition[0] == Literal::String(country)) return task.file.file_path;
  }
  return "";
}

TEST(UiDeletionVectors, AV3TablePageListsTheVectorOfEachDataFile) {
  OrdersTable t("country", kMergeOnRead, 3);
  ASSERT_EQ(t.id().name, "orders");
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  EXPECT_NE(Page(t).find("no data file has a deletion vector"), std::string::npos);

  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 2 OR order_id = 3")).has_value());
  // A second delete on the DE file: its new vector carries the first delete and replaces it.
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 1")).has_value());

  auto vectors = DeletionVectorsOf(*t.catalog().io(), t.Metadata(), 10);
  ASSERT_TRUE(vectors) << vectors.error().ToString();
  EXPECT_EQ(vectors->vectors, 2);
  EXPECT_EQ(vectors->deleted_rows, 3);
  ASSERT_EQ(vectors->shown.size(), 2u);
  const UiDeletionVector& de = vectors->shown[0];  // most rows deleted first
  EXPECT_EQ(de.data_file, DataFileOf(t, "DE"));
  EXPECT_EQ(de.data_rows, 2);
  EXPECT_EQ(de.deleted_rows, 2);
  EXPECT_NE(de.puffin_file.find(".puffin"), std::string::npos) << de.puffin_file;
  EXPECT_GT(de.length, 0);
  const UiDeletionVector& fr = vectors->shown[1];
  EXPECT_EQ(fr.data_file, DataFileOf(t, "FR"));
  EXPECT_EQ(fr.deleted_rows, 1);
  EXPECT_NE(fr.puffin_file, de.puffin_file);  // written by the first delete

  const std::string html = Page(t);
  EXPECT_NE(html.find("<h2>Deletion vectors</h2>"), std::string::npos);
  EXPECT_NE(html.find("2 data files with a deletion vector, 3 rows deleted"), std::string::npos) << html;
  // One row per data file: its path, rows, deleted, live, and the vector.
  EXPECT_NE(html.find("<tr><td><code>" + de.data_file + "</code></td><td>2</td><td>2</td><td>0</td>"),
            std::string::npos) << html;
  EXPECT_NE(html.find("<tr><td><code>" + fr.data_file + "</code></td><td>2</td><td>1</td><td>1</td>"),
            std::string::npos) << html;

  // The limit keeps the data files with most rows deleted and says so.
  auto one = DeletionVectorsOf(*t.catalog().io(), t.Metadata(), 1);
  ASSERT_TRUE(one);
  ASSERT_EQ(one->shown.size(), 1u);
  EXPECT_EQ(one->shown[0].data_file, de.data_file);
  EXPECT_EQ(one->vectors, 2);
}

TEST(UiDeletionVectors, AV2TablePageHasNoSuchSection) {
  OrdersTable t("country", {{"write.delete.mode", "merge-on-read"}}, 2);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 2")).has_value());  // a position delete file
  auto vectors = DeletionVectorsOf(*t.catalog().io(), t.Metadata(), 10);
  ASSERT_TRUE(vectors);
  EXPECT_EQ(vectors->vectors, 0);
  EXPECT_EQ(Page(t).find("Deletion vectors"), std::string::npos);
}

}  // namespace
}  // namespace floe
