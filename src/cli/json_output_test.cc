// `floe scan` and `floe cat` stream --format json batch by batch (api/batch_text.h): the text must be,
// byte for byte, the indented array the listing printed when every row was held at once (an
// ordered_json array of the rows' objects, dumped with indent 2), for several files, nulls,
// --limit and an empty result, and it must parse as JSON with every row.
#include <algorithm>
#include <filesystem>
#include <iterator>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/cli_test_fixture.h"
#include "cli/json_text.h"

namespace floe_cli_test {
namespace {

// The JSON array the previous implementation laid out from the same rows, rebuilt from the
// JSON lines output (one object per line, keys in column order).
std::string ListingOfJsonLines(const std::string& jsonl) {
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  std::istringstream in(jsonl);
  for (std::string line; std::getline(in, line);) all.push_back(nlohmann::ordered_json::parse(line));
  return floe::cli::JsonText(all, 2) + "\n";
}

size_t Lines(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

class JsonOutput : public FloeCli {
 protected:
  // sales.orders in three partitions (three data files), then a fourth file with nulls.
  void SetUp() override {
    FloeCli::SetUp();
    CreateOrders();
    Write("nulls.csv", "order_id,country,amount_cents,ts\n5,DE,,2026-01-01T12:00:00\n6,,600,\n");
    auto r = Floe("append sales.orders nulls.csv");
    ASSERT_EQ(r.status, 0) << r.out;
  }
};

TEST_F(JsonOutput, ScanJsonIsTheListingOfItsRows) {
  for (const std::string args : {"", " --limit 2", " --limit 0", " --columns ts,order_id", " --where 'order_id > 99'",
                                 " --where 'amount_cents is null'"}) {
    auto jsonl = Floe("scan sales.orders --format jsonl" + args);
    auto json = Floe("scan sales.orders --format json" + args);
    ASSERT_EQ(jsonl.status, 0) << jsonl.out;
    ASSERT_EQ(json.status, 0) << json.out;
    EXPECT_EQ(json.out, ListingOfJsonLines(jsonl.out)) << args;
    auto parsed = nlohmann::json::parse(json.out);
    ASSERT_TRUE(parsed.is_array()) << args;
    EXPECT_EQ(parsed.size(), Lines(jsonl.out)) << args;
  }
  EXPECT_EQ(Floe("scan sales.orders --format json --where 'order_id > 99'").out, "[]\n");
  EXPECT_EQ(nlohmann::json::parse(Floe("scan sales.orders --format json").out).size(), 6u);
  EXPECT_EQ(nlohmann::json::parse(Floe("scan sales.orders --format json --limit 2").out).size(), 2u);
  auto nulls = nlohmann::json::parse(Floe("scan sales.orders --format json --where 'order_id = 6'").out);
  ASSERT_EQ(nulls.size(), 1u);
  EXPECT_TRUE(nulls[0]["country"].is_null() || nulls[0]["country"] == "") << nulls.dump();
  EXPECT_TRUE(nulls[0]["ts"].is_null()) << nulls.dump();

  // --output writes the same bytes to the file.
  ASSERT_EQ(Floe("scan sales.orders --format json --output out.json").status, 0);
  std::ifstream file(dir() + "/out.json", std::ios::binary);
  std::string written((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  EXPECT_EQ(written, Floe("scan sales.orders --format json").out);
}

TEST_F(JsonOutput, CatJsonIsTheListingOfItsRows) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir() + "/warehouse"))
    if (e.path().string().ends_with(".parquet")) files.push_back(e.path().string());
  ASSERT_GE(files.size(), 4u);
  for (const std::string& f : files) {
    for (const std::string args : {"", " --limit 1", " --limit 0"}) {
      auto jsonl = Floe("cat " + f + " --format jsonl" + args);
      auto json = Floe("cat " + f + " --format json" + args);
      ASSERT_EQ(json.status, 0) << json.out;
      EXPECT_EQ(json.out, ListingOfJsonLines(jsonl.out)) << f << args;
      EXPECT_EQ(nlohmann::json::parse(json.out).size(), Lines(jsonl.out)) << f << args;
    }
    EXPECT_EQ(Floe("cat " + f + " --format json --limit 0").out, "[]\n");
  }
}

}  // namespace
}  // namespace floe_cli_test
