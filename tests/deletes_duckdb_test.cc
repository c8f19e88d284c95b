// Cross-engine: a table floe writes with position deletes and equality deletes reads the same in
// floe as in an independent reader (tests/js/iceberg_deletes_duckdb.mjs: avsc for the manifests,
// DuckDB for the data and delete files, the spec's sequence-number rules written out in SQL), and
// both match the rows the test itself expects after each commit.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "catalog/catalog.h"
#include "expr/parser.h"
#include "node_tools.h"
#include "scan/scan_test_util.h"
#include "scan/table_scan.h"
#include "rows/merge_on_read.h"
#include "rows/row_writes.h"
#include "rows/upsert.h"
#include "types/schema_text.h"
#include "util/uuid.h"

namespace floe {
namespace {

namespace fs = std::filesystem;
using testing::JsScript;
using testing::RunCommand;
using testing::ShellQuote;

const TableIdentifier kTable{{"xe"}, "orders"};
const char* kSchema = "id long not null, country string, amount long";

// What the table must hold: id -> (country, amount).
using Model = std::map<int64_t, std::pair<std::string, int64_t>>;

std::string CountryOf(int64_t id) { return id % 3 == 0 ? "DE" : id % 3 == 1 ? "FR" : "US"; }

ColumnBatch Rows(const std::vector<int64_t>& ids, int64_t amount_factor, Model* model) {
  ColumnBatch batch(*ParseSchemaText(kSchema));
  for (int64_t id : ids) {
    EXPECT_TRUE(batch.AppendRow({Literal::Long(id), Literal::String(CountryOf(id)), Literal::Long(id * amount_factor)}));
    (*model)[id] = {CountryOf(id), id * amount_factor};
  }
  return batch;
}

std::vector<int64_t> Range(int64_t from, int64_t to) {
  std::vector<int64_t> out;
  for (int64_t i = from; i < to; ++i) out.push_back(i);
  return out;
}

std::vector<std::string> ModelRows(const Model& model) {
  std::vector<std::string> out;
  for (const auto& [id, row] : model) {
    out.push_back(Literal::Long(id).ToString() + "|" + Literal::String(row.first).ToString() + "|" +
                  Literal::Long(row.second).ToString());
  }
  std::sort(out.begin(), out.end());
  return out;
}

class DeletesDuckDB : public ::testing::Test {
 protected:
  void SetUp() override {
    if (auto why = testing::MissingNodeModule("@duckdb/node-api")) GTEST_SKIP() << *why;
    if (auto why = testing::MissingNodeModule("avsc")) GTEST_SKIP() << *why;
    dir_ = (fs::temp_directory_path() / ("floe-xe-" + RandomUuidString().substr(0, 8))).string();
    fs::create_directories(dir_);
    auto catalog = OpenCatalog("sqlite://" + dir_ + "/catalog.db?warehouse=" + dir_ + "/warehouse");
    ASSERT_TRUE(catalog) << catalog.error().ToString();
    catalog_ = std::move(*catalog);
    ASSERT_TRUE(catalog_->CreateNamespace(kTable.ns, {}));
    CreateTableRequest request;
    request.schema = *ParseSchemaText(kSchema);
    auto fields = ParsePartitionFields("country", request.schema, PartitionSpec::kFirstFieldId);
    ASSERT_TRUE(fields) << fields.error().ToString();
    request.spec = PartitionSpec(0, *fields);
    ASSERT_TRUE(catalog_->CreateTable(kTable, request));
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }

  RowWriteOptions MergeOnRead() const {
    RowWriteOptions options;
    options.mode = WriteMode::kMergeOnRead;
    return options;
  }

  void DeleteWhere(const std::string& filter, Model* model, const std::function<bool(int64_t)>& matches) {
    auto expr = ParseFilter(filter);
    ASSERT_TRUE(expr) << expr.error().ToString();
    auto result = MergeOnReadDelete(*catalog_, kTable, *expr, MergeOnRead());
    ASSERT_TRUE(result) << filter << ": " << result.error().ToString();
    std::erase_if(*model, [&](const auto& row) { return matches(row.first); });
  }

  void UpsertIds(const std::vector<int64_t>& ids, int64_t amount_factor, Model* model) {
    auto result = Upsert(*catalog_, kTable, Rows(ids, amount_factor, model), {"id", "country"}, MergeOnRead());
    ASSERT_TRUE(result) << result.error().ToString();
  }

  // Reads the current snapshot in floe and in the other reader; both must equal `model`.
  void ExpectBothEngines(const Model& model, const std::string& step) {
    auto loaded = catalog_->LoadTable(kTable);
    ASSERT_TRUE(loaded) << loaded.error().ToString();
    const std::vector<std::string> expected = ModelRows(model);

    auto floe_rows = ReadTable(*catalog_->io(), loaded->metadata, {});
    ASSERT_TRUE(floe_rows) << floe_rows.error().ToString();
    EXPECT_EQ(testing::RowStrings(*floe_rows), expected) << "floe, after " << step;

    auto run = RunCommand("node " + ShellQuote(JsScript("iceberg_deletes_duckdb.mjs")) + " " +
                          ShellQuote(loaded->metadata_location) + " id country amount");
    ASSERT_EQ(run.exit_code, 0) << run.output;
    std::vector<std::string> duckdb_rows;
    std::istringstream lines(run.output);
    for (std::string line; std::getline(lines, line);) {
      if (line.empty() || line[0] != '[') {
        last_summary_ = line;
        continue;
      }
      auto row = nlohmann::json::parse(line);
      duckdb_rows.push_back(Literal::Long(std::stoll(row[0].get<std::string>())).ToString() + "|" +
                            Literal::String(row[1].get<std::string>()).ToString() + "|" +
                            Literal::Long(std::stoll(row[2].get<std::string>())).ToString());
    }
    std::sort(duckdb_rows.begin(), duckdb_rows.end());
    EXPECT_EQ(duckdb_rows, expected) << "DuckDB, after " << step << " (" << last_summary_ << ")";
  }

  std::string dir_;
  std::unique_ptr<Catalog> catalog_;
  std::string last_summary_;  // "data files N, position delete files N, equality delete files N"
};

TEST_F(DeletesDuckDB, PositionAndEqualityDeletesReadTheSameInBothEngines) {
  Model model;
  ASSERT_TRUE(AppendBatch(*catalog_, kTable, Rows(Range(0, 300), 10, &model)));
  ASSERT_TRUE(AppendBatch(*catalog_, kTable, Rows(Range(300, 600), 10, &model)));
  ExpectBothEngines(model, "two appends");

  // Position deletes in every partition's files of both appends.
  DeleteWhere("id % 7 = 0", &model, [](int64_t id) { return id % 7 == 0; });
  ExpectBothEngines(model, "a merge-on-read delete");

  // Equality deletes on (id, country) plus new rows in the same snapshot: the older rows with
  // those keys go (including keys already deleted by position), the new ones stay, since an
  // equality delete only reaches data with a smaller sequence number.
  UpsertIds(Range(10, 60), -1, &model);
  UpsertIds(Range(1000, 1010), -1, &model);
  ExpectBothEngines(model, "two upserts");

  // A position delete against rows that the upsert just inserted.
  DeleteWhere("id >= 1005", &model, [](int64_t id) { return id >= 1005; });
  // And equality deletes reaching rows of an earlier upsert.
  UpsertIds(Range(20, 30), 100, &model);
  ExpectBothEngines(model, "delete and upsert over earlier deletes");

  // Both kinds of delete file are live in the final snapshot.
  int data = 0, position = 0, equality = 0;
  ASSERT_EQ(std::sscanf(last_summary_.c_str(), "data files %d, position delete files %d, equality delete files %d",
                        &data, &position, &equality),
            3)
      << last_summary_;
  EXPECT_GE(position, 3) << last_summary_;
  EXPECT_GE(equality, 3) << last_summary_;
}

}  // namespace
}  // namespace floe
