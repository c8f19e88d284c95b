// `floe schema update-column` and `floe schema move-column` as typed, and the old rows read
// back through `floe scan` after each change.
#include "cli/cli_test_fixture.h"

namespace floe_cli_test {
namespace {

class SchemaCli : public FloeCli {
 protected:
  void SetUp() override {
    FloeCli::SetUp();
    ASSERT_EQ(Floe("namespace create shop").status, 0);
    auto r = Floe("create shop.items --schema 'id long not null, qty int, price float, amount decimal(9,2), name string'");
    ASSERT_EQ(r.status, 0) << r.out;
    Write("items.csv", "id,qty,price,amount,name\n1,10,1.5,123.45,apple\n2,20,2.5,200.00,pear\n");
    r = Floe("append shop.items items.csv");
    ASSERT_EQ(r.status, 0) << r.out;
  }
  std::string Csv(const std::string& args) { return Floe("scan shop.items --format csv " + args).out; }
};

TEST_F(SchemaCli, UpdateColumnPromotesAndOldRowsReadInTheNewType) {
  auto r = Floe("schema update-column shop.items qty --type long");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("updated column qty: long"), std::string::npos) << r.out;
  r = Floe("schema update-column shop.items amount --type 'decimal(12,2)' --doc 'price in euros'");
  ASSERT_EQ(r.status, 0) << r.out;
  ASSERT_EQ(Floe("schema update-column shop.items price --type double").status, 0);
  ASSERT_EQ(Floe("schema update-column shop.items id --optional").status, 0);
  std::string schema = Floe("schema shop.items --format csv").out;
  EXPECT_NE(schema.find("2,qty,long,false"), std::string::npos) << schema;
  EXPECT_NE(schema.find("4,amount,\"decimal(12,2)\",false,false,price in euros"), std::string::npos) << schema;
  EXPECT_NE(schema.find("3,price,double"), std::string::npos) << schema;
  EXPECT_NE(schema.find("1,id,long,false"), std::string::npos) << schema;  // now optional
  // The file written before every change reads in the new types, with the same values.
  EXPECT_EQ(Csv("--columns id,qty,price,amount --where 'qty >= 20'"), "id,qty,price,amount\n2,20,2.5,200.00\n");
  // Rows written after the promotion may use the wider range.
  Write("big.csv", "id,qty,price,amount,name\n3,5000000000,3.5,1234567890.12,fig\n");
  ASSERT_EQ(Floe("append shop.items big.csv").status, 0);
  EXPECT_EQ(Csv("--columns qty,amount --where 'id = 3'"), "qty,amount\n5000000000,1234567890.12\n");
  EXPECT_EQ(Csv("--columns id --where 'qty = 10'"), "id\n1\n");
}

TEST_F(SchemaCli, MoveColumnReordersWhatScanShows) {
  ASSERT_EQ(Floe("schema move-column shop.items name --first").status, 0);
  EXPECT_EQ(Csv("--where 'id = 1'"), "name,id,qty,price,amount\napple,1,10,1.5,123.45\n");
  auto r = Floe("schema move-column shop.items name --after amount");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("moved column name after amount"), std::string::npos) << r.out;
  ASSERT_EQ(Floe("schema move-column shop.items price --before id").status, 0);
  EXPECT_EQ(Csv("--where 'id = 2'"), "price,id,qty,amount,name\n2.5,2,20,200.00,pear\n");
}

TEST_F(SchemaCli, RefusalsAreUsageErrorsThatNameTheColumnAndChangeNothing) {
  const std::string before = Floe("schema shop.items --format json").out;
  struct Case {
    std::string args, expect;
  };
  std::vector<Case> cases = {
      {"update-column shop.items id --type int", "Cannot change column type: id: long -> int"},
      {"update-column shop.items name --type long", "Cannot change column type: name: string -> long"},
      {"update-column shop.items amount --type 'decimal(8,2)'", "amount: decimal(9,2) -> decimal(8,2)"},
      {"update-column shop.items qty --required", "cannot make optional column 'qty' required"},
      {"update-column shop.items nope --optional", "column 'nope' is not in the table's schema"},
      {"update-column shop.items qty", "update-column qty: nothing to change"},
      {"update-column shop.items qty --type lung", "--type:"},
      {"move-column shop.items qty --after qty", "Cannot move column 'qty' relative to itself"},
      {"move-column shop.items qty --before nope", "column 'nope' is not in the table's schema"},
      {"move-column shop.items qty", "say where: --first, --after COLUMN or --before COLUMN"},
      {"add-column shop.items name.first string", "'name' is a string, not a struct"},
      {"drop-column shop.items qty.x", "column 'qty.x': 'qty' is a int, not a struct, list or map"},
  };
  for (const auto& c : cases) {
    auto r = Floe("schema " + c.args);
    EXPECT_EQ(r.status, 2) << c.args << ": " << r.out;
    EXPECT_NE(r.out.find(c.expect), std::string::npos) << c.args << ": want '" << c.expect << "' in: " << r.out;
  }
  // Flags that exclude each other are refused by the parser.
  EXPECT_NE(Floe("schema move-column shop.items qty --first --after id").status, 0);
  EXPECT_NE(Floe("schema update-column shop.items qty --optional --required").status, 0);
  EXPECT_EQ(Floe("schema shop.items --format json").out, before);
}

}  // namespace
}  // namespace floe_cli_test
