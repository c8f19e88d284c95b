// `floe register --allow-moved-paths` and `floe inspect --allow-moved-paths`: a table floe wrote
// at one place and moved as a whole is registered from where it is now, with its manifests and
// position deletes rewritten beside it, so the catalog's table reads without any flag; without
// the flag the register is refused naming the missing file, and the catalog is unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "cli/cli_test_env.h"
#include "../../tests/node_tools.h"

namespace floe::cli_test {
namespace {

namespace fs = std::filesystem;

// Every file under `folder` with its contents.
std::map<std::string, std::string> Contents(const fs::path& folder) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(folder))
    if (e.is_regular_file()) out[fs::relative(e.path(), folder).string()] = ReadText(e.path());
  return out;
}

// The newest metadata file in `folder`/metadata (floe names them 00000-<uuid>.metadata.json).
fs::path NewestMetadata(const fs::path& folder) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(folder / "metadata"))
    if (e.path().string().ends_with(".metadata.json")) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files.empty() ? fs::path() : files.back();
}

// The lines of a CSV output in sorted order (a scan returns files in manifest order).
std::string Sorted(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(text.substr(start, end - start));
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

class MovedRegister : public ::testing::Test {
 protected:
  // sales.orders written at test-warehouse/orders: two appends and a merge-on-read delete (so a
  // position delete file names data files by path), then the folder moved to backup/orders.
  void SetUp() override {
    old_location_ = "file://" + (dir_.path() / "test-warehouse/orders").string();
    ASSERT_EQ(dir_.Floe("namespace create sales").status, 0);
    FloeRun create = dir_.Floe("create sales.orders --schema 'id long, country string' --location " + Quote(old_location_));
    ASSERT_EQ(create.status, 0) << create.err;
    ASSERT_EQ(dir_.Floe("properties sales.orders --set write.delete.mode=merge-on-read").status, 0);
    std::ofstream(dir_.path() / "a.csv") << "id,country\n1,DE\n2,FR\n3,DE\n";
    ASSERT_EQ(dir_.Floe("append sales.orders a.csv").status, 0);
    FloeRun snapshots = dir_.Floe("snapshots sales.orders --format csv");
    ASSERT_EQ(snapshots.status, 0) << snapshots.err;
    // committed_at,snapshot_id,...: the one row's second field.
    std::string row = snapshots.out.substr(snapshots.out.find('\n') + 1);
    row = row.substr(row.find(',') + 1);
    first_snapshot_ = row.substr(0, row.find(','));
    std::ofstream(dir_.path() / "b.csv") << "id,country\n4,FR\n";
    ASSERT_EQ(dir_.Floe("append sales.orders b.csv").status, 0);
    FloeRun deleted = dir_.Floe("delete sales.orders --where 'id = 2'");
    ASSERT_EQ(deleted.status, 0) << deleted.err;
    ASSERT_NE(dir_.Floe("files sales.orders --format csv").out.find("-deletes.parquet"), std::string::npos);
    fs::create_directories(dir_.path() / "backup");
    fs::rename(dir_.path() / "test-warehouse/orders", dir_.path() / "backup/orders");
    moved_ = dir_.path() / "backup/orders";
    metadata_ = NewestMetadata(moved_);
    ASSERT_FALSE(metadata_.empty());
  }

  ScratchDir dir_;
  std::string old_location_;
  std::string first_snapshot_;
  fs::path moved_;
  fs::path metadata_;
};

TEST_F(MovedRegister, WithoutTheFlagTheRegisterIsRefusedAndNothingChanges) {
  auto before = Contents(moved_);
  FloeRun refused = dir_.Floe("register sales.restored " + Quote(metadata_.string()));
  EXPECT_EQ(refused.status, 1) << refused.out;
  EXPECT_NE(refused.err.find(old_location_ + "/metadata/snap-"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("--allow-moved-paths"), std::string::npos) << refused.err;
  EXPECT_EQ(dir_.Floe("list sales --format csv").out.find("restored"), std::string::npos);
  EXPECT_EQ(Contents(moved_), before);
}

TEST_F(MovedRegister, WithTheFlagTheRegisteredTableReadsEverywhereWithoutIt) {
  auto before = Contents(moved_);
  FloeRun registered = dir_.Floe("register sales.restored " + Quote(metadata_.string()) + " --allow-moved-paths");
  ASSERT_EQ(registered.status, 0) << registered.err;
  // Nothing that was there is changed: the relocation only adds files.
  auto after = Contents(moved_);
  for (const auto& [name, text] : before) EXPECT_EQ(after[name], text) << name;
  EXPECT_GT(after.size(), before.size());

  // Rows with the delete applied, through the catalog, with no flag.
  FloeRun scan = dir_.Floe("scan sales.restored --format csv");
  ASSERT_EQ(scan.status, 0) << scan.err;
  EXPECT_EQ(Sorted(scan.out), "1,DE\n3,DE\n4,FR\nid,country\n");
  // Time travel to the first append still works: its manifests were relocated too.
  FloeRun old = dir_.Floe("scan sales.restored --format csv --snapshot " + first_snapshot_);
  ASSERT_EQ(old.status, 0) << old.err;
  EXPECT_EQ(Sorted(old.out), "1,DE\n2,FR\n3,DE\nid,country\n");
  // Every file the table names is under the folder it is in now.
  FloeRun files = dir_.Floe("files sales.restored --format csv");
  ASSERT_EQ(files.status, 0) << files.err;
  EXPECT_EQ(files.out.find("test-warehouse"), std::string::npos) << files.out;
  EXPECT_NE(files.out.find(moved_.string()), std::string::npos) << files.out;
  FloeRun inspected = dir_.Floe("inspect " + Quote(NewestMetadata(moved_).string()));
  EXPECT_EQ(inspected.out.find("test-warehouse"), std::string::npos) << inspected.out;

  // An independent reader (avsc and DuckDB, tests/js) told nothing about the move reads the
  // registered document, deletes applied; the document as it was moved cannot be read so.
  if (auto why = testing::MissingNodeModule("@duckdb/node-api")) {
    std::cout << "cross-engine read " << *why << "\n";
  } else if (auto why_avsc = testing::MissingNodeModule("avsc")) {
    std::cout << "cross-engine read " << *why_avsc << "\n";
  } else {
    const std::string registered_at = registered.out.substr(registered.out.rfind(" at ") + 4);
    auto other = testing::RunCommand("node " + testing::ShellQuote(testing::JsScript("iceberg_deletes_duckdb.mjs")) +
                                     " " + testing::ShellQuote(registered_at.substr(0, registered_at.size() - 1)) +
                                     " id country");
    ASSERT_EQ(other.exit_code, 0) << other.output;
    EXPECT_EQ(other.output.substr(0, other.output.find("data files")), "[\"1\",\"DE\"]\n[\"3\",\"DE\"]\n[\"4\",\"FR\"]\n")
        << other.output;
    auto stale = testing::RunCommand("node " + testing::ShellQuote(testing::JsScript("iceberg_deletes_duckdb.mjs")) +
                                     " " + testing::ShellQuote(metadata_.string()) + " id country");
    EXPECT_NE(stale.exit_code, 0) << stale.output;
  }

  // The registered table takes commits like any other.
  ASSERT_EQ(dir_.Floe("append sales.restored b.csv").status, 0);
  EXPECT_EQ(Sorted(dir_.Floe("scan sales.restored --format csv").out), "1,DE\n3,DE\n4,FR\n4,FR\nid,country\n");
}

TEST_F(MovedRegister, ATakenNameIsRefusedBeforeAnythingIsWritten) {
  auto before = Contents(moved_);
  FloeRun refused = dir_.Floe("register sales.orders " + Quote(metadata_.string()) + " --allow-moved-paths");
  EXPECT_EQ(refused.status, 1);
  EXPECT_NE(refused.err.find("already exists"), std::string::npos) << refused.err;
  EXPECT_EQ(Contents(moved_), before);
}

TEST_F(MovedRegister, InspectPrintsWhereAMovedTablesFilesAreNow) {
  FloeRun plain = dir_.Floe("inspect " + Quote(metadata_.string()));
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_NE(plain.out.find("test-warehouse"), std::string::npos);

  FloeRun document = dir_.Floe("inspect " + Quote(metadata_.string()) + " --allow-moved-paths");
  ASSERT_EQ(document.status, 0) << document.err;
  EXPECT_EQ(document.out.find("test-warehouse"), std::string::npos) << document.out;
  EXPECT_NE(document.out.find(moved_.string() + "/metadata/snap-"), std::string::npos) << document.out;

  fs::path manifest;
  for (const auto& e : fs::directory_iterator(moved_ / "metadata"))
    if (e.path().string().ends_with("-m0.avro")) manifest = e.path();
  ASSERT_FALSE(manifest.empty());
  FloeRun entries = dir_.Floe("inspect " + Quote(manifest.string()) + " --allow-moved-paths");
  ASSERT_EQ(entries.status, 0) << entries.err;
  EXPECT_EQ(entries.out.find("test-warehouse"), std::string::npos) << entries.out;
  EXPECT_NE(entries.out.find(moved_.string() + "/data/"), std::string::npos) << entries.out;

  FloeRun outside = dir_.Floe("inspect " + Quote((dir_.path() / "a.csv").string()) + " --allow-moved-paths");
  EXPECT_EQ(outside.status, 1);
  EXPECT_NE(outside.err.find("no metadata/ or data/ folder"), std::string::npos) << outside.err;
}

}  // namespace
}  // namespace floe::cli_test
