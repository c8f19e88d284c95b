// Listing-free reclamation (maint/intent_reclamation.h) against writers killed by SIGKILL while
// their files stream out: real `floe append` processes, killed once their first data files are
// on disk. Then:
//   - an intent younger than the window is left alone (nothing deleted);
//   - `remove-orphan-files --from-intents` deletes exactly the files the killed writers left,
//     none that a commit references, and no file that no intent names (it lists nothing);
//   - a rerun finds nothing; a write that landed or failed cleanly leaves no intent.
// On SQLite, PostgreSQL (FLOE_TEST_PG_URI) and the storage catalog.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "catalog/catalog_test_env.h"
#include "catalog/intent_store.h"
#include "catalog/commit.h"
#include "maint/reachable_files.h"
#include "scan/table_scan.h"
#include "rows/row_writes.h"
#include "types/schema_text.h"
#include "util/clock.h"
#include "floe_process.h"
#include "table_files/metadata_location.h"

namespace floe {
namespace {

using testing_env::Backend;

constexpr const char* kSchema = "order_id long not null, note string";

std::set<std::string> FilesUnder(const std::string& dir) {
  std::set<std::string> out;
  if (!std::filesystem::exists(dir)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out.insert(e.path().string());
  return out;
}

std::string LocalOf(const std::string& p) {
  if (!p.starts_with("file:")) return p;
  std::string rest = p.substr(5);
  while (rest.starts_with("//")) rest = rest.substr(1);
  return rest;
}

class IntentReclaim : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    place_ = testing_env::MakePlace(GetParam(), dir_.path());
    if (place_.uri.empty()) GTEST_SKIP() << place_.skip_reason;
    if (!std::filesystem::exists(FLOE_BINARY)) GTEST_SKIP() << "no floe binary at " FLOE_BINARY;
    CatalogOptions options;
    options.name = place_.name;
    auto opened = OpenCatalog(place_.uri, options);
    ASSERT_TRUE(opened.has_value()) << opened.error().message;
    catalog_ = std::move(*opened);
    id_ = TableIdentifier{{"r" + place_.name}, "orders"};
    ASSERT_TRUE(catalog_->CreateNamespace(id_.ns, {}).has_value());
    CreateTableRequest request;
    request.schema = *ParseSchemaText(kSchema);
    request.properties["write.target-file-size-bytes"] = "1";  // a file every 1,024 rows
    auto created = catalog_->CreateTable(id_, request);
    ASSERT_TRUE(created.has_value()) << created.error().message;
    table_dir_ = LocalOf(created->metadata.location);
  }

  void Append(int64_t first, int64_t count) {
    ColumnBatch rows(*ParseSchemaText(kSchema));
    for (int64_t i = 0; i < count; ++i)
      ASSERT_TRUE(rows.AppendRow({Literal::Long(first + i), Literal::String("committed")}).has_value());
    auto appended = AppendBatch(*catalog_, id_, rows);
    ASSERT_TRUE(appended.has_value()) << appended.error().message;
  }

  TableMetadata Metadata() { return catalog_->LoadTable(id_)->metadata; }

  std::vector<WriteIntentBatch> Intents() {
    IntentStore* store = IntentStoreOf(*catalog_);
    EXPECT_NE(store, nullptr);
    auto listed = store->ListIntents(id_, MetadataFolder(Metadata()));
    EXPECT_TRUE(listed.has_value()) << listed.error().message;
    return listed ? *listed : std::vector<WriteIntentBatch>{};
  }

  pid_t Spawn(const std::vector<std::string>& args, const std::string& out = "/dev/null") {
    std::vector<std::string> all = {"--catalog", place_.uri, "--catalog-name", place_.name};
    all.insert(all.end(), args.begin(), args.end());
    return test::SpawnProcess(FLOE_BINARY, all, {.path = out, .with_stderr = true});
  }

  // Runs floe; its exit code, and its output in *out.
  int Run(const std::vector<std::string>& args, std::string* out = nullptr) {
    const std::string file = dir_.path() + "/out.txt";
    int status = 0;
    waitpid(Spawn(args, file), &status, 0);
    if (out) {
      std::ifstream in(file);
      out->assign(std::istreambuf_iterator<char>(in), {});
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  // A `floe append` of many rows (a file every 1,024 of them), killed with SIGKILL once at
  // least `files` new data files of it are on disk: in the middle of its stream of files.
  void KillWriterMidWrite(int writer, size_t files) {
    const std::string input = dir_.path() + "/rows-" + std::to_string(writer) + ".csv";
    {
      std::ofstream out(input);
      out << "order_id,note\n";
      for (int64_t i = 0; i < 400000; ++i) out << 1000000 * (writer + 1) + i << ",killed\n";
    }
    const size_t before = FilesUnder(table_dir_ + "/data").size();
    pid_t pid = Spawn({"append", id_.ToString(), input});
    bool written = false;
    for (int i = 0; i < 60000 && !written; ++i) {
      written = FilesUnder(table_dir_ + "/data").size() >= before + files;
      if (!written) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(written) << "writer " << writer << " never wrote " << files << " files";
    ASSERT_TRUE(WIFSIGNALED(status)) << "writer " << writer << " ended before it was killed";
  }

  testing_env::TempDir dir_{"floe-intents"};
  testing_env::CatalogPlace place_;
  std::unique_ptr<Catalog> catalog_;
  TableIdentifier id_;
  std::string table_dir_;
};

TEST_P(IntentReclaim, KilledWritersFilesAreReclaimedFromIntentsAlone) {
  Append(0, 3000);
  Append(10000, 10);
  // A landed write leaves no intent behind.
  EXPECT_TRUE(Intents().empty());
  const std::set<std::string> committed = FilesUnder(table_dir_);
  const int64_t before_kills = NowMillis();
  std::this_thread::sleep_for(std::chrono::milliseconds(5));

  KillWriterMidWrite(0, 20);
  KillWriterMidWrite(1, 20);
  std::set<std::string> left;
  for (const auto& f : FilesUnder(table_dir_))
    if (!committed.contains(f) && !IsIntentObject(f)) left.insert(f);
  ASSERT_GE(left.size(), 40u);
  // Every file the killed writers created is named by an intent that was durable first.
  std::set<std::string> recorded;
  for (const auto& b : Intents())
    for (const auto& p : b.paths) recorded.insert(LocalOf(p));
  for (const auto& f : left) EXPECT_TRUE(recorded.contains(f)) << f << " was created without an intent naming it";
  // A file no intent names (not a floe writer's) is not this sweep's business: it lists nothing.
  const std::string stray = table_dir_ + "/data/stray.parquet";
  std::ofstream(stray) << "not from a floe writer";

  // Intents younger than the window: left alone.
  std::string out;
  ASSERT_EQ(Run({"remove-orphan-files", id_.ToString(), "--from-intents", "--older-than",
                 std::to_string(before_kills)},
                &out),
            0)
      << out;
  EXPECT_NE(out.find("deleted 0 orphan files"), std::string::npos) << out;
  for (const auto& f : left) EXPECT_TRUE(std::filesystem::exists(f)) << f;

  // Stale: exactly the killed writers' files go, with their intents.
  ASSERT_EQ(Run({"remove-orphan-files", id_.ToString(), "--from-intents", "--older-than", std::to_string(NowMillis())},
                &out),
            0)
      << out;
  EXPECT_NE(out.find("nothing listed"), std::string::npos) << out;
  std::set<std::string> now = FilesUnder(table_dir_);
  for (const auto& f : left) EXPECT_FALSE(now.contains(f)) << f << " was left behind";
  for (const auto& f : committed) {
    if (!IsIntentObject(f)) EXPECT_TRUE(now.contains(f)) << f << " was committed and is gone";
  }
  EXPECT_TRUE(now.contains(stray));
  EXPECT_TRUE(Intents().empty());
  auto rows = ReadTable(*catalog_->io(), Metadata(), ScanOptions{});
  ASSERT_TRUE(rows.has_value()) << rows.error().message;
  EXPECT_EQ(rows->num_rows, 3010u);

  // A rerun has nothing to do.
  ASSERT_EQ(Run({"remove-orphan-files", id_.ToString(), "--from-intents", "--older-than", std::to_string(NowMillis())},
                &out),
            0);
  EXPECT_NE(out.find("deleted 0 orphan files (0 intent records read"), std::string::npos) << out;
}

TEST_P(IntentReclaim, AFailedWriteClearsItsIntentAndBadArgumentsAreRefused) {
  // Rows stream in, files are written, then the source fails: the writer deletes its files,
  // then its intent.
  const std::set<std::string> before = FilesUnder(table_dir_);
  int batches = 0;
  auto source = [&](ColumnBatch* out) -> Result<bool> {
    if (batches++ == 3) return std::unexpected(Error{ErrorKind::kIOError, "the input broke"});
    *out = ColumnBatch(*ParseSchemaText(kSchema));
    for (int64_t i = 0; i < 3000; ++i)
      if (auto st = out->AppendRow({Literal::Long(i), Literal::String("lost")}); !st) return std::unexpected(st.error());
    return true;
  };
  auto appended = AppendRows(*catalog_, id_, source);
  ASSERT_FALSE(appended.has_value());
  // The storage catalog deletes the cleared intent's objects later (with other clears, or when
  // it lists intents, as here, or closes): then nothing of the write is left.
  EXPECT_TRUE(Intents().empty());
  EXPECT_EQ(FilesUnder(table_dir_), before);
  std::string out;
  EXPECT_NE(Run({"remove-orphan-files", id_.ToString(), "--from-intents", "--location", table_dir_ + "/data"}, &out), 0);
  EXPECT_NE(out.find("--location cannot be combined with --from-intents"), std::string::npos) << out;
  EXPECT_NE(Run({"remove-orphan-files", id_.ToString(), "--from-intents", "--older-than",
                 std::to_string(NowMillis() + 3600000)},
                &out),
            0);
  EXPECT_NE(out.find("in the future"), std::string::npos) << out;
}

// The storage catalog defers a landed write's clear (catalog/storage/storage_catalog.h): an
// append makes one intent request, its record, and the clears of 64 intent objects share one
// delete; the rest go when the catalog closes, leaving no intent behind.
TEST(StorageIntentClears, AnAppendPaysOneIntentRequestAndItsClearFollowsInABatch) {
  testing_env::TempDir dir{"floe-intent-clears"};
  const TableIdentifier id{{"db"}, "t"};
  constexpr int kAppends = 70;
  std::string intents;
  {
    auto opened = OpenCatalog("file://" + dir.path() + "/warehouse", {});
    ASSERT_TRUE(opened.has_value()) << opened.error().message;
    Catalog& catalog = **opened;
    ASSERT_TRUE(catalog.CreateNamespace(id.ns, {}).has_value());
    CreateTableRequest request;
    request.schema = *ParseSchemaText(kSchema);
    auto created = catalog.CreateTable(id, request);
    ASSERT_TRUE(created.has_value()) << created.error().message;
    intents = LocalOf(MetadataFolder(created->metadata)) + "/floe-intents";
    IntentStore* store = IntentStoreOf(catalog);
    ASSERT_NE(store, nullptr);
    ColumnBatch rows(request.schema);
    ASSERT_TRUE(rows.AppendRow({Literal::Long(1), Literal::String("x")}).has_value());
    RowWriteOptions options;
    options.merge_append = false;  // one data file, one manifest, one list: one record
    const int64_t before = store->intent_requests();
    for (int i = 0; i < kAppends; ++i) {
      auto appended = AppendBatch(catalog, id, rows, options);
      ASSERT_TRUE(appended.has_value()) << appended.error().message;
    }
    EXPECT_EQ(store->intent_requests() - before, kAppends + 1) << "a record per append, and one delete of 64 clears";
    EXPECT_EQ(FilesUnder(intents).size(), static_cast<size_t>(kAppends - 64)) << "the clears not yet due";
  }
  EXPECT_TRUE(FilesUnder(intents).empty()) << "closing the catalog deletes the clears it deferred";
}

INSTANTIATE_TEST_SUITE_P(Catalogs, IntentReclaim,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres, Backend::kStorage),
                         [](const auto& info) { return testing_env::BackendName(info.param); });

}  // namespace
}  // namespace floe
