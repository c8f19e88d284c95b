// Announced ranges of an S3 object received while the reader reads (s3_streamed_read.h), on moto
// (scripts/s3.sh): the bytes are the object's, requests are counted by the FileIO, and the bytes
// held are the client's own counter, never a time.
#include "io/s3_streamed_read.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "io/s3_fault_proxy_for_tests.h"
#include "io/s3_test_env.h"

namespace floe {
namespace {

std::string Bytes(size_t n) {
  std::string s(n, '\0');
  uint64_t x = 88172645463325252ULL;
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    s[i] = static_cast<char>(x & 0xFF);
  }
  return s;
}

// `count` ranges of `length` bytes, `gap` bytes apart, from `first`.
std::vector<ByteRange> Spaced(int64_t first, int count, int64_t length, int64_t gap) {
  std::vector<ByteRange> out;
  for (int i = 0; i < count; ++i) out.push_back({first + i * (length + gap), length});
  return out;
}

TEST(S3ContentRange, ParsesAndRefusesMalformed) {
  auto r = ParseS3ContentRange("bytes 10-19/100");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->first, 10);
  EXPECT_EQ(r->last, 19);
  EXPECT_EQ(r->size, 100);
  for (const char* bad : {"bytes 10-9/100", "bytes 0-100/100", "bytes */100", "items 0-1/2", "bytes 0-1", ""}) {
    EXPECT_FALSE(ParseS3ContentRange(bad)) << bad;
  }
}

class S3StreamedReadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!TestS3Config()) GTEST_SKIP() << kNoS3Message;
    io_ = TestS3FileIO();
    ASSERT_NE(io_, nullptr) << "cannot reach the test S3 server or create its bucket";
    path_ = TestS3Prefix("streamed") + "/object";
    data_ = Bytes(4 << 20);
    ASSERT_TRUE(io_->CreateIfAbsent(path_, data_));
  }
  // Reads each range (checking its bytes), then says it is done with it, as a scan does row
  // group by row group.
  void ReadInOrder(const InputFile& file, const std::vector<ByteRange>& ranges) {
    std::string scratch;
    for (const ByteRange& r : ranges) {
      scratch.resize(static_cast<size_t>(r.length));
      auto got = file.ReadAt(r.offset, r.length, scratch.data());
      ASSERT_TRUE(got) << got.error().ToString();
      ASSERT_EQ(*got, std::string_view(data_).substr(static_cast<size_t>(r.offset), static_cast<size_t>(r.length)))
          << "range at " << r.offset;
      DoneReading(file, {r});
    }
  }
  std::shared_ptr<S3FileIO> io_;
  std::string path_;
  std::string data_;
};

TEST_F(S3StreamedReadTest, OneGetWhoseBytesAreHeldWithinTheBudget) {
  S3ReadCoalescing rules;
  rules.max_buffered = 200 << 10;
  io_->SetReadCoalescing(rules);
  const int64_t gets = io_->RequestCounts().get;
  auto file = io_->NewInputFile(path_);
  ASSERT_TRUE(file) << file.error().ToString();
  io_->ResetPeakHeldReadBytes();
  // 40 ranges of 50 KB with 40 KB between them (under max_gap: read across and dropped).
  const std::vector<ByteRange> ranges = Spaced(1000, 40, 50'000, 40'000);
  ASSERT_TRUE(WillRead(**file, ranges));
  ReadInOrder(**file, ranges);
  EXPECT_EQ(io_->RequestCounts().get - gets, 2) << "the tail, then one GET for all 40 ranges";
  // What was held at most: the tail and the budget (each range alone is smaller than it), though
  // the reader took 2 MB of ranges out of a 3.6 MB run.
  EXPECT_LE(io_->PeakHeldReadBytes(), rules.tail_bytes + rules.max_buffered);
  EXPECT_GT(io_->PeakHeldReadBytes(), rules.tail_bytes);
  file->reset();
  EXPECT_EQ(io_->HeldReadBytes(), 0) << "a closed file holds nothing";
}

TEST_F(S3StreamedReadTest, ARowGroupLargerThanTheBudgetIsStillReadWhole) {
  S3ReadCoalescing rules;
  rules.max_buffered = 100 << 10;
  io_->SetReadCoalescing(rules);
  auto file = io_->NewInputFile(path_);
  ASSERT_TRUE(file) << file.error().ToString();
  io_->ResetPeakHeldReadBytes();
  // "Row groups" of 4 chunks of 60 KB (240 KB, over the budget) read together, then released.
  const std::vector<ByteRange> ranges = Spaced(0, 32, 60'000, 1'000);
  ASSERT_TRUE(WillRead(**file, ranges));
  std::string scratch(60'000, '\0');
  for (size_t g = 0; g < ranges.size(); g += 4) {
    std::vector<std::string> group;
    for (size_t i = g; i < g + 4; ++i) {
      auto got = (*file)->ReadAt(ranges[i].offset, ranges[i].length, scratch.data());
      ASSERT_TRUE(got) << got.error().ToString();
      group.emplace_back(*got);
    }
    for (size_t i = g; i < g + 4; ++i) {
      EXPECT_EQ(group[i - g], std::string_view(data_).substr(static_cast<size_t>(ranges[i].offset), 60'000));
    }
    DoneReading(**file, std::vector<ByteRange>(ranges.begin() + g, ranges.begin() + g + 4));
  }
  EXPECT_LE(io_->PeakHeldReadBytes(), rules.tail_bytes + 4 * 60'000) << "one row group and the tail";
}

TEST_F(S3StreamedReadTest, RangesFarApartAreAGetEachSentOneAfterAnother) {
  S3ReadCoalescing rules;
  rules.max_gap = 100'000;
  rules.measured_gap = false;  // the rule alone, whatever moto's speed
  io_->SetReadCoalescing(rules);
  auto file = io_->NewInputFile(path_);
  ASSERT_TRUE(file) << file.error().ToString();
  const int64_t gets = io_->RequestCounts().get;
  // Pairs of ranges 10 KB apart (one GET each pair), pairs 300 KB apart.
  std::vector<ByteRange> ranges;
  for (int pair = 0; pair < 5; ++pair) {
    ranges.push_back({pair * 400'000, 30'000});
    ranges.push_back({pair * 400'000 + 40'000, 30'000});
  }
  ASSERT_TRUE(WillRead(**file, ranges));
  ReadInOrder(**file, ranges);
  EXPECT_EQ(io_->RequestCounts().get - gets, 5);
}

TEST_F(S3StreamedReadTest, AnAnswerCutShortIsResumedWhereItStopped) {
  auto config = TestS3Config();
  auto proxy = S3FaultProxy::Start(config->endpoint);
  ASSERT_NE(proxy, nullptr);
  config->endpoint = proxy->endpoint();
  S3FileIO io(*config);
  auto file = io.NewInputFile(path_);
  ASSERT_TRUE(file) << file.error().ToString();
  const int64_t gets = io.RequestCounts().get;
  proxy->Inject("GET", "object", S3FaultProxy::Fault::kCutAnswer);
  const std::vector<ByteRange> ranges = Spaced(0, 20, 100'000, 50'000);
  ASSERT_TRUE(WillRead(**file, ranges));
  ReadInOrder(**file, ranges);
  EXPECT_EQ(proxy->Faulted(), 1);
  EXPECT_EQ(io.RequestCounts().get - gets, 2) << "the cut GET, then one for the rest";
}

// The thread stops reading the socket while the budget is full; a reader that pauses longer than
// the stall timeout lets the connection be cut, and the rest comes by another GET once it reads on.
TEST_F(S3StreamedReadTest, AReaderPausingPastTheStallTimeoutStillGetsItsBytes) {
  auto config = TestS3Config();
  config->stall_timeout_ms = 1'000;
  S3FileIO io(*config);
  S3ReadCoalescing rules;
  rules.max_buffered = 64 << 10;
  io.SetReadCoalescing(rules);
  auto file = io.NewInputFile(path_);
  ASSERT_TRUE(file) << file.error().ToString();
  const std::vector<ByteRange> ranges = Spaced(0, 60, 60'000, 5'000);
  ASSERT_TRUE(WillRead(**file, ranges));
  ReadInOrder(**file, {ranges[0]});
  std::this_thread::sleep_for(std::chrono::milliseconds(2'500));  // the pause, not a measurement
  ReadInOrder(**file, std::vector<ByteRange>(ranges.begin() + 1, ranges.end()));
  EXPECT_LE(io.PeakHeldReadBytes(), rules.tail_bytes + rules.max_buffered);
}

TEST_F(S3StreamedReadTest, AnObjectGoneAfterOpeningIsNotFoundNamingIt) {
  auto file = io_->NewInputFile(path_);
  ASSERT_TRUE(file) << file.error().ToString();
  ASSERT_TRUE(io_->Delete(path_));
  ASSERT_TRUE(WillRead(**file, {{0, 100'000}}));  // asked for in the background
  std::string scratch(100'000, '\0');
  auto got = (*file)->ReadAt(0, 100'000, scratch.data());
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().kind, ErrorKind::kNotFound) << got.error().ToString();
  EXPECT_NE(got.error().message.find(path_), std::string::npos) << got.error().message;
}

TEST_F(S3StreamedReadTest, ClosingAFileStopsItsTransferWhereverItWaits) {
  S3ReadCoalescing rules;
  rules.max_buffered = 64 << 10;
  io_->SetReadCoalescing(rules);
  auto file = io_->NewInputFile(path_);
  ASSERT_TRUE(file) << file.error().ToString();
  const std::vector<ByteRange> ranges = Spaced(0, 60, 50'000, 10'000);
  ASSERT_TRUE(WillRead(**file, ranges));
  ReadInOrder(**file, {ranges[0], ranges[1]});  // then the thread waits on the budget
  file->reset();                                 // returns: the wait ends, the transfer stops
  EXPECT_EQ(io_->HeldReadBytes(), 0);
}

}  // namespace
}  // namespace floe
