// The public table definition (floe/table_definition.h) and what a table is made and registered
// from: checks that ask no catalog, tables created from sample files with a row key, format
// version and location, property changes that upgrade the format, and moved tables registered
// by Connection::RegisterTable. A real SQLite catalog and real files throughout.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "floe/floe.h"
#include "util/uuid.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

class TableDefinitionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() / ("floe-definition-" + RandomUuidString().substr(0, 12))).string();
    fs::create_directories(dir_);
    auto catalog = Connection::Open("sqlite://" + dir_ + "/catalog.db");
    ASSERT_TRUE(catalog.has_value()) << catalog.error().message;
    catalog_.emplace(std::move(*catalog));
    ASSERT_TRUE(catalog_->CreateNamespace("db").has_value());
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  static std::vector<std::string> Names(const SchemaInfo& schema) {
    std::vector<std::string> out;
    for (const ColumnInfo& c : schema.columns) out.push_back(c.name + (c.required ? "!" : "") + (c.identifier ? "*" : ""));
    return out;
  }

  std::string dir_;
  std::optional<Connection> catalog_;
};

TEST_F(TableDefinitionTest, ProblemsAreFoundInOrderAndNameTheirPart) {
  auto part_of = [](const TableDefinition& d) {
    auto problem = CheckTableDefinition(d);
    EXPECT_TRUE(problem.has_value());
    return problem ? problem->part : DefinitionPart::kSchema;
  };
  EXPECT_FALSE(CheckTableDefinition({.schema = "id long, ts timestamp", .partition_by = "day(ts)"}).has_value());
  EXPECT_EQ(part_of({.schema = "id lng"}), DefinitionPart::kSchema);
  EXPECT_EQ(part_of({.schema = "id long", .schema_like = Write("s.csv", "id\n1\n")}), DefinitionPart::kSchema);
  EXPECT_EQ(part_of({.schema_like = dir_ + "/missing.csv"}), DefinitionPart::kSchema);
  EXPECT_EQ(part_of({.schema = "id long", .identifier_columns = {"nope"}}), DefinitionPart::kIdentifier);
  EXPECT_EQ(part_of({.schema = "id long", .identifier_columns = {"id", "id"}}), DefinitionPart::kIdentifier);
  EXPECT_EQ(part_of({.schema = "id long, v double", .identifier_columns = {"v"}}), DefinitionPart::kIdentifier);
  // A bad partition is found before a bad format version: the first problem is reported.
  EXPECT_EQ(part_of({.schema = "id long", .partition_by = "zz", .format_version = 4}), DefinitionPart::kPartitionBy);
  EXPECT_EQ(part_of({.schema = "id long", .format_version = 4}), DefinitionPart::kFormatVersion);
  auto problem = CheckTableDefinition({.schema = "id long", .identifier_columns = {"nope"}});
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->error.kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(problem->error.message.find("'nope'"), std::string::npos) << problem->error.message;
  // The catalog refuses the same definitions, and nothing is created.
  EXPECT_FALSE(catalog_->CreateTable("db.bad", {.schema = "id long", .format_version = 4}).has_value());
  auto tables = catalog_->ListTables("db");
  ASSERT_TRUE(tables.has_value());
  EXPECT_TRUE(tables->empty());
}

TEST_F(TableDefinitionTest, SampleFileKeyFormatVersionAndLocation) {
  const std::string sample = Write("orders.csv", "id,country,amount\n1,DE,2.5\n2,FR,3\n");
  const std::string location = dir_ + "/elsewhere/orders";
  auto table = catalog_->CreateTable("db.orders", {.partition_by = "country",
                                                   .properties = {{"owner", "ops"}},
                                                   .schema_like = sample,
                                                   .identifier_columns = {"id"},
                                                   .format_version = 1,
                                                   .location = location});
  ASSERT_TRUE(table.has_value()) << table.error().message;
  auto schema = table->CurrentSchema();
  ASSERT_TRUE(schema.has_value());
  EXPECT_EQ(Names(*schema), (std::vector<std::string>{"id!*", "country", "amount"}));
  EXPECT_EQ(schema->partition_spec, "country");
  auto at = table->Location();
  ASSERT_TRUE(at.has_value());
  EXPECT_EQ(*at, location);
  EXPECT_TRUE(fs::exists(location + "/metadata"));

  // format-version through a properties change: up is an upgrade, down is refused and changes nothing.
  auto upgraded = table->ChangeProperties({{"format-version", "2"}, {"a", "1"}}, {"owner"});
  ASSERT_TRUE(upgraded.has_value()) << upgraded.error().message;
  EXPECT_EQ(upgraded->count("owner"), 0u);
  EXPECT_EQ(upgraded->at("a"), "1");
  auto down = table->ChangeProperties({{"format-version", "1"}, {"a", "2"}});
  ASSERT_FALSE(down.has_value());
  EXPECT_EQ(down.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(down.error().message.find("Cannot downgrade v2 table to v1"), std::string::npos) << down.error().message;
  auto now = table->Properties();
  ASSERT_TRUE(now.has_value());
  EXPECT_EQ(now->at("a"), "1");
}

TEST_F(TableDefinitionTest, AMovedTableIsRefusedThenRegisteredWithItsPathsRewritten) {
  auto table = catalog_->CreateTable("db.t", {.schema = "id long, v string"});
  ASSERT_TRUE(table.has_value());
  ASSERT_TRUE(table->Append(Rows{{"id", "v"}, {{int64_t{1}, std::string("a")}, {int64_t{2}, std::string("b")}}}));
  auto old_location = table->Location();
  ASSERT_TRUE(old_location.has_value());
  ASSERT_TRUE(catalog_->DropTable("db.t").has_value());
  const std::string moved = dir_ + "/moved";
  fs::rename(*old_location, moved);
  std::string metadata;
  for (const auto& entry : fs::directory_iterator(moved + "/metadata"))
    if (entry.path().string().ends_with(".metadata.json") && entry.path().string() > metadata) metadata = entry.path();

  auto refused = catalog_->RegisterTable("db.m", metadata);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(refused.error().message.find("allow-moved-paths"), std::string::npos) << refused.error().message;

  ASSERT_TRUE(catalog_->CreateTable("db.taken", {.schema = "id long"}).has_value());
  const auto files_before = std::distance(fs::directory_iterator(moved + "/metadata"), fs::directory_iterator());
  auto taken = catalog_->RegisterTable("db.taken", metadata, {.allow_moved_paths = true});
  ASSERT_FALSE(taken.has_value());
  EXPECT_EQ(taken.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(std::distance(fs::directory_iterator(moved + "/metadata"), fs::directory_iterator()), files_before)
      << "nothing is rewritten for a name that is taken";

  auto registered = catalog_->RegisterTable("db.m", metadata, {.allow_moved_paths = true});
  ASSERT_TRUE(registered.has_value()) << registered.error().message;
  EXPECT_EQ(registered->rfind(moved + "/metadata/", 0), 0u) << *registered;
  auto m = catalog_->LoadTable("db.m");
  ASSERT_TRUE(m.has_value());
  auto rows = m->Scan();
  ASSERT_TRUE(rows.has_value()) << rows.error().message;
  EXPECT_EQ(rows->size(), 2u);

  auto missing = catalog_->RegisterTable("db.n", dir_ + "/none.metadata.json", {.allow_moved_paths = true});
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
}

}  // namespace
}  // namespace floe
