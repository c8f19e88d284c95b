// floe history --graph and floe stats, driven as a user would.
#include <regex>

#include <nlohmann/json.hpp>

#include "cli/cli_test_fixture.h"

namespace {

class ObserveCli : public floe_cli_test::FloeCli {
 protected:
  // The snapshot ids of `floe snapshots`, oldest first.
  std::vector<std::string> SnapshotIds(const std::string& table);
};

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    out.push_back(text.substr(start, nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return out;
}

std::vector<std::string> ObserveCli::SnapshotIds(const std::string& table) {
  std::vector<std::string> ids;
  auto lines = SplitLines(Floe("snapshots " + table + " --format csv").out);
  for (size_t i = 1; i < lines.size(); ++i) {
    std::string rest = lines[i].substr(lines[i].find(',') + 1);
    ids.push_back(rest.substr(0, rest.find(',')));
  }
  return ids;
}

TEST_F(ObserveCli, HistoryGraphDrawsBranchesAndTags) {
  CreateOrders();
  Write("more.csv", "order_id,country,amount_cents,ts\n9,DE,900,2026-01-05T10:00:00\n");
  ASSERT_EQ(Floe("branch create sales.orders dev").status, 0);
  ASSERT_EQ(Floe("append sales.orders more.csv --branch dev").status, 0);
  ASSERT_EQ(Floe("append sales.orders more.csv").status, 0);
  auto ids = SnapshotIds("sales.orders");
  ASSERT_EQ(ids.size(), 3u);
  ASSERT_EQ(Floe("tag create sales.orders v1 --at " + ids[0]).status, 0);

  auto graph = Floe("history sales.orders --graph");
  ASSERT_EQ(graph.status, 0) << graph.out;
  auto lines = SplitLines(graph.out);
  // Newest first: main's head, then dev's head in a second lane, the lanes joining at the root,
  // which carries the tag.
  ASSERT_EQ(lines.size(), 4u) << graph.out;
  EXPECT_EQ(lines[0].rfind("* " + ids[2] + " (main) ", 0), 0u) << graph.out;
  EXPECT_EQ(lines[1].rfind("| * " + ids[1] + " (dev) ", 0), 0u) << graph.out;
  EXPECT_EQ(lines[2], "|/") << graph.out;
  EXPECT_EQ(lines[3].rfind("* " + ids[0] + " (tag: v1) ", 0), 0u) << graph.out;
  EXPECT_NE(lines[0].find("append  +1 files  +1 rows"), std::string::npos) << graph.out;
  EXPECT_NE(lines[3].find("+4 rows"), std::string::npos) << graph.out;
  EXPECT_TRUE(std::regex_search(lines[0], std::regex(R"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)"))) << lines[0];
}

TEST_F(ObserveCli, HistoryGraphKeepsSnapshotsNoRefReaches) {
  CreateOrders();
  Write("more.csv", "order_id,country,amount_cents,ts\n9,DE,900,2026-01-05T10:00:00\n");
  ASSERT_EQ(Floe("append sales.orders more.csv").status, 0);
  auto ids = SnapshotIds("sales.orders");
  ASSERT_EQ(ids.size(), 2u);
  ASSERT_EQ(Floe("rollback sales.orders --to " + ids[0]).status, 0);
  ASSERT_EQ(Floe("append sales.orders more.csv").status, 0);  // main moves on from the rollback
  ids = SnapshotIds("sales.orders");
  ASSERT_EQ(ids.size(), 3u);
  auto graph = Floe("history sales.orders --graph").out;
  auto lines = SplitLines(graph);
  // The rolled-back snapshot has no ref but keeps its line, in a lane of its own that joins
  // main's at the snapshot both descend from.
  ASSERT_EQ(lines.size(), 4u) << graph;
  EXPECT_EQ(lines[0].rfind("* " + ids[2] + " (main) ", 0), 0u) << graph;
  EXPECT_EQ(lines[1].rfind("| * " + ids[1] + " ", 0), 0u) << graph;
  EXPECT_EQ(lines[1].find("(main)"), std::string::npos) << graph;
  EXPECT_EQ(lines[2], "|/") << graph;
  EXPECT_EQ(lines[3].rfind("* " + ids[0] + " ", 0), 0u) << graph;
}

TEST_F(ObserveCli, StatsSummarisesPartitionsAndHints) {
  CreateOrders();
  // Eight more single-row appends into DE's day: many small files in one partition.
  for (int i = 0; i < 8; ++i) {
    Write("one.csv", "order_id,country,amount_cents,ts\n" + std::to_string(100 + i) + ",DE,1,2026-01-01T12:00:00\n");
    ASSERT_EQ(Floe("append sales.orders one.csv").status, 0);
  }
  ASSERT_EQ(Floe("delete sales.orders --where 'order_id = 4'").status, 0);
  auto json = Floe("stats sales.orders --format json");
  ASSERT_EQ(json.status, 0) << json.out;
  auto parsed = nlohmann::json::parse(json.out);
  EXPECT_EQ(parsed["snapshots"], 10);
  EXPECT_EQ(parsed["total"]["records"], 11);  // 4 + 8 - 1
  EXPECT_EQ(parsed["total"]["data_files"], 10);  // DE day 1: 1 + 8, FR: 1; US's file was deleted whole
  ASSERT_EQ(parsed["partitions"].size(), 2u);
  const auto& de = parsed["partitions"][0];
  EXPECT_EQ(de["partition"]["country"], "DE");
  EXPECT_EQ(de["data_files"], 9);
  EXPECT_EQ(de["small_files"], 9);
  EXPECT_EQ(de["file_size_histogram"]["<64K"], 9);
  ASSERT_EQ(parsed["hints"].size(), 1u);
  EXPECT_NE(parsed["hints"][0].get<std::string>().find("floe rewrite-data-files sales.orders"), std::string::npos);

  auto text = Floe("stats sales.orders");
  ASSERT_EQ(text.status, 0) << text.out;
  EXPECT_NE(text.out.find("sales.orders: 10 data files"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("history: 10 snapshots"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("hint: 1 partition(s) hold 8 or more small data files"), std::string::npos) << text.out;

  EXPECT_EQ(Floe("stats sales.orders --format xml").status, 2);
  EXPECT_EQ(Floe("stats sales.nope").status, 1);
}

// Format 3 deletes by deletion vector: stats lists each data file's deleted rows, in text and
// JSON; a format 2 merge-on-read delete is listed as position deletes.
TEST_F(ObserveCli, StatsListsDeletedRowsPerDataFile) {
  ASSERT_EQ(Floe("namespace create s").status, 0);
  ASSERT_EQ(Floe("create s.v3 --schema 'id long, name string' --format-version 3 "
                 "--property write.delete.mode=merge-on-read").status, 0);
  Write("rows.csv", "id,name\n1,a\n2,b\n3,c\n4,d\n");
  ASSERT_EQ(Floe("append s.v3 rows.csv").status, 0);
  ASSERT_EQ(Floe("append s.v3 rows.csv").status, 0);
  ASSERT_EQ(Floe("delete s.v3 --where 'id = 3'").status, 0);  // one row in each file
  ASSERT_EQ(Floe("delete s.v3 --where 'id <= 2'").status, 0);  // each file's vector grows to 3 rows

  auto json = Floe("stats s.v3 --format json");
  ASSERT_EQ(json.status, 0) << json.out;
  auto parsed = nlohmann::json::parse(json.out);
  const auto& files = parsed["file_deletes"];
  ASSERT_EQ(files.size(), 2u) << json.out;
  for (const auto& f : files) {
    EXPECT_EQ(f["records"], 4) << f;
    EXPECT_EQ(f["deletion_vector_rows"], 3) << f;
    EXPECT_EQ(f["position_delete_rows"], 0) << f;
    EXPECT_EQ(f["live_records"], 1) << f;
    EXPECT_NE(f["data_file"].get<std::string>().find(".parquet"), std::string::npos) << f;
  }
  EXPECT_EQ(Floe("scan s.v3 --format csv").out, "id,name\n4,d\n4,d\n");  // what the counts say is left

  auto text = Floe("stats s.v3");
  ASSERT_EQ(text.status, 0) << text.out;
  EXPECT_NE(text.out.find("deleted rows per data file (2 files):"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("deletion_vector_rows"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(files[0]["data_file"].get<std::string>()), std::string::npos) << text.out;

  ASSERT_EQ(Floe("create s.v2 --schema 'id long' --property write.delete.mode=merge-on-read").status, 0);
  Write("ids.csv", "id\n1\n2\n3\n");
  ASSERT_EQ(Floe("append s.v2 ids.csv").status, 0);
  ASSERT_EQ(Floe("delete s.v2 --where 'id = 2'").status, 0);
  auto v2 = nlohmann::json::parse(Floe("stats s.v2 --format json").out);
  ASSERT_EQ(v2["file_deletes"].size(), 1u) << v2;
  EXPECT_EQ(v2["file_deletes"][0]["position_delete_rows"], 1);
  EXPECT_EQ(v2["file_deletes"][0]["deletion_vector_rows"], 0);
  EXPECT_EQ(v2["file_deletes"][0]["live_records"], 2);

  // No deletes: nothing listed, the text is as it was.
  ASSERT_EQ(Floe("create s.plain --schema 'id long'").status, 0);
  ASSERT_EQ(Floe("append s.plain ids.csv").status, 0);
  EXPECT_EQ(nlohmann::json::parse(Floe("stats s.plain --format json").out)["file_deletes"].size(), 0u);
  EXPECT_EQ(Floe("stats s.plain").out.find("deleted rows per data file"), std::string::npos);
}

}  // namespace
