// What a write through the public Table costs in catalog loads (commit/commit_base.h): the
// table loaded for its schema is also its commit's base, so a write that meets no other writer
// loads the table once, and one that loses its race still reloads, re-validates and lands once.
// The catalog is a real SQLite one behind FaultInjectingCatalog, which counts the loads; the
// other writer is a catalog object of its own on the same database.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "api/api_internal.h"
#include "catalog/fault_injecting_catalog.h"
#include "floe/floe.h"
#include "util/uuid.h"

namespace floe {
namespace {

class WriteLoads : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir_);
    auto connection = Connection::Open(uri());
    ASSERT_TRUE(connection.has_value()) << connection.error().message;
    ASSERT_TRUE(connection->CreateNamespace("db").has_value());
    ASSERT_TRUE(connection->CreateTable("db.t", {.schema = "id long not null, country string"}).has_value());
    auto inner = OpenCatalog(uri());
    ASSERT_TRUE(inner.has_value()) << inner.error().message;
    auto counting = std::make_shared<FaultInjectingCatalog>(std::move(*inner));
    counting_ = counting.get();
    auto id = TableIdentifier::Parse("db.t");
    ASSERT_TRUE(id.has_value());
    table_.emplace(std::make_shared<Table::Impl>(Table::Impl{counting, *id, "db.t"}));
    auto other = Connection::Open(uri());
    ASSERT_TRUE(other.has_value());
    other_.emplace(std::move(*other));
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string uri() const { return "sqlite://" + dir_ + "/catalog.db"; }
  // Loads made by `write` alone.
  int LoadsOf(const std::function<void()>& write) {
    const int before = counting_->table_loads();
    write();
    return counting_->table_loads() - before;
  }
  // Another writer, through a catalog object of its own, appends one row.
  void OtherAppends(int64_t id) {
    auto other = other_->LoadTable("db.t");
    ASSERT_TRUE(other.has_value());
    auto landed = other->Append(Rows{{"id", "country"}, {{id, std::string("FR")}}});
    ASSERT_TRUE(landed.has_value()) << landed.error().message;
  }
  size_t RowCount() {
    auto rows = other_->LoadTable("db.t")->Scan();
    EXPECT_TRUE(rows.has_value());
    return rows ? rows->size() : 0;
  }
  std::string WriteFile(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  const std::string dir_ =
      (std::filesystem::temp_directory_path() / ("floe-loads-" + RandomUuidString().substr(0, 12))).string();
  FaultInjectingCatalog* counting_ = nullptr;
  std::optional<Table> table_;
  std::optional<Connection> other_;
};

// On a catalog the process commits to itself, an append loads twice: the writer's load (for
// the schema) and the commit's own when it starts, because the process's other appends to the
// table may land while its files are written (commit_engine.cc, Load). An overwrite starts
// from the writer's load: one.
TEST_F(WriteLoads, AppendsLoadForTheWriteAndForTheCommitAnOverwriteOnce) {
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(LoadsOf([&] {
                InputFiles input;
                input.json_lines = "{\"id\": " + std::to_string(i) + ", \"country\": \"DE\"}\n";
                auto landed = table_->AppendFiles(input);
                ASSERT_TRUE(landed.has_value()) << landed.error().message;
                EXPECT_EQ(landed->attempts, 1);
              }),
              2)
        << "AppendFiles of JSON lines, call " << i;
  }
  const std::string csv = WriteFile("in.csv", "id,country\n10,FR\n11,FR\n");
  EXPECT_EQ(LoadsOf([&] {
              auto landed = table_->AppendFiles(InputFiles{.paths = {csv}});
              ASSERT_TRUE(landed.has_value()) << landed.error().message;
              EXPECT_EQ(landed->rows_added, 2);
            }),
            2)
      << "AppendFiles of a CSV file";
  EXPECT_EQ(LoadsOf([&] { ASSERT_TRUE(table_->Append(Rows{{"id", "country"}, {{int64_t{20}, std::string("DE")}}})); }),
            2)
      << "Append";
  EXPECT_EQ(LoadsOf([&] {
              bool given = false;
              auto landed = table_->AppendBatches([&](Rows* batch) -> Result<bool> {
                if (given) return false;
                given = true;
                *batch = Rows{{"id", "country"}, {{int64_t{30}, std::string("DE")}}};
                return true;
              });
              ASSERT_TRUE(landed.has_value()) << landed.error().message;
            }),
            2)
      << "AppendBatches";
  EXPECT_EQ(LoadsOf([&] {
              const std::string fr = WriteFile("fr.csv", "id,country\n40,FR\n");
              auto landed = table_->OverwriteFiles(InputFiles{.paths = {fr}}, Filter::Parse("country = 'FR'").value());
              ASSERT_TRUE(landed.has_value()) << landed.error().message;
              EXPECT_EQ(landed->attempts, 1);
            }),
            1)
      << "OverwriteFiles";
  EXPECT_EQ(RowCount(), 6u);  // 0, 1, 2, 20, 30 (DE) and 40 (FR, replacing 10 and 11)
}

// Row-level changes (copy-on-write and merge-on-read) and metadata changes too: the table they
// plan on is the one their commit's first attempt starts from.
TEST_F(WriteLoads, RowChangesAndMetadataChangesLoadTheTableOnce) {
  auto seeded = table_->Append(Rows{{"id", "country"},
                                    {{int64_t{1}, std::string("DE")}, {int64_t{2}, std::string("FR")},
                                     {int64_t{3}, std::string("FR")}}});
  ASSERT_TRUE(seeded.has_value()) << seeded.error().message;
  auto landed_once = [](const Result<CommitInfo>& info) {
    ASSERT_TRUE(info.has_value()) << info.error().message;
    EXPECT_TRUE(info->committed);
    EXPECT_EQ(info->attempts, 1);
  };
  EXPECT_EQ(LoadsOf([&] { landed_once(table_->Update(Filter::Parse("id = 1").value(), "country = 'AT'")); }), 1)
      << "Update (copy-on-write)";
  EXPECT_EQ(LoadsOf([&] { landed_once(table_->Delete(Filter::Parse("id = 2").value())); }), 1)
      << "Delete (copy-on-write)";
  EXPECT_EQ(LoadsOf([&] {
              landed_once(table_->Upsert(Rows{{"id", "country"}, {{int64_t{3}, std::string("IT")}}}, {"id"}));
            }),
            1)
      << "Upsert";
  const std::string up = WriteFile("up.jsonl", "{\"id\": 4, \"country\": \"ES\"}\n");
  EXPECT_EQ(LoadsOf([&] { landed_once(table_->UpsertFiles(InputFiles{.paths = {up}}, {"id"})); }), 1) << "UpsertFiles";
  EXPECT_EQ(LoadsOf([&] {
              ASSERT_TRUE(table_->ChangeProperties({{"write.delete.mode", "merge-on-read"}}).has_value());
            }),
            1)
      << "ChangeProperties";
  EXPECT_EQ(LoadsOf([&] { landed_once(table_->Delete(Filter::Parse("id = 4").value())); }), 1)
      << "Delete (merge-on-read)";
  EXPECT_EQ(LoadsOf([&] { ASSERT_TRUE(table_->ChangeSchema(SchemaChange::AddColumn("note", "string")).has_value()); }),
            1)
      << "ChangeSchema";
  EXPECT_EQ(LoadsOf([&] {
              auto tx = table_->NewTransaction();
              ASSERT_TRUE(tx.has_value()) << tx.error().message;
              ASSERT_TRUE(tx->SetProperties({{"owner", "loads"}}).has_value());
              ASSERT_TRUE(tx->Append(Rows{{"id", "country"}, {{int64_t{5}, std::string("PT")}}}).has_value());
              landed_once(tx->Commit());
            }),
            1)
      << "a transaction";
  auto rows = other_->LoadTable("db.t")->Scan();
  ASSERT_TRUE(rows.has_value());
  ASSERT_EQ(rows->size(), 3u);  // 1 (now AT), 3 (now IT) and 5
}

// The other writer lands during this one's swap: the first attempt loses; the retry reloads (a
// third load, after the writer's and the commit's) and lands on top, once.
TEST_F(WriteLoads, ALostRaceReloadsAndLandsOnce) {
  WriteOptions options;
  options.before_swap = [&](int attempt) {
    if (attempt == 1) OtherAppends(100);
  };
  CommitInfo info;
  EXPECT_EQ(LoadsOf([&] {
              InputFiles input;
              input.json_lines = "{\"id\": 1, \"country\": \"DE\"}\n";
              auto landed = table_->AppendFiles(input, options);
              ASSERT_TRUE(landed.has_value()) << landed.error().message;
              info = *landed;
            }),
            3);
  EXPECT_EQ(info.attempts, 2);
  EXPECT_EQ(info.conflicts, 1);
  auto snapshots = table_->Snapshots();
  ASSERT_TRUE(snapshots.has_value());
  ASSERT_EQ(snapshots->size(), 2u);  // the other writer's, then this one's on top: no duplicate
  EXPECT_EQ(snapshots->back().snapshot_id, info.snapshot_id);
  EXPECT_EQ(snapshots->back().parent_id, snapshots->front().snapshot_id);
  EXPECT_EQ(RowCount(), 2u);
}

// The other writer lands after this one loaded the table and wrote its files, before its
// commit starts. An overwrite's commit starts from the handed base, which is stale: its swap is
// refused by its requirements and the retry starts from a fresh load (the other writer's row is
// not one the overwrite's filter matches, so it lands on top). An append starts from the
// commit's own load and lands at once.
TEST_F(WriteLoads, AStaleHandedBaseLosesItsSwapAndTheRetryLands) {
  WriteOptions options;
  options.before_commit = [&] { OtherAppends(100); };  // country FR
  const std::string de = WriteFile("de.csv", "id,country\n1,DE\n");
  auto landed = table_->OverwriteFiles(InputFiles{.paths = {de}}, Filter::Parse("country = 'DE'").value(), options);
  ASSERT_TRUE(landed.has_value()) << landed.error().message;
  EXPECT_EQ(landed->attempts, 2);
  auto snapshots = table_->Snapshots();
  ASSERT_TRUE(snapshots.has_value());
  ASSERT_EQ(snapshots->size(), 2u);
  EXPECT_EQ(snapshots->back().parent_id, snapshots->front().snapshot_id);
  EXPECT_EQ(RowCount(), 2u);

  options.before_commit = [&] { OtherAppends(101); };
  InputFiles input;
  input.json_lines = "{\"id\": 2, \"country\": \"DE\"}\n";
  auto appended = table_->AppendFiles(input, options);
  ASSERT_TRUE(appended.has_value()) << appended.error().message;
  EXPECT_EQ(appended->attempts, 1);
  EXPECT_EQ(RowCount(), 4u);
}

// Validation is checked from the snapshot the writer read, whatever base the attempt starts
// from: an overwrite of country = 'FR' is refused (serializable) when another writer added an
// FR row after this one read the table, exactly as when the commit loaded the table itself.
TEST_F(WriteLoads, AnOverwriteIsStillRefusedByAMatchingFileLandedAfterItsRead) {
  OtherAppends(1);
  WriteOptions options;
  options.before_commit = [&] { OtherAppends(2); };
  const std::string fr = WriteFile("fr.csv", "id,country\n40,FR\n");
  auto refused = table_->OverwriteFiles(InputFiles{.paths = {fr}}, Filter::Parse("country = 'FR'").value(), options);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kValidationFailed) << refused.error().message;
  EXPECT_NE(refused.error().message.find("Found conflicting files that can contain records matching"),
            std::string::npos)
      << refused.error().message;
  EXPECT_EQ(RowCount(), 2u);  // nothing of the overwrite landed; both FR rows are there
  // Nothing it wrote is left in the table's data folder beyond the two appended files.
  size_t parquet = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir_))
    parquet += entry.path().extension() == ".parquet" ? 1 : 0;
  EXPECT_EQ(parquet, 2u);
}

}  // namespace
}  // namespace floe
