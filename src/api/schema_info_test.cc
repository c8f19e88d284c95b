// Table::CurrentSchema and TableFolder::CurrentSchema (floe/schema_info.h): the fields, the
// default spec and the JSON form, the same from the catalog and from the folder.
#include <filesystem>

#include <gtest/gtest.h>

#include "floe/floe.h"
#include "util/uuid.h"

namespace floe {
namespace {

TEST(PublicSchemaInfo, FieldsSpecAndJsonFromCatalogAndFolder) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("floe-schema-" + RandomUuidString().substr(0, 12))).string();
  std::filesystem::create_directories(dir);
  auto catalog = Connection::Open("sqlite://" + dir + "/catalog.db");
  ASSERT_TRUE(catalog.has_value()) << catalog.error().message;
  ASSERT_TRUE(catalog->CreateNamespace("db").has_value());
  auto table = catalog->CreateTable("db.t", {.schema = "id long not null, amount decimal(10,2), ts timestamp",
                                             .partition_by = "day(ts), bucket(4, id)"});
  ASSERT_TRUE(table.has_value()) << table.error().message;

  auto info = table->CurrentSchema();
  ASSERT_TRUE(info.has_value()) << info.error().message;
  ASSERT_EQ(info->columns.size(), 3u);
  EXPECT_EQ(info->columns[0].name, "id");
  EXPECT_TRUE(info->columns[0].required);
  EXPECT_EQ(info->columns[1].type, "decimal(10,2)");
  EXPECT_FALSE(info->columns[1].identifier);
  EXPECT_EQ(info->partition_spec, "day(ts), bucket(4, id)");
  EXPECT_EQ(info->spec_id, 0);
  EXPECT_NE(info->json.find("\"partition-spec\""), std::string::npos) << info->json;
  EXPECT_NE(info->json.find("\"fields\""), std::string::npos) << info->json;

  auto folder = TableFolder::Open(dir + "/db/t");
  ASSERT_TRUE(folder.has_value()) << folder.error().message;
  auto read = folder->CurrentSchema();
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->json, info->json);
  EXPECT_EQ(read->partition_spec, info->partition_spec);

  auto missing = catalog->GetTable("db.missing");
  ASSERT_TRUE(missing.has_value());
  EXPECT_EQ(missing->CurrentSchema().error().kind, ErrorKind::kNotFound);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace floe
