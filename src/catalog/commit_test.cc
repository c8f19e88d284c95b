// The shared commit routine's outcomes: which failures delete the new document and which keep it.
#include "catalog/commit.h"
#include "table_files/metadata_document.h"
#include "table_files/metadata_location.h"

#include <gtest/gtest.h>

#include "catalog/storage/storage_catalog.h"
#include "catalog/catalog_test_env.h"
#include "io/fault_injecting_file_io.h"
#include "io/memory_file_io.h"
#include "meta/metadata_builder.h"
#include "meta/metadata_json.h"

namespace floe {
namespace {

// A pointer store in memory whose next swap can be made to fail in a chosen way.
class FakePointers : public PointerStore {
 public:
  std::map<TableIdentifier, std::string> pointers;
  std::optional<Error> next_swap_error;
  int swaps = 0;

  Result<std::string> CurrentMetadataLocation(const TableIdentifier& id) override {
    auto it = pointers.find(id);
    if (it == pointers.end()) return NotFound("no table " + id.ToString());
    return it->second;
  }
  Result<std::string> NewMetadataLocation(const TableIdentifier&, const TableMetadata& next,
                                          const std::string& base) override {
    return VersionedMetadataLocation(MetadataFolder(next), base.empty() ? 0 : ParseMetadataVersion(base) + 1);
  }
  Status SwapPointer(const PointerSwap& swap) override { return SwapPointers({swap}); }
  Status SwapPointers(const std::vector<PointerSwap>& all) override {
    ++swaps;
    if (next_swap_error) {
      Error e = *next_swap_error;
      next_swap_error.reset();
      return std::unexpected(e);
    }
    for (const auto& s : all) {
      auto it = pointers.find(s.id);
      if ((it == pointers.end()) != s.base_location.empty() || (it != pointers.end() && it->second != s.base_location)) {
        return CommitConflict("moved");
      }
    }
    for (const auto& s : all) pointers[s.id] = s.new_location;
    return Ok();
  }
};

class CommitRoutine : public ::testing::Test {
 protected:
  void SetUp() override {
    auto updates = NewTableUpdates(testing_env::SimpleSchema(), PartitionSpec::Unpartitioned(), SortOrder::Unsorted(),
                                   "/w/db/t", {});
    ASSERT_TRUE(updates);
    auto created = CommitTableVia(store_, *io_, TableCommit{id_, {AssertCreate{}}, *updates});
    ASSERT_TRUE(created) << created.error().ToString();
    base_ = *created;
  }

  size_t Documents() { return io_->ListPrefix("/w/db/t/metadata/")->size(); }

  TableCommit SetColor(const std::string& color) { return TableCommit{id_, {}, {SetProperties{{{"color", color}}}}}; }

  std::shared_ptr<MemoryFileIO> io_ = std::make_shared<MemoryFileIO>();
  FakePointers store_;
  TableIdentifier id_{{"db"}, "t"};
  LoadedTable base_;
};

TEST_F(CommitRoutine, LostSwapDeletesTheNewDocument) {
  store_.next_swap_error = Error{ErrorKind::kCommitConflict, "pointer moved"};
  auto result = CommitTableVia(store_, *io_, SetColor("red"));
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().kind, ErrorKind::kCommitConflict);
  EXPECT_EQ(Documents(), 1u);
  EXPECT_EQ(store_.pointers[id_], base_.metadata_location);
}

TEST_F(CommitRoutine, UnknownSwapKeepsTheNewDocument) {
  store_.next_swap_error = Error{ErrorKind::kCommitStateUnknown, "connection lost during COMMIT"};
  auto result = CommitTableVia(store_, *io_, SetColor("red"));
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().kind, ErrorKind::kCommitStateUnknown);
  EXPECT_EQ(Documents(), 2u);  // it may be the table's state now: never deleted blindly
}

TEST_F(CommitRoutine, SwapThatCertainlyFailedDeletesTheDocument) {
  store_.next_swap_error = Error{ErrorKind::kUnavailable, "database is locked"};
  auto result = CommitTableVia(store_, *io_, SetColor("red"));
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().kind, ErrorKind::kUnavailable);
  EXPECT_EQ(Documents(), 1u);
}

TEST_F(CommitRoutine, FailedRequirementWritesNothing) {
  auto result = CommitTableVia(store_, *io_, TableCommit{id_, {AssertTableUuid{"00000000-0000-0000-0000-000000000001"}},
                                                         {SetProperties{{{"a", "b"}}}}});
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().kind, ErrorKind::kCommitConflict);
  EXPECT_EQ(Documents(), 1u);
  EXPECT_EQ(store_.swaps, 1);  // only the create
}

TEST_F(CommitRoutine, SuccessNamesTheNextVersion) {
  auto result = CommitTableVia(store_, *io_, SetColor("red"));
  ASSERT_TRUE(result) << result.error().ToString();
  EXPECT_EQ(ParseMetadataVersion(result->metadata_location), 1);
  EXPECT_EQ(store_.pointers[id_], result->metadata_location);
  auto reread = ReadMetadataFile(*io_, result->metadata_location);
  ASSERT_TRUE(reread);
  EXPECT_EQ(reread->properties.at("color"), "red");
}

TEST_F(CommitRoutine, TransactionCleansUpWhenALaterTablePreparesBadly) {
  TableCommit missing{{{"db"}, "missing"}, {}, {SetProperties{{{"a", "b"}}}}};
  auto result = CommitTransactionVia(store_, *io_, {SetColor("red"), missing});
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(Documents(), 1u);  // the first table's prepared document is gone again
  auto twice = CommitTransactionVia(store_, *io_, {SetColor("red"), SetColor("blue")});
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().kind, ErrorKind::kInvalidArgument);
}

TEST(StorageCommit, LostAnswerOnTheVersionFileIsUnknownAndTheCommitMayHaveLanded) {
  auto io = std::make_shared<FaultInjectingFileIO>(std::make_shared<MemoryFileIO>());
  StorageCatalog catalog("default", "/w", io);
  ASSERT_TRUE(catalog.CreateNamespace({"db"}, {}));
  ASSERT_TRUE(catalog.CreateTable({{"db"}, "t"}, CreateTableRequest{testing_env::SimpleSchema()}));
  io->AddRule({.op = FileOp::kCreateIfAbsent, .path_contains = "/v2.metadata.json", .apply_then_fail = true});
  auto result = catalog.CommitTable(TableCommit{{{"db"}, "t"}, {}, {SetProperties{{{"k", "v"}}}}});
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().kind, ErrorKind::kCommitStateUnknown) << result.error().ToString();
  auto loaded = catalog.LoadTable({{"db"}, "t"});
  ASSERT_TRUE(loaded);
  EXPECT_TRUE(loaded->metadata_location.ends_with("/v2.metadata.json"));
  EXPECT_EQ(loaded->metadata.properties.at("k"), "v");
}

}  // namespace
}  // namespace floe
