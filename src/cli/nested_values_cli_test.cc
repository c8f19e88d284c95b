// `floe` with struct, list and map columns end to end: JSON-lines and CSV input, every output
// format of scan and cat, the row-changing commands keeping the nested values they do not touch,
// filters on nested columns, and the refusals (keys, partitions, comparisons) naming the column.
#include "cli/cli_test_fixture.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <vector>

namespace {

using floe_cli_test::FloeCli;

constexpr const char* kSchema =
    "id long not null, addr struct<street: string, zip int>, tags list<string>, attrs map<string, long>";

constexpr const char* kRows =
    R"({"id": 1, "addr": {"street": "Main", "zip": 10115}, "tags": ["a", "b"], "attrs": {"x": 1, "y": null}})" "\n"
    R"({"id": 2, "addr": null, "tags": [], "attrs": null})" "\n"
    R"({"id": 3, "addr": {"street": null, "zip": 3}, "tags": null, "attrs": {"z": 7}})" "\n";

const std::string kLine1 = R"({"id":1,"addr":{"street":"Main","zip":10115},"tags":["a","b"],"attrs":{"x":1,"y":null}})";
const std::string kLine2 = R"({"id":2,"addr":null,"tags":[],"attrs":null})";
const std::string kLine3 = R"({"id":3,"addr":{"street":null,"zip":3},"tags":null,"attrs":{"z":7}})";

class FloeNested : public FloeCli {
 protected:
  void CreateNested(const std::string& properties = "") {
    ASSERT_EQ(Floe("namespace create db").status, 0);
    auto r = Floe("create db.t --schema '" + std::string(kSchema) + "' " + properties);
    ASSERT_EQ(r.status, 0) << r.out;
    Write("rows.jsonl", kRows);
    r = Floe("append db.t rows.jsonl");
    ASSERT_EQ(r.status, 0) << r.out;
  }
  // The table's rows as JSON lines, sorted (a scan's order follows its files).
  std::string Lines(const std::string& extra = "") {
    auto r = Floe("scan db.t --format jsonl " + extra);
    EXPECT_EQ(r.status, 0) << r.out;
    std::vector<std::string> lines;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    std::sort(lines.begin(), lines.end());
    std::string sorted;
    for (const auto& l : lines) sorted += l + "\n";
    return sorted;
  }
  std::string DataFile() {
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir()))
      if (e.path().extension() == ".parquet") return e.path().string();
    return "";
  }
};

TEST_F(FloeNested, EveryOutputFormatPrintsNestedValues) {
  CreateNested();
  EXPECT_EQ(Lines(), kLine1 + "\n" + kLine2 + "\n" + kLine3 + "\n");

  auto r = Floe("scan db.t --format csv --where 'id = 1'");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "id,addr,tags,attrs\n"
                   "1,\"{\"\"street\"\":\"\"Main\"\",\"\"zip\"\":10115}\",\"[\"\"a\"\",\"\"b\"\"]\",\"{\"\"x\"\":1,\"\"y\"\":null}\"\n");

  r = Floe("scan db.t --format json --where 'id = 3'");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "[\n  {\n    \"id\": 3,\n    \"addr\": {\"street\":null,\"zip\":3},\n    \"tags\": null,\n"
                   "    \"attrs\": {\"z\":7}\n  }\n]\n");

  r = Floe("scan db.t --where 'id = 1'");  // the table: cells as compact JSON, struct fields in order
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("{\"street\":\"Main\",\"zip\":10115}  [\"a\",\"b\"]  {\"x\":1,\"y\":null}"), std::string::npos)
      << r.out;

  // A struct's field by its dotted path: the struct with only that field.
  r = Floe("scan db.t --format jsonl --columns id,addr.zip --where 'id = 1'");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "{\"id\":1,\"addr\":{\"zip\":10115}}\n");

  // cat of the data file prints the same values.
  const std::string file = DataFile();
  ASSERT_FALSE(file.empty());
  r = Floe("cat '" + file + "' --format jsonl");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, kLine1 + "\n" + kLine2 + "\n" + kLine3 + "\n");
  r = Floe("cat '" + file + "'");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("[\"a\",\"b\"]"), std::string::npos) << r.out;

  // A scan's CSV reads back into the same values.
  r = Floe("scan db.t --format csv --output back.csv");
  ASSERT_EQ(r.status, 0) << r.out;
  ASSERT_EQ(Floe("create db.u --schema '" + std::string(kSchema) + "'").status, 0);
  r = Floe("append db.u back.csv");
  ASSERT_EQ(r.status, 0) << r.out;
  r = Floe("scan db.u --format jsonl --where 'id = 1'");
  EXPECT_EQ(r.out, kLine1 + "\n");
}

TEST_F(FloeNested, FiltersOnNestedColumns) {
  CreateNested();
  EXPECT_EQ(Lines("--where 'tags IS NULL'"), kLine3 + "\n");
  EXPECT_EQ(Lines("--where 'addr IS NOT NULL'"), kLine1 + "\n" + kLine3 + "\n");
  EXPECT_EQ(Lines("--where 'addr.zip = 3'"), kLine3 + "\n");
  auto r = Floe("scan db.t --where \"tags = 'a'\"");
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("column 'tags'"), std::string::npos) << r.out;
}

TEST_F(FloeNested, RowChangesKeepUntouchedNestedValues) {
  for (const std::string mode : {"copy-on-write", "merge-on-read"}) {
    SCOPED_TRACE(mode);
    CreateNested("--identifier id --property write.update.mode=" + mode + " --property write.delete.mode=" + mode +
                 " --property write.merge.mode=" + mode);
    auto r = Floe("update db.t --set 'id = 20' --where 'id = 2'");
    ASSERT_EQ(r.status, 0) << r.out;
    r = Floe("update db.t --set \"tags = '[\\\"new\\\"]'\" --where 'id = 3'");
    ASSERT_EQ(r.status, 0) << r.out;
    const std::string line3 = R"({"id":3,"addr":{"street":null,"zip":3},"tags":["new"],"attrs":{"z":7}})";
    EXPECT_EQ(Lines(), kLine1 + "\n" + R"({"id":20,"addr":null,"tags":[],"attrs":null})" + "\n" + line3 + "\n");

    // A value that does not fit is refused naming the column, and nothing changes.
    const std::string before = Lines();
    r = Floe("update db.t --set \"tags = 'a,b'\" --where 'id = 1'");
    EXPECT_NE(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("tags"), std::string::npos) << r.out;
    EXPECT_EQ(Lines(), before);

    r = Floe("delete db.t --where 'id = 20'");
    ASSERT_EQ(r.status, 0) << r.out;
    Write("up.jsonl", R"({"id": 3, "addr": {"street": "New", "zip": 4}, "tags": ["u"], "attrs": {"k": 1}})" "\n"
                      R"({"id": 4, "addr": null, "tags": [null], "attrs": {}})" "\n");
    r = Floe("upsert db.t up.jsonl");
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(Lines(), kLine1 + "\n" + R"({"id":3,"addr":{"street":"New","zip":4},"tags":["u"],"attrs":{"k":1}})" +
                           "\n" + R"({"id":4,"addr":null,"tags":[null],"attrs":{}})" + "\n");

    // Compaction rewrites the files; the values stay.
    const std::string kept = Lines();
    r = Floe("rewrite-data-files db.t --all");
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(Lines(), kept);
    ASSERT_EQ(Floe("drop db.t --purge").status, 0);
    ASSERT_EQ(Floe("namespace drop db").status, 0);
  }
}

TEST_F(FloeNested, OverwriteAndCsvInputKeepNestedValues) {
  CreateNested();
  Write("new.csv", "id,addr,tags,attrs\n9,\"{\"\"zip\"\":1}\",\"[\"\"q\"\"]\",\n");
  auto r = Floe("overwrite db.t new.csv");  // every row replaced by the file's
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(Lines(), R"({"id":9,"addr":{"street":null,"zip":1},"tags":["q"],"attrs":null})" "\n");
}

TEST_F(FloeNested, JsonLinesInputErrorsNameTheLineColumnAndPlaceAndChangeNothing) {
  CreateNested();
  Write("bad.jsonl", R"({"id": 5, "tags": ["ok"]})" "\n" R"({"id": 6, "tags": ["a", [7]]})" "\n");
  auto r = Floe("append db.t bad.jsonl");
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("bad.jsonl line 2, column 'tags'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tags[1]"), std::string::npos) << r.out;
  Write("bad2.jsonl", R"({"id": 5, "addr": {"zip": "ten"}})" "\n");
  r = Floe("append db.t bad2.jsonl");
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("addr.zip"), std::string::npos) << r.out;
  EXPECT_EQ(Lines(), kLine1 + "\n" + kLine2 + "\n" + kLine3 + "\n");
}

TEST_F(FloeNested, KeysAndPartitionsRefuseListsAndMapsByName) {
  ASSERT_EQ(Floe("namespace create db").status, 0);
  Write("rows.jsonl", R"({"id": 1, "tags": ["a"]})" "\n");
  auto r = Floe("create db.k --schema 'id long, tags list<string>' --identifier tags");
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("'tags'"), std::string::npos) << r.out;
  r = Floe("create db.p --schema 'id long, tags list<string>' --partition-by tags");
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("'tags'"), std::string::npos) << r.out;
  r = Floe("create db.m --schema 'id long, attrs map<string, int>' --partition-by 'bucket(4, attrs)'");
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("'attrs'"), std::string::npos) << r.out;
  // And at schema and spec changes of an existing table.
  ASSERT_EQ(Floe("create db.s --schema 'id long, tags list<string>'").status, 0);
  r = Floe("schema set-identifier db.s tags");
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("identifier field 'tags' must be a primitive type"), std::string::npos) << r.out;
  r = Floe("partition-spec add db.s tags");
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("column 'tags' of type list<string>"), std::string::npos) << r.out;
  r = Floe("upsert db.s rows.jsonl --key tags");
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("'tags'"), std::string::npos) << r.out;
}

TEST_F(FloeNested, LikeJsonLinesAndAddColumnMakeNestedColumns) {
  ASSERT_EQ(Floe("namespace create db").status, 0);
  Write("sample.jsonl", R"({"id": 1, "addr": {"street": "Main", "zip": 1}, "tags": ["a"]})" "\n");
  auto r = Floe("create db.l --like sample.jsonl");
  ASSERT_EQ(r.status, 0) << r.out;
  r = Floe("append db.l sample.jsonl");
  ASSERT_EQ(r.status, 0) << r.out;
  r = Floe("scan db.l --format jsonl");
  EXPECT_EQ(r.out, R"({"id":1,"addr":{"street":"Main","zip":1},"tags":["a"]})" "\n");

  r = Floe("schema add-column db.l more 'list<string>'");
  ASSERT_EQ(r.status, 0) << r.out;
  r = Floe("schema add-column db.l kv 'map<string, struct<a: int>>'");
  ASSERT_EQ(r.status, 0) << r.out;
  Write("more.jsonl", R"({"id": 2, "more": ["m"], "kv": {"k": {"a": 5}}})" "\n");
  r = Floe("append db.l more.jsonl");
  ASSERT_EQ(r.status, 0) << r.out;
  r = Floe("scan db.l --format jsonl --where 'id = 2'");
  EXPECT_EQ(r.out, R"({"id":2,"addr":null,"tags":null,"more":["m"],"kv":{"k":{"a":5}}})" "\n");
  r = Floe("scan db.l --format jsonl --where 'id = 1'");
  EXPECT_EQ(r.out, R"({"id":1,"addr":{"street":"Main","zip":1},"tags":["a"],"more":null,"kv":null})" "\n");
}

}  // namespace
