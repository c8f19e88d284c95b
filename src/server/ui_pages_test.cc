#include "server/ui_pages.h"

#include <regex>

#include <gtest/gtest.h>

#include "meta/meta_test_util.h"

namespace floe {
namespace {

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TableMetadata TableWithHistory(int snapshots) {
  TableMetadata m = testing::NewSampleTable();
  for (int i = 1; i <= snapshots; ++i) {
    std::optional<int64_t> parent;
    if (i > 1) parent = i - 1;
    m.snapshots.push_back(testing::MakeSnapshot(i, parent, i, 1000 + i));
  }
  if (snapshots > 0) {
    m.current_snapshot_id = snapshots;
    m.refs["main"] = testing::Branch(snapshots);
  }
  return m;
}

TEST(UiPages, TablePageShowsSchemaSpecHistoryAndFiles) {
  TableMetadata m = TableWithHistory(3);
  m.snapshots.push_back(testing::MakeSnapshot(10, 1, 4, 2000));  // a branch off the first snapshot
  m.refs["audit"] = testing::Branch(10);
  m.refs["v1"] = SnapshotRef{1, RefType::kTag, {}, {}, {}};
  TableStats stats;
  stats.total.data_files = 3;
  PartitionStats p;
  p.partition = R"({"ts_day":"2026-01-01"})";
  p.data_files = 3;
  p.size_histogram[0] = 3;
  stats.partitions.push_back(p);
  stats.total.size_histogram[0] = 3;
  UiTable t{"sales", "orders", "/w/sales/orders/metadata/00004.metadata.json", &m, &stats, "", {}};
  t.activity.counts[0][59] = 7;
  std::string html = UiTablePage(t);
  EXPECT_NE(html.find("<title>sales.orders - floe</title>"), std::string::npos);
  EXPECT_NE(html.find("<code>timestamptz</code>"), std::string::npos) << "the schema's types";
  EXPECT_NE(html.find("<code>day</code>"), std::string::npos) << "the partition transform";
  EXPECT_EQ(Count(html, "class=\"snapshot\""), 4u) << "one dot per snapshot";
  EXPECT_NE(html.find("[main]"), std::string::npos);
  EXPECT_NE(html.find("[audit]"), std::string::npos);
  EXPECT_NE(html.find("[tag: v1]"), std::string::npos);
  EXPECT_NE(html.find("2026-01-01"), std::string::npos) << "the partition row";
  EXPECT_NE(html.find("data-kind=\"commits\" data-total=\"7\""), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos) << "no script on any page";
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg")) << "nothing fetched from elsewhere";
}

TEST(UiPages, TextFromTablesIsEscaped) {
  TableMetadata m = TableWithHistory(1);
  m.properties["comment"] = "<script>alert(1)</script>";
  m.snapshots[0].summary["operation"] = "<img src=x onerror=alert(1)>";
  UiTable t{"a<b", "t\"x", "loc", &m, nullptr, "could not read <manifest>", {}};
  std::string html = UiTablePage(t);
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("could not read &lt;manifest&gt;"), std::string::npos);
  EXPECT_NE(html.find("/ui/namespaces/a%3Cb/tables/t%22x"), std::string::npos);
  std::string list = UiTablesPage("a<b", {"<t>"});
  EXPECT_EQ(list.find("<t>"), std::string::npos);
}

TEST(UiPages, LongHistoriesDrawOnlyTheNewest) {
  TableMetadata m = TableWithHistory(1000);
  UiTable t{"a", "t", "loc", &m, nullptr, "x", {}};
  std::string html = UiTablePage(t);
  EXPECT_EQ(Count(html, "class=\"snapshot\""), 200u);
  EXPECT_NE(html.find("800 older snapshots not drawn"), std::string::npos);
  EXPECT_NE(html.find("data-snapshot-id=\"1000\""), std::string::npos) << "newest first";
}

TEST(UiPages, ListsLinkToTheirPages) {
  std::string ns = UiNamespacesPage({"sales", "ops.logs"});
  EXPECT_NE(ns.find(R"(<a href="/ui/namespaces/sales">sales</a>)"), std::string::npos);
  EXPECT_NE(ns.find(R"(<a href="/ui/namespaces/ops.logs">ops.logs</a>)"), std::string::npos);
  std::string tables = UiTablesPage("sales", {"orders"});
  EXPECT_NE(tables.find(R"(<a href="/ui/namespaces/sales/tables/orders">orders</a>)"), std::string::npos);
  EXPECT_EQ(tables.find("id=\"views\""), std::string::npos) << "no views section without views";
}

TEST(UiPages, NamespacePageListsViewsBesideTables) {
  std::string page = UiTablesPage("sales", {"orders"}, {"daily<x>"});
  EXPECT_NE(page.find("id=\"views\""), std::string::npos);
  EXPECT_NE(page.find("daily&lt;x&gt;"), std::string::npos) << "view names are escaped";
  EXPECT_NE(page.find("orders"), std::string::npos);
}

}  // namespace
}  // namespace floe
