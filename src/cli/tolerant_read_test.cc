// Strict on write, tolerant on read: a metadata document another engine wrote with harmless
// inconsistencies is read with a warning on standard error, and floe's next commit writes a
// consistent one.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_test_env.h"

namespace floe::cli_test {
namespace {

namespace fs = std::filesystem;

// As Impala's test tables have it: last-column-id 1 although field 2 exists; plus a field
// of the writer's own.
std::string InconsistentDocument(const std::string& location) {
  return R"({"format-version":2,"table-uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1","location":")" + location +
         R"(","last-sequence-number":0,"last-updated-ms":1700000000000,"last-column-id":1,"current-schema-id":0,)"
         R"("schemas":[{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","required":false,"type":"long"},)"
         R"({"id":2,"name":"country","required":false,"type":"string"}]}],"default-spec-id":0,)"
         R"("partition-specs":[{"spec-id":0,"fields":[]}],"last-partition-id":999,"default-sort-order-id":0,)"
         R"("sort-orders":[{"order-id":0,"fields":[]}],"properties":{},"current-snapshot-id":-1,"snapshots":[],)"
         R"("snapshot-log":[],"metadata-log":[],"impala.test-note":"written by hand"})";
}

// The newest metadata document in `folder` (by name: floe numbers its versions).
nlohmann::json NewestDocument(const fs::path& folder) {
  fs::path newest;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().string().ends_with(".metadata.json") && entry.path() > newest) newest = entry.path();
  }
  return nlohmann::json::parse(ReadText(newest));
}

TEST(TolerantRead, LowLastColumnIdAndUnknownFieldsAreReadWithAWarningAndFixedOnCommit) {
  ScratchDir dir;
  const fs::path table = dir.path() / "t";
  fs::create_directories(table / "metadata");
  std::ofstream(table / "metadata/00000-0b3c1a52-7c8e-4f0e-9d4e-5d7c5b1a2f3e.metadata.json")
      << InconsistentDocument(table.string());

  // Read without a catalog: the rows (none yet) and a warning naming the value and the fix.
  FloeRun read = dir.Floe("schema t");
  ASSERT_EQ(read.status, 0) << read.err;
  EXPECT_NE(read.out.find("country"), std::string::npos) << read.out;
  EXPECT_NE(read.err.find("warning"), std::string::npos) << read.err;
  EXPECT_NE(read.err.find("last-column-id 1, lower than field id 2"), std::string::npos) << read.err;
  EXPECT_NE(read.err.find("impala.test-note"), std::string::npos) << read.err;

  // Registered and committed to: floe's document is consistent, and reads without a warning.
  ASSERT_EQ(dir.Floe("namespace create sales").status, 0);
  FloeRun reg = dir.Floe("register sales.t t/metadata/00000-0b3c1a52-7c8e-4f0e-9d4e-5d7c5b1a2f3e.metadata.json");
  ASSERT_EQ(reg.status, 0) << reg.err;
  std::ofstream(dir.path() / "rows.csv") << "id,country\n1,DE\n";
  FloeRun append = dir.Floe("append sales.t rows.csv");
  ASSERT_EQ(append.status, 0) << append.err;
  nlohmann::json written = NewestDocument(table / "metadata");
  EXPECT_EQ(written["last-column-id"], 2) << written.dump();
  EXPECT_FALSE(written.contains("impala.test-note")) << written.dump();
  FloeRun after = dir.Floe("scan sales.t --format csv");
  EXPECT_EQ(after.status, 0) << after.err;
  EXPECT_EQ(after.out, "id,country\n1,DE\n");
  EXPECT_EQ(after.err, "");
}

TEST(TolerantRead, WhatIsNotHarmlessStaysAnError) {
  ScratchDir dir;
  const fs::path table = dir.path() / "t";
  fs::create_directories(table / "metadata");
  std::string doc = InconsistentDocument(table.string());
  doc.replace(doc.find("\"current-schema-id\":0"), 21, "\"current-schema-id\":7");
  std::ofstream(table / "metadata/v1.metadata.json") << doc;
  FloeRun read = dir.Floe("schema t");
  EXPECT_EQ(read.status, 1);
  EXPECT_NE(read.err.find("current-schema-id=7"), std::string::npos) << read.err;
}

}  // namespace
}  // namespace floe::cli_test
