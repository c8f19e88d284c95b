// The public API's history, row-level and maintenance calls (include/floe/table.h), end to end
// on a SQLite catalog, with the error kinds their comments promise.
#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include "floe/floe.h"
#include "util/uuid.h"

namespace floe {
namespace {

class PublicSurface : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() / ("floe-surface-" + RandomUuidString().substr(0, 12))).string();
    std::filesystem::create_directories(dir_);
    auto catalog = Connection::Open("sqlite://" + dir_ + "/catalog.db");
    ASSERT_TRUE(catalog.has_value()) << catalog.error().message;
    catalog_.emplace(std::move(*catalog));
    ASSERT_TRUE(catalog_->CreateNamespace("db").has_value());
    auto table = catalog_->CreateTable("db.t", {.schema = "id long not null, v string",
                                                .properties = {{"write.update.mode", "merge-on-read"}}});
    ASSERT_TRUE(table.has_value()) << table.error().message;
    table_.emplace(std::move(*table));
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static Rows Pairs(std::vector<std::pair<int64_t, std::string>> pairs) {
    Rows rows;
    rows.columns = {"id", "v"};
    for (auto& [id, v] : pairs) rows.rows.push_back({id, v});
    return rows;
  }
  // id -> v of the current rows (or of `request`'s snapshot).
  std::map<int64_t, std::string> Read(const ScanRequest& request = {}) {
    auto rows = table_->Scan(request);
    EXPECT_TRUE(rows.has_value()) << rows.error().message;
    std::map<int64_t, std::string> out;
    for (size_t i = 0; rows && i < rows->size(); ++i) {
      out[std::get<int64_t>(rows->At(i, "id"))] = CellToString(rows->At(i, "v"));
    }
    return out;
  }

  std::string dir_;
  std::optional<Connection> catalog_;
  std::optional<Table> table_;
};

TEST_F(PublicSurface, BranchesTagsRollbackAndCherryPick) {
  auto first = table_->Append(Pairs({{1, "a"}}));
  ASSERT_TRUE(first.has_value()) << first.error().message;
  auto tag = table_->CreateTag("v1");
  ASSERT_TRUE(tag.has_value()) << tag.error().message;
  EXPECT_TRUE(tag->is_tag);
  EXPECT_EQ(tag->snapshot_id, first->snapshot_id);
  EXPECT_EQ(table_->CreateTag("v1").error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(table_->CreateBranch("dev", 12345).error().kind, ErrorKind::kNotFound);

  ASSERT_TRUE(table_->CreateBranch("dev").has_value());
  auto on_dev = table_->Append(Pairs({{2, "b"}}), {.branch = "dev"});
  ASSERT_TRUE(on_dev.has_value()) << on_dev.error().message;
  EXPECT_EQ(Read().size(), 1u);
  EXPECT_EQ(Read({.ref = "dev"}).size(), 2u);

  auto refs = table_->Refs();
  ASSERT_TRUE(refs.has_value());
  std::set<std::string> names;
  for (const auto& r : *refs) names.insert(r.name);
  EXPECT_EQ(names, (std::set<std::string>{"dev", "main", "v1"}));

  auto picked = table_->CherryPick(on_dev->snapshot_id);
  ASSERT_TRUE(picked.has_value()) << picked.error().message;
  EXPECT_EQ(Read().size(), 2u);
  EXPECT_EQ(table_->CherryPick(on_dev->snapshot_id).error().kind, ErrorKind::kInvalidArgument);

  auto back = table_->RollbackTo(first->snapshot_id);
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(back->snapshot_id, first->snapshot_id);
  EXPECT_EQ(Read().size(), 1u);

  ASSERT_TRUE(table_->DropTag("v1").has_value());
  EXPECT_EQ(table_->DropTag("v1").error().kind, ErrorKind::kNotFound);
  ASSERT_TRUE(table_->DropBranch("dev").has_value());
}

TEST_F(PublicSurface, ScanBatchesStreamsTheRowsScanReturnsAndStopsEarly) {
  for (int64_t i = 0; i < 3; ++i) ASSERT_TRUE(table_->Append(Pairs({{2 * i, "x"}, {2 * i + 1, "y"}})).has_value());
  size_t batches = 0, rows = 0;
  auto all = table_->ScanBatches({}, [&](Rows&& batch) -> Result<bool> {
    ++batches;
    rows += batch.size();
    return true;
  });
  ASSERT_TRUE(all.has_value()) << all.error().message;
  EXPECT_EQ(rows, 6u);
  EXPECT_EQ(batches, 3u);  // one per data file
  size_t seen = 0;
  auto first = table_->ScanBatches({}, [&](Rows&& batch) -> Result<bool> {
    seen += batch.size();
    return false;
  });
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(seen, 2u);
  auto refused = table_->ScanBatches({}, [](Rows&&) -> Result<bool> { return InvalidArgument("stop here"); });
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().message, "stop here");
  EXPECT_EQ(table_->Scan({.limit = 3})->size(), 3u);
}

TEST_F(PublicSurface, UpsertAndMergeOnReadUpdate) {
  ASSERT_TRUE(table_->Append(Pairs({{1, "a"}, {2, "b"}})).has_value());
  auto upserted = table_->Upsert(Pairs({{2, "B"}, {3, "c"}}), {"id"});
  ASSERT_TRUE(upserted.has_value()) << upserted.error().message;
  EXPECT_EQ(Read(), (std::map<int64_t, std::string>{{1, "a"}, {2, "B"}, {3, "c"}}));
  EXPECT_EQ(table_->Upsert(Pairs({{4, "d"}})).error().kind, ErrorKind::kInvalidArgument);  // no key
  EXPECT_EQ(table_->Upsert(Pairs({{5, "e"}, {5, "f"}}), {"id"}).error().kind, ErrorKind::kInvalidArgument);

  auto where = Filter::Parse("id >= 2");
  ASSERT_TRUE(where.has_value());
  auto updated = table_->Update(*where, "v = 'z'");
  ASSERT_TRUE(updated.has_value()) << updated.error().message;
  EXPECT_EQ(updated->rows_added, 2);
  EXPECT_EQ(Read(), (std::map<int64_t, std::string>{{1, "a"}, {2, "z"}, {3, "z"}}));
  auto snapshots = table_->Snapshots();
  ASSERT_TRUE(snapshots.has_value());
  // merge-on-read (write.update.mode): the update adds delete files, it rewrites no data file.
  EXPECT_NE(snapshots->back().summary.count("added-position-delete-files") +
                snapshots->back().summary.count("added-delete-files"),
            0u);
  EXPECT_EQ(updated->rows_updated, 2);
  EXPECT_GE(updated->files_added, 1);
  EXPECT_TRUE(table_->CheckFilter(*where).has_value());
  EXPECT_EQ(table_->CheckFilter(*Filter::Parse("nope = 1")).error().kind, ErrorKind::kInvalidArgument);
  EXPECT_TRUE(CheckAssignments("v = 'a', id = id + 1").has_value());
  EXPECT_EQ(CheckAssignments("v = ").error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(table_->Update(*where, "nope = 1").error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(table_->Update(*where, "v = ").error().kind, ErrorKind::kInvalidArgument);
}

TEST_F(PublicSurface, MaintenanceCompactsExpiresAndFindsNoOrphans) {
  for (int64_t i = 0; i < 3; ++i) ASSERT_TRUE(table_->Append(Pairs({{i, "x"}})).has_value());
  auto compacted = table_->RewriteDataFiles({});
  ASSERT_TRUE(compacted.has_value()) << compacted.error().message;
  EXPECT_TRUE(compacted->committed);
  EXPECT_EQ(compacted->data_files_rewritten, 3);
  EXPECT_EQ(Read().size(), 3u);

  EXPECT_EQ(CheckExpireSnapshotsOptions({.retain_last = 0}).error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(CheckExpireSnapshotsOptions({.older_than_ms = NowMs() + 3600 * 1000}).error().kind,
            ErrorKind::kInvalidArgument);
  auto expired = table_->ExpireSnapshots({.older_than_ms = NowMs(), .retain_last = 1});
  ASSERT_TRUE(expired.has_value()) << expired.error().message;
  EXPECT_EQ(expired->expired_snapshot_ids.size(), 3u);
  EXPECT_EQ(expired->content_files.size(), 3u);  // the three small files compaction replaced
  EXPECT_EQ(Read().size(), 3u);

  auto orphans = table_->RemoveOrphanFiles({.older_than_ms = NowMs(), .dry_run = true});
  ASSERT_TRUE(orphans.has_value()) << orphans.error().message;
  EXPECT_TRUE(orphans->orphans.empty());
  EXPECT_GT(orphans->files_listed, 0);
  EXPECT_EQ(table_->RemoveOrphanFiles({.older_than_ms = NowMs() + 3600 * 1000}).error().kind,
            ErrorKind::kInvalidArgument);
  auto manifests = table_->RewriteManifests();
  ASSERT_TRUE(manifests.has_value()) << manifests.error().message;
  auto maintained = table_->Maintain({.dry_run = true});
  ASSERT_TRUE(maintained.has_value()) << maintained.error().message;
  EXPECT_FALSE(maintained->summary.empty());

  auto t = ParseTimestampMs("2026-01-01T00:00:00");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(*t, 1767225600000);
  EXPECT_EQ(ParseTimestampMs("yesterday").error().kind, ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace floe
