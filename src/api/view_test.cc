// floe/view.h end to end on a SQLite catalog, as a program uses it.
#include <filesystem>
#include <thread>

#include <gtest/gtest.h>

#include "floe/floe.h"
#include "util/uuid.h"

namespace floe {
namespace {

class ViewApi : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() / ("floe-view-api-" + RandomUuidString().substr(0, 8))).string();
    std::filesystem::create_directories(dir_);
    uri_ = "sqlite://" + dir_ + "/catalog.db";
    auto c = Connection::Open(uri_);
    ASSERT_TRUE(c) << c.error().ToString();
    catalog_ = std::make_unique<Connection>(std::move(*c));
    ASSERT_TRUE(catalog_->CreateNamespace("sales"));
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string dir_, uri_;
  std::unique_ptr<Connection> catalog_;
};

TEST_F(ViewApi, CreateReplaceLoadListDrop) {
  Views views(*catalog_);
  auto big = views.Create("sales.big", {.sql = "SELECT id FROM sales.orders WHERE amount > 100", .dialect = "spark",
                                        .schema = "id long", .comment = "large orders"});
  ASSERT_TRUE(big) << big.error().ToString();
  EXPECT_EQ(big->current_version_id, 1);
  EXPECT_EQ(big->properties.at("comment"), "large orders");
  EXPECT_EQ(big->Current().default_namespace, "sales");
  auto replaced = views.Replace("sales.big", {.sql = "SELECT id FROM orders WHERE amount > 100", .dialect = "trino"});
  ASSERT_TRUE(replaced) << replaced.error().ToString();
  EXPECT_EQ(replaced->current_version_id, 2);
  EXPECT_EQ(replaced->Current().sql_by_dialect.size(), 2u) << "the spark text is kept";
  EXPECT_EQ(replaced->Current().schema, "id long") << "the schema is kept";
  EXPECT_GT(replaced->Current().timestamp_ms, 0);
  ASSERT_EQ(replaced->history.size(), 2u);
  EXPECT_EQ(views.List("sales").value(), std::vector<std::string>{"sales.big"});
  EXPECT_TRUE(catalog_->ListTables("sales").value().empty());
  ASSERT_TRUE(views.Rename("sales.big", "sales.large"));
  auto gone = views.Load("sales.big");
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(gone.error().message, "View does not exist: sales.big");
  ASSERT_TRUE(views.Drop("sales.large"));
  EXPECT_TRUE(views.List("sales").value().empty());
}

TEST_F(ViewApi, RefusalsNameTheProblemAndWriteNothing) {
  Views views(*catalog_);
  ASSERT_TRUE(catalog_->CreateTable("sales.orders", {.schema = "id long"}));
  auto on_table = views.Create("sales.orders", {.sql = "SELECT 1"});
  ASSERT_FALSE(on_table);
  EXPECT_EQ(on_table.error().message, "Table with same name already exists: sales.orders");
  auto empty_sql = views.Create("sales.v", {.sql = " "});
  ASSERT_FALSE(empty_sql);
  EXPECT_EQ(empty_sql.error().kind, ErrorKind::kInvalidArgument);
  auto bad_schema = views.Create("sales.v", {.sql = "SELECT 1", .schema = "id nosuchtype"});
  ASSERT_FALSE(bad_schema);
  EXPECT_EQ(bad_schema.error().kind, ErrorKind::kInvalidArgument);
  auto bad_name = views.Create("nodot", {.sql = "SELECT 1"});
  ASSERT_FALSE(bad_name);
  EXPECT_EQ(bad_name.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_TRUE(views.List("sales").value().empty());
}

TEST_F(ViewApi, RacingReplacesThroughTwoConnectionsEachLand) {
  Views views(*catalog_);
  ASSERT_TRUE(views.Create("sales.v", {.sql = "SELECT 0", .properties = {{"version.history.num-entries", "100"}}}));
  auto other = Connection::Open(uri_);
  ASSERT_TRUE(other) << other.error().ToString();
  auto writer = [](Connection* c, int base) {
    Views mine(*c);
    for (int i = 0; i < 8; ++i) {
      auto done = mine.Replace("sales.v", {.sql = "SELECT " + std::to_string(base + i)});
      ASSERT_TRUE(done) << done.error().ToString();
    }
  };
  std::thread a(writer, catalog_.get(), 100), b(writer, &*other, 200);
  a.join();
  b.join();
  auto view = views.Load("sales.v").value();
  EXPECT_EQ(view.history.size(), 17u) << "one version per replace";
  EXPECT_EQ(view.versions.size(), 17u);
}

}  // namespace
}  // namespace floe
