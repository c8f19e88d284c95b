#include "io/fault_injecting_file_io.h"

#include <gtest/gtest.h>

#include "io/memory_file_io.h"

namespace floe {
namespace {

class FaultInjectingFileIOTest : public ::testing::Test {
 protected:
  std::shared_ptr<MemoryFileIO> memory_ = std::make_shared<MemoryFileIO>();
  FaultInjectingFileIO io_{memory_};
};

TEST_F(FaultInjectingFileIOTest, FailsOnlyTheNthCreateIfAbsent) {
  io_.AddRule({.op = FileOp::kCreateIfAbsent, .skip = 2});
  EXPECT_TRUE(io_.CreateIfAbsent("/t/1", "a"));
  EXPECT_TRUE(io_.CreateIfAbsent("/t/2", "b"));
  auto third = io_.CreateIfAbsent("/t/3", "c");
  ASSERT_FALSE(third);
  EXPECT_EQ(third.error().kind, ErrorKind::kIOError);
  EXPECT_NE(third.error().message.find("CreateIfAbsent of /t/3"), std::string::npos);
  EXPECT_FALSE(memory_->Exists("/t/3").value());  // a plain fault changes nothing
  EXPECT_TRUE(io_.CreateIfAbsent("/t/4", "d"));
  EXPECT_EQ(io_.Calls(FileOp::kCreateIfAbsent), 4);
  EXPECT_EQ(io_.InjectedFaults(), 1);
}

TEST_F(FaultInjectingFileIOTest, FailsCallsWhosePathMatchesWhateverTheOperation) {
  ASSERT_TRUE(memory_->CreateIfAbsent("/t/metadata/v1.metadata.json", "{}"));
  ASSERT_TRUE(memory_->CreateIfAbsent("/t/data/a.parquet", "PAR1"));
  io_.AddRule({.path_contains = "/metadata/", .times = -1, .kind = ErrorKind::kUnavailable});
  for (int i = 0; i < 3; ++i) {
    auto read = io_.ReadAll("/t/metadata/v1.metadata.json");
    ASSERT_FALSE(read);
    EXPECT_EQ(read.error().kind, ErrorKind::kUnavailable);
  }
  EXPECT_FALSE(io_.Exists("/t/metadata/v1.metadata.json"));
  EXPECT_FALSE(io_.Delete("/t/metadata/v1.metadata.json"));
  EXPECT_EQ(io_.ReadAll("/t/data/a.parquet").value_or(""), "PAR1");
  EXPECT_TRUE(memory_->Exists("/t/metadata/v1.metadata.json").value());
  io_.ClearRules();
  EXPECT_EQ(io_.ReadAll("/t/metadata/v1.metadata.json").value_or(""), "{}");
}

TEST_F(FaultInjectingFileIOTest, ApplyThenFailSimulatesALostAnswer) {
  io_.AddRule({.op = FileOp::kCreateIfAbsent, .apply_then_fail = true});
  auto created = io_.CreateIfAbsent("/t/v2.metadata.json", "mine");
  ASSERT_FALSE(created);
  EXPECT_NE(created.error().message.find("after it took effect"), std::string::npos);
  // The effect happened: a retry now finds the name taken by its own bytes.
  EXPECT_EQ(memory_->ReadAll("/t/v2.metadata.json").value_or(""), "mine");
  EXPECT_EQ(io_.CreateIfAbsent("/t/v2.metadata.json", "mine").error().kind,
            ErrorKind::kAlreadyExists);
}

TEST_F(FaultInjectingFileIOTest, RulesCountOnlyTheCallsTheyMatch) {
  io_.AddRule({.op = FileOp::kReadAll, .path_contains = "b", .skip = 1, .times = 2});
  ASSERT_TRUE(memory_->CreateIfAbsent("/a", "a"));
  ASSERT_TRUE(memory_->CreateIfAbsent("/b", "b"));
  std::string outcomes;
  for (const char* path : {"/a", "/b", "/a", "/b", "/b", "/a", "/b"}) {
    outcomes += io_.ReadAll(path) ? 'y' : 'n';
  }
  // The matching calls are the four on /b: through, fail, fail, through.
  EXPECT_EQ(outcomes, "yyynnyy");
  EXPECT_EQ(io_.Calls(FileOp::kReadAll), 7);
  EXPECT_EQ(io_.InjectedFaults(), 2);
}

TEST_F(FaultInjectingFileIOTest, ReachesIntoOutputFilesAndInputFiles) {
  io_.AddRule({.op = FileOp::kWrite, .skip = 1});
  auto out = io_.NewOutputFile("/t/data/f.parquet");
  ASSERT_TRUE(out);
  EXPECT_TRUE((*out)->Write("PAR1"));
  EXPECT_FALSE((*out)->Write("page"));
  (*out)->Abort();
  EXPECT_FALSE(memory_->Exists("/t/data/f.parquet").value());

  io_.AddRule({.op = FileOp::kClose, .apply_then_fail = true});
  auto again = io_.NewOutputFile("/t/data/g.parquet");
  ASSERT_TRUE(again);
  ASSERT_TRUE((*again)->Write("PAR1"));
  EXPECT_FALSE((*again)->Close());
  EXPECT_EQ(memory_->ReadAll("/t/data/g.parquet").value_or(""), "PAR1");

  io_.AddRule({.op = FileOp::kReadAt, .path_contains = "g.parquet"});
  auto in = io_.NewInputFile("/t/data/g.parquet");
  ASSERT_TRUE(in);
  char scratch[4];
  EXPECT_FALSE((*in)->ReadAt(0, 4, scratch));
  auto second = (*in)->ReadAt(0, 4, scratch);
  ASSERT_TRUE(second);
  EXPECT_EQ(*second, "PAR1");
}

TEST_F(FaultInjectingFileIOTest, ListingAndDeleteCanFailToo) {
  ASSERT_TRUE(memory_->CreateIfAbsent("/w/x", "x"));
  io_.AddRule({.op = FileOp::kListPrefix});
  io_.AddRule({.op = FileOp::kDelete, .apply_then_fail = true});
  EXPECT_FALSE(io_.ListPrefix("/w/"));
  EXPECT_EQ(io_.ListPrefix("/w/").value().size(), 1u);
  EXPECT_FALSE(io_.Delete("/w/x"));
  EXPECT_FALSE(memory_->Exists("/w/x").value());
}

}  // namespace
}  // namespace floe
