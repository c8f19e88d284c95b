// Rows from files through the public API (floe/input_files.h): appends, overwrites and upserts
// from real CSV, JSON-lines and Parquet files on a SQLite catalog, and what a bad input leaves
// behind (nothing committed).
#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include "floe/floe.h"
#include "util/uuid.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

class InputFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() / ("floe-input-" + RandomUuidString().substr(0, 12))).string();
    fs::create_directories(dir_);
    auto catalog = Connection::Open("sqlite://" + dir_ + "/catalog.db");
    ASSERT_TRUE(catalog.has_value()) << catalog.error().message;
    catalog_.emplace(std::move(*catalog));
    ASSERT_TRUE(catalog_->CreateNamespace("db").has_value());
    auto table = catalog_->CreateTable("db.t", {.schema = "id long not null, v string", .identifier_columns = {"id"}});
    ASSERT_TRUE(table.has_value()) << table.error().message;
    table_.emplace(std::move(*table));
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  std::map<int64_t, std::string> Read() {
    auto rows = table_->Scan();
    EXPECT_TRUE(rows.has_value()) << rows.error().message;
    std::map<int64_t, std::string> out;
    if (!rows) return out;
    for (size_t r = 0; r < rows->size(); ++r)
      out[std::get<int64_t>(rows->At(r, "id"))] = CellToString(rows->At(r, "v"));
    return out;
  }
  size_t SnapshotCount() {
    auto snapshots = table_->Snapshots();
    EXPECT_TRUE(snapshots.has_value());
    return snapshots ? snapshots->size() : 0;
  }

  std::string dir_;
  std::optional<Connection> catalog_;
  std::optional<Table> table_;
};

TEST_F(InputFilesTest, AppendReadsEveryFormatInOneCommitAndReportsProgress) {
  const std::string csv = Write("a.csv", "id,v\n1,NA\n2,two\n");
  const std::string jsonl = Write("b.jsonl", "{\"id\": 3, \"v\": \"three\"}\n");
  InputFiles input{.paths = {csv, jsonl}, .null_string = "NA"};
  InputProgress last;
  input.progress = [&](const InputProgress& p) { last = p; };
  auto info = table_->AppendFiles(input);
  ASSERT_TRUE(info.has_value()) << info.error().message;
  EXPECT_TRUE(info->committed);
  EXPECT_EQ(info->rows_added, 3);
  EXPECT_EQ(info->rows_read, 3);
  EXPECT_FALSE(info->metadata_location.empty());
  EXPECT_EQ(last.input_bytes_total, static_cast<int64_t>(fs::file_size(csv) + fs::file_size(jsonl)));
  EXPECT_EQ(Read(), (std::map<int64_t, std::string>{{1, "null"}, {2, "two"}, {3, "three"}}));
  EXPECT_EQ(SnapshotCount(), 1u);

  // The table's own data file read back as Parquet input: the same rows again.
  std::string parquet;
  for (const auto& entry : fs::recursive_directory_iterator(dir_))
    if (entry.path().extension() == ".parquet") parquet = entry.path().string();
  ASSERT_FALSE(parquet.empty());
  ASSERT_TRUE(table_->AppendFiles({.paths = {parquet}}).has_value());
  EXPECT_EQ(table_->Scan()->size(), 6u);
}

TEST_F(InputFilesTest, ABadInputCommitsNothingAndNamesTheFile) {
  const std::string good = Write("good.csv", "id,v\n1,a\n");
  const std::string bad = Write("bad.csv", "id,v\n2,b\nnot-a-number,c\n");
  auto failed = table_->AppendFiles({.paths = {good, bad}});
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(failed.error().message.find("bad.csv"), std::string::npos) << failed.error().message;
  auto missing = table_->AppendFiles({.paths = {good, dir_ + "/missing.csv"}});
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
  auto unknown = table_->AppendFiles({.paths = {good}, .format = "xml"});
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(SnapshotCount(), 0u);
  EXPECT_TRUE(Read().empty());
  EXPECT_TRUE(CheckInputFormat("jsonl").has_value());
  EXPECT_TRUE(CheckInputFormat("NDJSON").has_value());
  EXPECT_FALSE(CheckInputFormat("xml").has_value());
  EXPECT_FALSE(CheckInputFormat("Parquet").has_value()) << "only \"parquet\" as written is read as Parquet";
}

TEST_F(InputFilesTest, OverwriteReplacesTheRowsOfWholeFilesMatchingTheFilter) {
  ASSERT_TRUE(table_->AppendFiles({.paths = {Write("low.csv", "id,v\n1,a\n2,b\n")}}).has_value());
  ASSERT_TRUE(table_->AppendFiles({.paths = {Write("high.csv", "id,v\n10,x\n")}}).has_value());
  auto filter = Filter::Parse("id >= 10");
  ASSERT_TRUE(filter.has_value());
  auto info = table_->OverwriteFiles({.paths = {Write("new.csv", "id,v\n11,y\n12,z\n")}}, *filter);
  ASSERT_TRUE(info.has_value()) << info.error().message;
  EXPECT_EQ(info->rows_added, 2);
  EXPECT_EQ(info->files_added, 1);
  EXPECT_EQ(Read(), (std::map<int64_t, std::string>{{1, "a"}, {2, "b"}, {11, "y"}, {12, "z"}}));
  // A filter that matches part of a file cannot replace it: refused, nothing changed.
  auto part = Filter::Parse("id = 1");
  ASSERT_TRUE(part.has_value());
  auto refused = table_->OverwriteFiles({.paths = {Write("one.csv", "id,v\n1,q\n")}}, *part);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(Read(), (std::map<int64_t, std::string>{{1, "a"}, {2, "b"}, {11, "y"}, {12, "z"}}));
  // No filter: every row.
  ASSERT_TRUE(table_->OverwriteFiles({.paths = {Write("all.csv", "id,v\n7,s\n")}}, Filter()).has_value());
  EXPECT_EQ(Read(), (std::map<int64_t, std::string>{{7, "s"}}));
}

TEST_F(InputFilesTest, UpsertReplacesByKeyAndAStreamKeepsTheLastRowOfAKey) {
  ASSERT_TRUE(table_->AppendFiles({.paths = {Write("base.csv", "id,v\n1,a\n2,b\n")}}).has_value());
  auto info = table_->UpsertFiles({.paths = {Write("up.csv", "id,v\n2,B\n3,C\n")}});
  ASSERT_TRUE(info.has_value()) << info.error().message;
  EXPECT_EQ(info->rows_read, 2);
  EXPECT_EQ(Read(), (std::map<int64_t, std::string>{{1, "a"}, {2, "B"}, {3, "C"}}));

  const std::string twice = Write("twice.csv", "id,v\n1,x\n1,y\n");
  auto refused = table_->UpsertFiles({.paths = {twice}});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kInvalidArgument);

  InputFiles stream{.json_lines = "{\"id\": 1, \"v\": \"first\"}\n{\"id\": 1, \"v\": \"last\"}\n{\"id\": 4}\n"};
  auto streamed = table_->UpsertFiles(stream, {"id"}, {}, /*last_row_per_key=*/true);
  ASSERT_TRUE(streamed.has_value()) << streamed.error().message;
  EXPECT_EQ(streamed->rows_read, 3);
  EXPECT_EQ(Read(), (std::map<int64_t, std::string>{{1, "last"}, {2, "B"}, {3, "C"}, {4, "null"}}));

  auto bad_stream = table_->AppendFiles({.json_lines = "{\"id\": \"x\"}\n"});
  ASSERT_FALSE(bad_stream.has_value());
  EXPECT_NE(bad_stream.error().message.find("stdin"), std::string::npos) << bad_stream.error().message;
}

}  // namespace
}  // namespace floe
