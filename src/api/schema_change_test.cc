// Table::ChangeSchema, AddPartitionField and RemovePartitionField (floe/schema_change.h): each
// change is one commit returning the schema after it; a refused change leaves the table as it
// was; a schema change landed by another connection between plan and commit refuses this one.
#include <filesystem>

#include <gtest/gtest.h>

#include "floe/floe.h"
#include "util/uuid.h"

namespace floe {
namespace {

struct TempCatalog {
  std::string dir = (std::filesystem::temp_directory_path() /
                     ("floe-schema-change-" + RandomUuidString().substr(0, 12))).string();
  TempCatalog() { std::filesystem::create_directories(dir); }
  ~TempCatalog() { std::filesystem::remove_all(dir); }
  std::string uri() const { return "sqlite://" + dir + "/catalog.db"; }
};

const ColumnInfo* Column(const SchemaInfo& info, const std::string& name) {
  for (const ColumnInfo& c : info.columns)
    if (c.name == name) return &c;
  return nullptr;
}

TEST(PublicSchemaChange, ChangesLandOneCommitEachAndRefusalsChangeNothing) {
  TempCatalog temp;
  auto catalog = Connection::Open(temp.uri());
  ASSERT_TRUE(catalog.has_value()) << catalog.error().message;
  ASSERT_TRUE(catalog->CreateNamespace("db").has_value());
  auto table = catalog->CreateTable("db.t", {.schema = "id int not null, lat double, ts timestamp"});
  ASSERT_TRUE(table.has_value()) << table.error().message;

  auto added = table->ChangeSchema(SchemaChange::AddColumn("alt", "Double", "metres"));
  ASSERT_TRUE(added.has_value()) << added.error().message;
  ASSERT_NE(Column(*added, "alt"), nullptr);
  EXPECT_EQ(Column(*added, "alt")->doc, "metres");
  EXPECT_EQ(added->schema_id, 1);

  SchemaChange::ColumnUpdate widen;
  widen.type = "long";
  auto widened = table->ChangeSchema(SchemaChange::UpdateColumn("id", widen));
  ASSERT_TRUE(widened.has_value()) << widened.error().message;
  EXPECT_EQ(Column(*widened, "id")->type, "long");
  EXPECT_TRUE(Column(*widened, "id")->required);

  auto keyed = table->ChangeSchema(SchemaChange::SetIdentifierFields({"id"}));
  ASSERT_TRUE(keyed.has_value()) << keyed.error().message;
  EXPECT_TRUE(Column(*keyed, "id")->identifier);

  // Refused, naming the column; the schema stays as it was.
  auto narrowed = table->ChangeSchema(SchemaChange::UpdateColumn("id", {.type = "int"}));
  ASSERT_FALSE(narrowed.has_value());
  EXPECT_EQ(narrowed.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(narrowed.error().message.find("id"), std::string::npos) << narrowed.error().message;
  auto dropped_key = table->ChangeSchema(SchemaChange::DropColumn("id"));
  ASSERT_FALSE(dropped_key.has_value());
  EXPECT_EQ(dropped_key.error().kind, ErrorKind::kInvalidArgument);
  auto bad_type = table->ChangeSchema(SchemaChange::AddColumn("n", "integer128"));
  ASSERT_FALSE(bad_type.has_value());
  EXPECT_EQ(bad_type.error().kind, ErrorKind::kInvalidArgument);
  auto now = table->CurrentSchema();
  ASSERT_TRUE(now.has_value());
  EXPECT_EQ(now->schema_id, keyed->schema_id);
  EXPECT_EQ(now->json, keyed->json);

  auto moved = table->ChangeSchema(SchemaChange::MoveColumn("ts", SchemaChange::Position::kFirst));
  ASSERT_TRUE(moved.has_value()) << moved.error().message;
  EXPECT_EQ(moved->columns.front().name, "ts");
  auto renamed = table->ChangeSchema(SchemaChange::RenameColumn("ts", "event_ts"));
  ASSERT_TRUE(renamed.has_value()) << renamed.error().message;
  EXPECT_EQ(renamed->columns.front().name, "event_ts");
  EXPECT_EQ(renamed->columns.front().id, moved->columns.front().id);

  // Partition spec: a new default spec per change; removing a field the spec lacks is refused.
  auto by_day = table->AddPartitionField("day(event_ts)");
  ASSERT_TRUE(by_day.has_value()) << by_day.error().message;
  EXPECT_EQ(by_day->spec_id, 1);
  EXPECT_EQ(by_day->partition_spec, "day(event_ts)");
  auto unknown = table->AddPartitionField("bucket(4, nope)");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().kind, ErrorKind::kInvalidArgument);
  auto removed = table->RemovePartitionField("event_ts_day");
  ASSERT_TRUE(removed.has_value()) << removed.error().message;
  EXPECT_EQ(removed->partition_spec, "");
  auto again = table->RemovePartitionField("event_ts_day");
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().kind, ErrorKind::kInvalidArgument);

  auto missing = catalog->GetTable("db.missing");
  ASSERT_TRUE(missing.has_value());
  EXPECT_EQ(missing->ChangeSchema(SchemaChange::DropColumn("id")).error().kind, ErrorKind::kNotFound);
}

TEST(PublicSchemaChange, AnotherSchemaChangeBetweenPlanAndCommitRefusesThisOne) {
  TempCatalog temp;
  auto first = Connection::Open(temp.uri());
  ASSERT_TRUE(first.has_value()) << first.error().message;
  ASSERT_TRUE(first->CreateNamespace("db").has_value());
  auto table = first->CreateTable("db.t", {.schema = "id long not null"});
  ASSERT_TRUE(table.has_value()) << table.error().message;
  auto second = Connection::Open(temp.uri());  // another writer, its own connection
  ASSERT_TRUE(second.has_value());

  SchemaChangeOptions options;
  options.before_commit = [&] {
    auto other = second->LoadTable("db.t");
    ASSERT_TRUE(other.has_value());
    ASSERT_TRUE(other->ChangeSchema(SchemaChange::AddColumn("b", "string")).has_value());
  };
  auto refused = table->ChangeSchema(SchemaChange::AddColumn("a", "string"), options);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kCommitConflict) << refused.error().message;
  auto now = table->CurrentSchema();
  ASSERT_TRUE(now.has_value());
  EXPECT_NE(Column(*now, "b"), nullptr);
  EXPECT_EQ(Column(*now, "a"), nullptr);
}

TEST(PublicSchemaChange, TypesAndValuesCheckedWithoutACatalog) {
  EXPECT_EQ(CheckColumnType("LONG").value_or(""), "long");
  EXPECT_EQ(CheckColumnType("decimal(10, 2)").value_or(""), "decimal(10,2)");
  EXPECT_EQ(CheckColumnType("lon").error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(CheckColumnType("ARRAY<String>").value_or(""), "list<string>");
  EXPECT_EQ(CheckColumnType("struct<a int not null, m map<string, long>>").value_or(""),
            "struct<a: int not null, m: map<string, long>>");
  EXPECT_EQ(CheckColumnType("list<>").error().kind, ErrorKind::kInvalidArgument);
  EXPECT_TRUE(CheckColumnValue("42", "int").has_value());
  EXPECT_EQ(CheckColumnValue("forty-two", "int").error().kind, ErrorKind::kInvalidArgument);
  EXPECT_FALSE(CheckColumnValue("1", "lon").has_value());
}

}  // namespace
}  // namespace floe
