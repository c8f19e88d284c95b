// `floe update` with the values SQL users write: SET c = NULL (refused for a required column)
// and decimal arithmetic (exact, rounded to the column's scale, refused past its precision);
// and `floe inspect` of a manifest printing a null list as null.
#include "cli/cli_test_fixture.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <vector>

namespace {

using floe_cli_test::FloeCli;

class FloeUpdateValues : public FloeCli {
 protected:
  void CreateAccounts(const std::string& mode) {
    ASSERT_EQ(Floe("namespace create bank").status, 0);
    auto r = Floe("create bank.accounts --schema 'id long not null, note string, amt decimal(7, 2)' "
                  "--property write.update.mode=" + mode);
    ASSERT_EQ(r.status, 0) << r.out;
    Write("accounts.csv", "id,note,amt\n1,first,10.25\n2,second,99999.99\n3,third,-0.01\n");
    r = Floe("append bank.accounts accounts.csv");
    ASSERT_EQ(r.status, 0) << r.out;
  }
  // The rows as CSV lines, sorted (a scan's order follows its files).
  std::string Rows() {
    std::string out = Floe("scan bank.accounts --format csv").out, line;
    std::vector<std::string> lines;
    std::istringstream in(out);
    while (std::getline(in, line)) lines.push_back(line);
    std::sort(lines.begin(), lines.end());
    std::string sorted;
    for (const auto& l : lines) sorted += l + "\n";
    return sorted;
  }
};

TEST_F(FloeUpdateValues, SetNullAndDecimalArithmeticInBothModes) {
  for (const std::string mode : {"copy-on-write", "merge-on-read"}) {
    SCOPED_TRACE(mode);
    CreateAccounts(mode);
    auto r = Floe("update bank.accounts --set 'note = NULL' --where 'id = 1'");
    EXPECT_EQ(r.status, 0) << r.out;
    r = Floe("update bank.accounts --set 'amt = amt * 2' --where 'id <> 2'");
    EXPECT_EQ(r.status, 0) << r.out;
    r = Floe("update bank.accounts --set 'amt = amt / 3' --where 'id = 1'");  // 20.50 / 3 = 6.833333 -> 6.83
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(Rows(), "1,,6.83\n2,second,99999.99\n3,third,-0.02\nid,note,amt\n");

    // Refused, naming why, and nothing changes.
    const std::string before = Rows();
    r = Floe("update bank.accounts --set 'amt = amt * 2' --where 'id = 2'");
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("199999.98 does not fit decimal(7,2)"), std::string::npos) << r.out;
    r = Floe("update bank.accounts --set 'id = NULL' --where 'id = 3'");
    EXPECT_NE(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("'id' is required"), std::string::npos) << r.out;
    EXPECT_EQ(Rows(), before);
    ASSERT_EQ(Floe("drop bank.accounts --purge").status, 0);
    ASSERT_EQ(Floe("namespace drop bank").status, 0);
  }
}

TEST_F(FloeUpdateValues, InspectPrintsANullEqualityIdsListAsNull) {
  CreateAccounts("copy-on-write");
  std::string manifest;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir() + "/warehouse"))
    if (e.path().string().ends_with("-m0.avro")) manifest = e.path().string();
  ASSERT_FALSE(manifest.empty());
  auto r = Floe("inspect " + manifest);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\"equality_ids\": null"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"equality_ids\": []"), std::string::npos) << r.out;
}

}  // namespace
