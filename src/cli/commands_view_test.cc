// floe view: the commands a user runs, end to end through the `floe` binary.
#include "cli/cli_test_fixture.h"

namespace {

using floe_cli_test::FloeCli;

class ViewCli : public FloeCli {};

TEST_F(ViewCli, CreateReplaceShowHistoryRenameDrop) {
  ASSERT_EQ(Floe("namespace create sales").status, 0);
  auto r = Floe("view create sales.big --sql 'SELECT id FROM sales.orders WHERE amount > 10' --schema 'id long' "
                "--comment 'big orders'");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("created view sales.big: version 1"), std::string::npos) << r.out;
  r = Floe("view replace sales.big --sql 'SELECT id FROM sales.orders WHERE amount > 100'");
  ASSERT_EQ(r.status, 0) << r.out;
  r = Floe("view replace sales.big --sql 'SELECT id FROM orders WHERE amount > 100' --dialect trino");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("version 3"), std::string::npos) << r.out;

  r = Floe("view show sales.big");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("version 3 (current)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sql (spark) SELECT id FROM sales.orders WHERE amount > 100"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sql (trino) SELECT id FROM orders WHERE amount > 100"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("schema id long"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("property comment=big orders"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("1970-"), std::string::npos) << "every version has its time: " << r.out;
  r = Floe("view show sales.big --version 1");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("amount > 10\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("trino"), std::string::npos) << r.out;

  r = Floe("view history sales.big --format csv");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find(",3,true,\"spark,trino\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(",1,false,spark"), std::string::npos) << r.out;

  r = Floe("view list sales --format jsonl");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\"view\":\"big\""), std::string::npos) << r.out;

  ASSERT_EQ(Floe("view rename sales.big sales.bigger").status, 0);
  r = Floe("view show sales.big");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("View does not exist: sales.big"), std::string::npos) << r.out;
  ASSERT_EQ(Floe("view drop sales.bigger").status, 0);
  r = Floe("view drop sales.bigger");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("View does not exist: sales.bigger"), std::string::npos) << r.out;
}

TEST_F(ViewCli, ListMarksViewsAndNamesAreShared) {
  ASSERT_EQ(Floe("namespace create sales").status, 0);
  ASSERT_EQ(Floe("create sales.orders --schema 'id long'").status, 0);
  ASSERT_EQ(Floe("view create sales.v --sql 'SELECT 1'").status, 0);
  auto r = Floe("list sales --format csv");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("sales,orders\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sales,v (view)"), std::string::npos) << r.out;
  r = Floe("view create sales.orders --sql 'SELECT 1'");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("Table with same name already exists: sales.orders"), std::string::npos) << r.out;
  r = Floe("create sales.v --schema 'id long'");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("View with same name already exists: sales.v"), std::string::npos) << r.out;
}

TEST_F(ViewCli, BadArgumentsChangeNothing) {
  ASSERT_EQ(Floe("namespace create sales").status, 0);
  for (const char* args : {"view create sales.x --sql '  '", "view create sales.x --sql 'SELECT 1' --dialect ''",
                           "view create sales.x --sql 'SELECT 1' --schema 'id nosuchtype'",
                           "view create nodot --sql 'SELECT 1'", "view create nope.x --sql 'SELECT 1'",
                           "view show sales.x --version 7", "view replace sales.x --sql 'SELECT 2'"}) {
    SCOPED_TRACE(args);
    auto r = Floe(args);
    EXPECT_NE(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("floe: "), std::string::npos) << r.out;
  }
  auto r = Floe("view list sales --format csv");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "namespace,view\n") << "nothing was created";
}

}  // namespace
