// Schema changes across processes and engines:
//   - two `floe schema` processes change one table's schema at once: the one that planned on the
//     schema the other replaced is refused with the requirement that failed (exit 3), and the
//     table shows exactly the change that landed; several racing without a pause each land or
//     are refused, never both half-applied;
//   - PyIceberg and Spark (real engines: FLOE_PEERS_PYTHON, FLOE_PEERS_SPARK_ICEBERG_JAR) read a
//     table floe evolved (promotions, a rename, moves at the top level and in a struct, a field
//     added to the struct) and find the same schema and rows, old files included. Skipped
//     without peers.
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "catalog/catalog.h"
#include "floe_process.h"
#include "rows/row_writes.h"
#include "commit/schema_update.h"
#include "types/schema_text.h"
#include "util/uuid.h"

namespace floe {
namespace {

class SchemaChangeSystem : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() / ("floe-schema-evo-" + RandomUuidString().substr(0, 12))).string();
    std::filesystem::create_directories(dir_);
    uri_ = "sqlite://" + dir_ + "/catalog.db";
    auto catalog = OpenCatalog(uri_);
    ASSERT_TRUE(catalog.has_value()) << catalog.error().message;
    catalog_ = std::move(*catalog);
    ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}).has_value());
  }
  void TearDown() override {
    catalog_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // Starts `floe --catalog URI schema ARGS...`, its output (both streams) into `out`.
  pid_t StartSchemaCommand(const std::vector<std::string>& args, const std::string& out,
                           const std::vector<std::pair<std::string, std::string>>& env = {}) {
    std::vector<std::string> all = {"--catalog", uri_, "schema"};
    all.insert(all.end(), args.begin(), args.end());
    return test::SpawnProcess(FLOE_BINARY, all, {out, true}, env);
  }
  static int Wait(pid_t pid) {
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  static std::string Slurp(const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }

  void WriteEvolvedTable(std::string* metadata_location);
  int RunCheck(const std::string& python, const std::vector<std::string>& args, const std::string& out);

  std::string dir_, uri_;
  std::unique_ptr<Catalog> catalog_;
  TableIdentifier id_{{"db"}, "t"};
};

TEST_F(SchemaChangeSystem, TwoProcessesChangingTheSchemaOneIsRefusedWithTheRequirement) {
  CreateTableRequest request;
  request.schema = *ParseSchemaText("id long not null, qty int, price float, note string");
  ASSERT_TRUE(catalog_->CreateTable(id_, request).has_value());

  // A plans "qty -> long" and waits; B moves a column meanwhile; A's commit then finds the
  // schema it planned on replaced.
  const std::string pause = dir_ + "/pause";
  std::filesystem::create_directories(pause);
  pid_t a = StartSchemaCommand({"update-column", "db.t", "qty", "--type", "long"}, dir_ + "/a.out",
                               {{"FLOE_TEST_PAUSE_AFTER_SCHEMA_PLAN", pause}});
  for (int i = 0; i < 300 && !std::filesystem::exists(pause + "/planned"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(std::filesystem::exists(pause + "/planned")) << Slurp(dir_ + "/a.out");
  pid_t b = StartSchemaCommand({"move-column", "db.t", "note", "--first"}, dir_ + "/b.out");
  ASSERT_EQ(Wait(b), 0) << Slurp(dir_ + "/b.out");
  std::ofstream(pause + "/go") << "";
  EXPECT_EQ(Wait(a), 3) << Slurp(dir_ + "/a.out");
  const std::string refused = Slurp(dir_ + "/a.out");
  EXPECT_NE(refused.find("Requirement failed: current schema changed"), std::string::npos) << refused;
  auto table = catalog_->LoadTable(id_);
  ASSERT_TRUE(table.has_value());
  const Schema& s = table->metadata.CurrentSchema();
  EXPECT_EQ(s.fields()[0].name, "note");
  EXPECT_EQ(s.FindField("qty")->type->id(), TypeId::kInt);  // A's change did not land
  EXPECT_EQ(table->metadata.schemas.size(), 2u);

  // Four at once, no pause: each lands or is refused whole. The schema shows exactly the
  // changes whose command succeeded, one schema each.
  struct Change {
    std::vector<std::string> args;
    std::function<bool(const Schema&)> landed;
  };
  std::vector<Change> changes = {
      {{"update-column", "db.t", "qty", "--type", "long"}, [](const Schema& s) { return s.FindField("qty")->type->id() == TypeId::kLong; }},
      {{"update-column", "db.t", "price", "--type", "double"}, [](const Schema& s) { return s.FindField("price")->type->id() == TypeId::kDouble; }},
      {{"add-column", "db.t", "extra", "int"}, [](const Schema& s) { return s.FindField("extra") != nullptr; }},
      {{"update-column", "db.t", "note", "--doc", "free text"}, [](const Schema& s) { return s.FindField("note")->doc == "free text"; }},
  };
  std::vector<pid_t> pids;
  for (size_t i = 0; i < changes.size(); ++i)
    pids.push_back(StartSchemaCommand(changes[i].args, dir_ + "/race-" + std::to_string(i) + ".out"));
  size_t landed = 0;
  std::vector<int> codes;
  for (size_t i = 0; i < pids.size(); ++i) {
    int code = Wait(pids[i]);
    codes.push_back(code);
    const std::string out = Slurp(dir_ + "/race-" + std::to_string(i) + ".out");
    if (code == 0) {
      ++landed;
    } else {
      EXPECT_EQ(code, 3) << out;
      EXPECT_NE(out.find("Requirement failed"), std::string::npos) << out;
    }
  }
  EXPECT_GE(landed, 1u);
  table = catalog_->LoadTable(id_);
  ASSERT_TRUE(table.has_value());
  for (size_t i = 0; i < changes.size(); ++i)
    EXPECT_EQ(changes[i].landed(table->metadata.CurrentSchema()), codes[i] == 0) << changes[i].args[2];
  EXPECT_EQ(table->metadata.schemas.size(), 2u + landed);
}

// Nested fields by dotted name through the command, and `floe schema` listing them so.
TEST_F(SchemaChangeSystem, NestedFieldsByDottedNameThroughTheCommand) {
  auto field = [](int id, const char* name, TypePtr type, bool required = false) {
    return NestedField{id, name, std::move(type), required, ""};
  };
  CreateTableRequest request;
  request.schema = Schema(
      0, {field(1, "id", Type::Long(), true), field(2, "qty", Type::Int()),
          field(3, "loc", Type::Struct({field(4, "lat", Type::Float()), field(5, "lon", Type::Float())})),
          field(6, "points", Type::List(field(7, "element", Type::Struct({field(8, "x", Type::Int())}), true))),
          field(9, "tags", Type::Map(field(10, "key", Type::String(), true), field(11, "value", Type::Int())))});
  ASSERT_TRUE(catalog_->CreateTable(id_, request).has_value());
  auto run = [&](const std::vector<std::string>& args) {
    const std::string out = dir_ + "/run.out";
    int code = Wait(StartSchemaCommand(args, out));
    return std::make_pair(code, Slurp(out));
  };
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"add-column", "db.t", "loc.alt", "double", "--doc", "metres"},
           {"update-column", "db.t", "loc.lat", "--type", "double"},
           {"move-column", "db.t", "loc.lon", "--first"},
           {"update-column", "db.t", "points.element.x", "--type", "long"},
           {"add-column", "db.t", "points.element.y", "int"},
           {"update-column", "db.t", "tags.value", "--type", "long", "--optional"},
           {"rename-column", "db.t", "loc.alt", "altitude"},
           {"drop-column", "db.t", "points.element.x"},
       }) {
    auto [code, out] = run(args);
    EXPECT_EQ(code, 0) << args[0] << " " << args[2] << ": " << out;
  }
  struct Refusal {
    std::vector<std::string> args;
    std::string expect;
  };
  for (const auto& r : std::vector<Refusal>{
           {{"drop-column", "db.t", "points.element.y"}, "it is its struct's only field"},
           {{"move-column", "db.t", "loc.lat", "--after", "qty"}, "they are in different structs"},
           {{"rename-column", "db.t", "tags.key", "k"}, "it is a map's key or value"},
           {{"update-column", "db.t", "loc.nope", "--optional"}, "column 'loc.nope' is not in the table's schema"},
       }) {
    auto [code, out] = run(r.args);
    EXPECT_EQ(code, 2) << r.args[2] << ": " << out;
    EXPECT_NE(out.find(r.expect), std::string::npos) << r.args[2] << ": want '" << r.expect << "' in " << out;
  }
  auto [code, listing] = run({"db.t", "--format", "csv"});
  ASSERT_EQ(code, 0) << listing;
  for (const char* want : {"loc.lon,float", "loc.lat,double", "loc.altitude,double,false,false,metres",
                           "points.element.y,int", "tags.key,string", "tags.value,long,false"})
    EXPECT_NE(listing.find(want), std::string::npos) << want << " in:\n" << listing;
  EXPECT_EQ(listing.find("points.element.x"), std::string::npos) << listing;
  EXPECT_LT(listing.find("loc.lon"), listing.find("loc.lat")) << listing;
}

// Where the peers' Python is; empty when they are not installed.
std::string PeersPython() {
  const char* python = std::getenv("FLOE_PEERS_PYTHON");
  return python && *python && std::filesystem::exists(python) ? python : "";
}

// The table the engines read: written as (id long, qty int, price float, amount decimal(9,2),
// loc struct<lat double, lon double>) with two rows, then promoted, renamed, moved (top level and
// inside loc), loc.alt added, and a third row appended. Its metadata file goes to
// *metadata_location. tests/py/schema_evolution_check.py holds what the engines must see.
void SchemaChangeSystem::WriteEvolvedTable(std::string* metadata_location) {
  auto field = [](int id, const char* name, TypePtr type, bool required = false) {
    return NestedField{id, name, std::move(type), required, ""};
  };
  Schema schema(0, {field(1, "id", Type::Long(), true), field(2, "qty", Type::Int()), field(3, "price", Type::Float()),
                    field(4, "amount", Type::Decimal(9, 2)),
                    field(5, "loc", Type::Struct({field(6, "lat", Type::Double()), field(7, "lon", Type::Double())}))});
  CreateTableRequest request;
  request.schema = schema;
  ASSERT_TRUE(catalog_->CreateTable(id_, request).has_value());
  // Rows as (id, qty, price, amount cents, lat, lon[, alt]) under the table's schema of the time.
  auto append = [&](const std::vector<std::array<double, 7>>& rows) {
    auto table = catalog_->LoadTable(id_);
    ASSERT_TRUE(table.has_value());
    const Schema& s = table->metadata.CurrentSchema();
    ColumnBatch batch(s);
    for (const auto& row : rows) {
      for (size_t c = 0; c < s.fields().size(); ++c) {
        const NestedField& f = s.fields()[c];
        Column& col = batch.columns[c];
        Status st = Ok();
        if (f.id == 1) st = col.Append(Literal::Long(static_cast<int64_t>(row[0])));
        if (f.id == 2)
          st = col.Append(f.type->id() == TypeId::kInt ? Literal::Int(static_cast<int32_t>(row[1]))
                                                       : Literal::Long(static_cast<int64_t>(row[1])));
        if (f.id == 3)
          st = col.Append(f.type->id() == TypeId::kFloat ? Literal::Float(static_cast<float>(row[2])) : Literal::Double(row[2]));
        if (f.id == 4) st = col.Append(Literal(f.type, static_cast<__int128>(row[3])));
        if (f.id == 5) {
          for (size_t k = 0; k < f.type->fields().size(); ++k) {
            const std::string& name = f.type->fields()[k].name;
            double v = name == "lat" ? row[4] : name == "lon" ? row[5] : row[6];
            ASSERT_TRUE(col.children[k].Append(Literal::Double(v)).has_value());
          }
          col.length++;
        }
        ASSERT_TRUE(st.has_value()) << f.name << ": " << st.error().message;
      }
      batch.num_rows++;
    }
    auto appended = AppendBatch(*catalog_, id_, batch);
    ASSERT_TRUE(appended.has_value()) << appended.error().message;
  };
  append({{1, 10, 1.5, 12345, 50, 8, 0}, {2, 20, 2.5, 20000, 51, 9, 0}});
  auto evolved = UpdateSchema(*catalog_, id_,
                              SchemaUpdate()
                                  .UpdateColumnType("qty", Type::Long())
                                  .UpdateColumnType("price", Type::Double())
                                  .UpdateColumnType("amount", Type::Decimal(12, 2))
                                  .RenameColumn("qty", "quantity")
                                  .MoveFirst("amount")
                                  .MoveBefore("loc.lon", "loc.lat"));
  ASSERT_TRUE(evolved.has_value()) << evolved.error().message;
  ASSERT_TRUE(AddColumn(*catalog_, id_, "loc.alt", Type::Double()).has_value());
  append({{3, 5000000000.0, 3.5, 123456789012.0, 52, 10, 100}});

  auto table = catalog_->LoadTable(id_);
  ASSERT_TRUE(table.has_value());
  *metadata_location = table->metadata_location;
}

// Runs tests/py/schema_evolution_check.py with `args`; its exit status (output in `out`).
int SchemaChangeSystem::RunCheck(const std::string& python, const std::vector<std::string>& args, const std::string& out) {
  std::vector<std::string> all = {std::string(FLOE_SOURCE_DIR) + "/tests/py/schema_evolution_check.py"};
  all.insert(all.end(), args.begin(), args.end());
  return Wait(test::SpawnProcess(python, all, {out, true}));
}

TEST_F(SchemaChangeSystem, PyIcebergReadsTheEvolvedTable) {
  const std::string python = PeersPython();
  if (python.empty()) GTEST_SKIP() << "skipped: no peers (FLOE_PEERS_PYTHON is not set; scripts/peers.sh installs them)";
  std::string metadata;
  ASSERT_NO_FATAL_FAILURE(WriteEvolvedTable(&metadata));
  const std::string out = dir_ + "/pyiceberg.out";
  EXPECT_EQ(RunCheck(python, {"pyiceberg", metadata}, out), 0) << Slurp(out);
}

// Spark starts a JVM (about 30 s on two cores): the one slow test here, bounded by its TIMEOUT.
TEST_F(SchemaChangeSystem, SparkReadsTheEvolvedTable) {
  const std::string python = PeersPython();
  const char* jar = std::getenv("FLOE_PEERS_SPARK_ICEBERG_JAR");
  if (python.empty() || !jar || !std::filesystem::exists(jar))
    GTEST_SKIP() << "skipped: no peers (FLOE_PEERS_PYTHON or FLOE_PEERS_SPARK_ICEBERG_JAR is not set)";
  std::string metadata;
  ASSERT_NO_FATAL_FAILURE(WriteEvolvedTable(&metadata));
  const std::string out = dir_ + "/spark.out";
  EXPECT_EQ(RunCheck(python, {"spark", metadata, jar}, out), 0) << Slurp(out);
}

}  // namespace
}  // namespace floe
