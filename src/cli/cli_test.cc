// Drives the floe command as a user would: subprocesses, exit statuses, printed output.
#include "cli/cli_test_fixture.h"

#include <algorithm>
#include <sstream>

namespace {

using floe_cli_test::FloeCli;

TEST_F(FloeCli, NamespacesAndTables) {
  EXPECT_EQ(Floe("namespace create sales").status, 0);
  auto list = Floe("namespace list --format json");
  EXPECT_EQ(list.status, 0);
  EXPECT_NE(list.out.find("\"sales\""), std::string::npos) << list.out;
  auto create = Floe("create sales.t --schema 'id long, name string'");
  EXPECT_EQ(create.status, 0) << create.out;
  EXPECT_EQ(Floe("list sales --format csv").out, "namespace,table\nsales,t\n");
  EXPECT_EQ(Floe("rename sales.t sales.t2").status, 0);
  EXPECT_EQ(Floe("list --format csv").out, "namespace,table\nsales,t2\n");
  auto drop_ns = Floe("namespace drop sales");
  EXPECT_EQ(drop_ns.status, 1) << "a namespace with tables is not dropped";
  EXPECT_EQ(Floe("drop sales.t2 --purge").status, 0);
  EXPECT_EQ(Floe("namespace drop sales").status, 0);
  EXPECT_EQ(Floe("namespace list --format csv").out, "namespace\n");
}

TEST_F(FloeCli, AppendScanDeleteUpdate) {
  CreateOrders();
  auto scan = Floe("scan sales.orders --columns order_id,country --where \"country = 'DE'\" --format csv");
  EXPECT_EQ(scan.status, 0) << scan.out;
  EXPECT_NE(scan.out.find("order_id,country\n"), std::string::npos) << scan.out;
  EXPECT_NE(scan.out.find("1,DE\n"), std::string::npos) << scan.out;
  EXPECT_NE(scan.out.find("2,DE\n"), std::string::npos) << scan.out;
  EXPECT_EQ(scan.out.find("FR"), std::string::npos) << scan.out;

  auto del = Floe("delete sales.orders --where 'order_id = 1'");
  EXPECT_EQ(del.status, 0) << del.out;
  auto upd = Floe("update sales.orders --set 'amount_cents = amount_cents * 2' --where \"country = 'FR'\"");
  EXPECT_EQ(upd.status, 0) << upd.out;
  auto rows = Floe("scan sales.orders --columns order_id,amount_cents --format jsonl");
  EXPECT_EQ(rows.out.find("\"order_id\":1,"), std::string::npos) << rows.out;
  EXPECT_NE(rows.out.find("{\"order_id\":3,\"amount_cents\":600}"), std::string::npos) << rows.out;

  auto snapshots = Floe("snapshots sales.orders --format json");
  EXPECT_EQ(snapshots.status, 0) << snapshots.out;
  EXPECT_NE(snapshots.out.find("\"append\""), std::string::npos);
  EXPECT_NE(snapshots.out.find("\"overwrite\""), std::string::npos);
  for (const char* t : {"history", "refs", "files", "manifests", "partitions"})
    EXPECT_EQ(Floe(std::string(t) + " sales.orders").status, 0) << t;
  auto schema = Floe("schema sales.orders");
  EXPECT_EQ(schema.status, 0);
  EXPECT_NE(schema.out.find("amount_cents"), std::string::npos);
  EXPECT_NE(schema.out.find("country, day(ts)"), std::string::npos) << schema.out;
}

TEST_F(FloeCli, TimeTravelAndReadingWithoutACatalog) {
  CreateOrders();
  auto first = Floe("snapshots sales.orders --format csv");
  std::string line = first.out.substr(first.out.find('\n') + 1);
  ASSERT_TRUE(Floe("delete sales.orders --where 'order_id > 1'").status == 0);
  EXPECT_EQ(Floe("scan sales.orders --format csv --columns order_id").out, "order_id\n1\n");
  // Read the table folder directly (no catalog), at its newest metadata.
  auto direct = Floe("scan warehouse/sales/orders --format csv --columns order_id");
  EXPECT_EQ(direct.status, 0) << direct.out;
  EXPECT_EQ(direct.out, "order_id\n1\n");
}

TEST_F(FloeCli, IdempotencyKeyMakesAReRunANoOp) {
  CreateOrders();
  auto first = Floe("append sales.orders orders.csv --idempotency-key batch-42");
  EXPECT_EQ(first.status, 0) << first.out;
  auto again = Floe("append sales.orders orders.csv --idempotency-key batch-42");
  EXPECT_EQ(again.status, 0) << again.out;
  EXPECT_NE(again.out.find("nothing written"), std::string::npos) << again.out;
  EXPECT_EQ(Floe("scan sales.orders --format csv --columns order_id --where 'order_id = 1'").out,
            "order_id\n1\n1\n");  // the original append and the first keyed one
}

TEST_F(FloeCli, BadArgumentsExitTwoAndChangeNothing) {
  CreateOrders();
  auto before = Floe("snapshots sales.orders --format csv").out;
  struct Case {
    std::string args, says;
  } cases[] = {
      {"append", "TABLE is required"},
      {"frobnicate", ""},
      {"delete sales.orders --where 'country = '", "position"},
      {"delete sales.orders --where 'nope = 1'", "nope"},
      {"create sales.x --schema 'id lung'", "lung"},
      {"create sales.x --schema 'id long' --partition-by 'hour(id)'", "hour"},
      {"create 'bad/name.t' --schema 'id long'", "bad/name"},
      {"update sales.orders --set 'amount_cents' --where 'order_id = 1'", "column = value"},
      {"scan sales.orders --format xml", "xml"},
      {"append sales.orders orders.csv --format xml", "xml"},
      {"namespace create ../up", ".."},
  };
  for (const auto& c : cases) {
    auto r = Floe(c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.out;
    if (!c.says.empty()) {
      EXPECT_NE(r.out.find(c.says), std::string::npos) << c.args << "\n" << r.out;
    }
  }
  EXPECT_EQ(Floe("snapshots sales.orders --format csv").out, before);
  EXPECT_EQ(Floe("list --format csv").out, "namespace,table\nsales,orders\n");
}

TEST_F(FloeCli, BadInputFilesAreClearErrors) {
  CreateOrders();
  Write("bad.csv", "order_id,country,amount_cents,ts\n5,DE,abc,2026-01-01T00:00:00\n");
  auto r = Floe("append sales.orders bad.csv");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("bad.csv line 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("amount_cents"), std::string::npos) << r.out;
  auto missing = Floe("append sales.orders nowhere.csv");
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.out.find("nowhere.csv"), std::string::npos) << missing.out;
  EXPECT_EQ(Floe("scan sales.orders --format csv --columns order_id").out, "order_id\n1\n2\n3\n4\n");
}

// CSV as DuckDB, Spark and PostgreSQL read it: an unquoted empty field is NULL, a quoted "" the
// empty string; floe's own CSV output writes them the same way, so a round trip keeps both.
TEST_F(FloeCli, CsvEmptyFieldIsNullAndQuotedEmptyIsEmptyString) {
  ASSERT_EQ(Floe("namespace create s").status, 0);
  ASSERT_EQ(Floe("create s.t --schema 'id long, s string, n long'").status, 0);
  Write("in.csv", "id,s,n\n1,,\n2,\"\",5\n3,x,\r\n4,\"two\nlines, \"\"quoted\"\"\",7\n");
  auto r = Floe("append s.t in.csv");
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string expected =
      "{\"id\":1,\"s\":null,\"n\":null}\n{\"id\":2,\"s\":\"\",\"n\":5}\n{\"id\":3,\"s\":\"x\",\"n\":null}\n"
      "{\"id\":4,\"s\":\"two\\nlines, \\\"quoted\\\"\",\"n\":7}\n";
  EXPECT_EQ(Floe("scan s.t --format jsonl").out, expected);
  auto csv = Floe("scan s.t --format csv --output out.csv");
  ASSERT_EQ(csv.status, 0) << csv.out;
  ASSERT_EQ(Floe("create s.u --schema 'id long, s string, n long'").status, 0);
  ASSERT_EQ(Floe("append s.u out.csv").status, 0);
  EXPECT_EQ(Floe("scan s.u --format jsonl").out, expected) << "null and empty survive floe's own CSV";
  EXPECT_EQ(Floe("scan s.t --format csv --where 's IS NULL' --columns id").out, "id\n1\n");
}

TEST_F(FloeCli, CsvNullStringChoosesTheNullMarker) {
  ASSERT_EQ(Floe("namespace create s").status, 0);
  ASSERT_EQ(Floe("create s.t --schema 'id long, s string, d date'").status, 0);
  Write("in.csv", "id,s,d\n1,NULL,NULL\n2,,\n3,\"NULL\",2026-01-02\n");
  auto r = Floe("append s.t in.csv --null-string NULL");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(Floe("scan s.t --format jsonl").out,
            "{\"id\":1,\"s\":null,\"d\":null}\n{\"id\":2,\"s\":\"\",\"d\":null}\n"
            "{\"id\":3,\"s\":\"NULL\",\"d\":\"2026-01-02\"}\n");
}

TEST_F(FloeCli, CsvHeaderMatchesColumnsIgnoringCaseAndNamesTheOnesThatDoNot) {
  ASSERT_EQ(Floe("namespace create s").status, 0);
  ASSERT_EQ(Floe("create s.t --schema 'id long not null, name string, score double'").status, 0);
  Write("upper.csv", "SCORE,Id,NAME\n1.5,1,a\n");
  auto ok = Floe("append s.t upper.csv");
  ASSERT_EQ(ok.status, 0) << ok.out;
  EXPECT_EQ(Floe("scan s.t --format csv").out, "id,name,score\n1,a,1.5\n");

  Write("unknown.csv", "id,nmae,points\n2,b,3\n");
  auto unknown = Floe("append s.t unknown.csv");
  EXPECT_NE(unknown.status, 0);
  EXPECT_NE(unknown.out.find("unknown.csv"), std::string::npos) << unknown.out;
  EXPECT_NE(unknown.out.find("'nmae', 'points'"), std::string::npos) << unknown.out;
  EXPECT_NE(unknown.out.find("id, name, score"), std::string::npos) << "lists the table's columns: " << unknown.out;

  Write("missing.csv", "name,score\nc,4\n");
  auto missing = Floe("append s.t missing.csv");
  EXPECT_NE(missing.status, 0);
  EXPECT_NE(missing.out.find("required column 'id'"), std::string::npos) << missing.out;

  Write("twice.csv", "id,ID\n3,3\n");
  auto twice = Floe("append s.t twice.csv");
  EXPECT_NE(twice.status, 0);
  EXPECT_NE(twice.out.find("twice"), std::string::npos) << twice.out;
  EXPECT_EQ(Floe("scan s.t --format csv --columns id").out, "id\n1\n") << "refused files add nothing";
}

TEST_F(FloeCli, JsonOutputKeepsTheSchemaColumnOrder) {
  ASSERT_EQ(Floe("namespace create s").status, 0);
  ASSERT_EQ(Floe("create s.t --schema 'zeta long, alpha string, mid double'").status, 0);
  Write("in.jsonl", "{\"alpha\":\"a\",\"mid\":0.5,\"zeta\":9}\n");
  ASSERT_EQ(Floe("append s.t in.jsonl").status, 0);
  EXPECT_EQ(Floe("scan s.t --format jsonl").out, "{\"zeta\":9,\"alpha\":\"a\",\"mid\":0.5}\n");
  auto json = Floe("scan s.t --format json");
  ASSERT_EQ(json.status, 0) << json.out;
  size_t z = json.out.find("\"zeta\""), a = json.out.find("\"alpha\""), m = json.out.find("\"mid\"");
  ASSERT_NE(m, std::string::npos) << json.out;
  EXPECT_LT(z, a) << json.out;
  EXPECT_LT(a, m) << json.out;
}

TEST_F(FloeCli, IngestCommitsMicroBatches) {
  CreateOrders();
  std::string lines;
  for (int i = 100; i < 125; ++i)
    lines += "{\"order_id\": " + std::to_string(i) + ", \"country\": \"DE\", \"amount_cents\": 1}\n";
  auto r = Floe("ingest sales.orders --batch-rows 10", lines);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("25 rows in 3 commits"), std::string::npos) << r.out;
}

TEST_F(FloeCli, InspectPrintsMetadataManifestsAndParquet) {
  CreateOrders();
  std::string metadata, manifest_list, data;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir() + "/warehouse")) {
    std::string p = e.path().string();
    if (p.ends_with(".metadata.json")) metadata = p;
    if (p.find("/snap-") != std::string::npos) manifest_list = p;
    if (p.ends_with(".parquet")) data = p;
  }
  auto m = Floe("inspect " + metadata);
  EXPECT_EQ(m.status, 0) << m.out;
  EXPECT_NE(m.out.find("\"format-version\""), std::string::npos);
  auto l = Floe("inspect " + manifest_list);
  EXPECT_EQ(l.status, 0) << l.out;
  EXPECT_NE(l.out.find("manifest_path"), std::string::npos) << l.out;
  auto p = Floe("inspect " + data);
  EXPECT_EQ(p.status, 0) << p.out;
  auto c = Floe("cat " + data + " --format csv");
  EXPECT_EQ(c.status, 0) << c.out;
  Write("junk.json", "{\"format-version\": 42}");
  EXPECT_EQ(Floe("inspect junk.json").status, 1);
}

// cat streams CSV and JSON lines batch by batch (api/batch_text.h, as scan does): the same rows and
// text as the table's scan, and --limit cuts the stream at exactly N rows.
TEST_F(FloeCli, CatPrintsTheRowsScanPrints) {
  CreateOrders();
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir() + "/warehouse"))
    if (e.path().string().ends_with(".parquet")) files.push_back(e.path().string());
  ASSERT_FALSE(files.empty());
  auto lines = [](const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  };
  for (const char* format : {"csv", "jsonl"}) {
    bool csv = std::string(format) == "csv";
    auto scan = Floe("scan sales.orders --format " + std::string(format));
    ASSERT_EQ(scan.status, 0) << scan.out;
    std::vector<std::string> want = lines(scan.out), got;
    if (csv) want.erase(want.begin());
    for (const std::string& f : files) {
      auto c = Floe("cat " + f + " --format " + format);
      ASSERT_EQ(c.status, 0) << c.out;
      std::vector<std::string> rows = lines(c.out);
      if (csv) {
        ASSERT_EQ(rows.front(), lines(scan.out).front()) << "the CSV header";
        rows.erase(rows.begin());
      }
      got.insert(got.end(), rows.begin(), rows.end());
      auto one = Floe("cat " + f + " --format " + format + " --limit 1");
      ASSERT_EQ(one.status, 0) << one.out;
      EXPECT_EQ(lines(one.out).size(), csv ? 2u : 1u) << one.out;
      EXPECT_EQ(lines(one.out).back(), rows.front());
    }
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, want) << format;
  }
}

TEST_F(FloeCli, HistoryAndEvolutionCommands) {
  CreateOrders();
  auto snapshots = Floe("snapshots sales.orders --format csv").out;
  std::string first = snapshots.substr(snapshots.find('\n') + 1);
  first = first.substr(first.find(',') + 1);
  first = first.substr(0, first.find(','));
  EXPECT_EQ(Floe("branch create sales.orders dev").status, 0);
  EXPECT_EQ(Floe("tag create sales.orders v1 --at " + first).status, 0);
  auto refs = Floe("refs sales.orders --format csv").out;
  EXPECT_NE(refs.find("dev"), std::string::npos) << refs;
  EXPECT_NE(refs.find("v1"), std::string::npos) << refs;
  // A write to the branch leaves main untouched.
  Write("more.csv", "order_id,country,amount_cents,ts\n9,DE,900,2026-01-05T10:00:00\n");
  EXPECT_EQ(Floe("append sales.orders more.csv --branch dev").status, 0);
  EXPECT_EQ(Floe("scan sales.orders --format csv --columns order_id --where 'order_id = 9'").out, "order_id\n");
  EXPECT_EQ(Floe("scan sales.orders --ref dev --format csv --columns order_id --where 'order_id = 9'").out,
            "order_id\n9\n");
  EXPECT_EQ(Floe("delete sales.orders --where 'order_id = 1'").status, 0);
  EXPECT_EQ(Floe("rollback sales.orders --to " + first).status, 0);
  EXPECT_EQ(Floe("scan sales.orders --format csv --columns order_id --where 'order_id = 1'").out, "order_id\n1\n");
  EXPECT_EQ(Floe("schema add-column sales.orders note string").status, 0);
  EXPECT_EQ(Floe("schema rename-column sales.orders note remark").status, 0);
  EXPECT_NE(Floe("schema sales.orders --format csv").out.find("remark,string"), std::string::npos);
  EXPECT_EQ(Floe("schema drop-column sales.orders remark").status, 0);
  EXPECT_EQ(Floe("schema add-column sales.orders x lung").status, 2);
  EXPECT_EQ(Floe("partition-spec add sales.orders 'bucket(4, order_id)'").status, 0);
  EXPECT_EQ(Floe("partition-spec add sales.orders 'day(nope)'").status, 2);
  Write("up.csv", "order_id,country,amount_cents\n2,DE,222\n");
  EXPECT_EQ(Floe("upsert sales.orders up.csv --key order_id").status, 0);
  EXPECT_EQ(Floe("scan sales.orders --format csv --columns amount_cents --where 'order_id = 2'").out,
            "amount_cents\n222\n");
  EXPECT_EQ(Floe("branch drop sales.orders dev").status, 0);
  EXPECT_EQ(Floe("rollback sales.orders --to 1").status, 1);
}

// The row key the table knows: --identifier at create, set-identifier later; upsert and ingest
// use it when no --key is given.
TEST_F(FloeCli, IdentifierFieldsAreTheDefaultUpsertKey) {
  ASSERT_EQ(Floe("namespace create sales").status, 0);
  auto r = Floe("create sales.accounts --schema 'customer long, day string, amount long' --identifier customer,day "
                "--partition-by day");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(Floe("schema sales.accounts --format csv").out.find("1,customer,long,true,true"), std::string::npos);
  EXPECT_EQ(Floe("create sales.bad --schema 'a long' --identifier nope").status, 2);
  Write("a.csv", "customer,day,amount\n1,d1,10\n2,d1,20\n");
  ASSERT_EQ(Floe("upsert sales.accounts a.csv").status, 0);
  Write("b.csv", "customer,day,amount\n2,d1,21\n3,d1,30\n");
  r = Floe("upsert sales.accounts b.csv");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(Floe("scan sales.accounts --format csv --columns customer,amount").out.size(),
            std::string("customer,amount\n1,10\n2,21\n3,30\n").size());
  EXPECT_EQ(Floe("scan sales.accounts --format csv --columns amount --where 'customer = 2'").out, "amount\n21\n");
  // ingest --upsert: each micro-batch upserts on the identifier fields, the later line winning.
  r = Floe("ingest sales.accounts --upsert",
           "{\"customer\": 3, \"day\": \"d1\", \"amount\": 31}\n{\"customer\": 3, \"day\": \"d1\", \"amount\": 32}\n");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(Floe("scan sales.accounts --format csv --columns amount --where 'customer = 3'").out, "amount\n32\n");
  // A table without identifier fields: upsert needs --key, and set-identifier gives it one.
  ASSERT_EQ(Floe("create sales.plain --schema 'id long not null, v string'").status, 0);
  Write("p.csv", "id,v\n1,x\n");
  r = Floe("upsert sales.plain p.csv");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("set-identifier"), std::string::npos) << r.out;
  ASSERT_EQ(Floe("schema set-identifier sales.plain id").status, 0);
  EXPECT_EQ(Floe("upsert sales.plain p.csv").status, 0);
  EXPECT_EQ(Floe("upsert sales.plain p.csv --key v").status, 0) << "--key still overrides";
}

}  // namespace
