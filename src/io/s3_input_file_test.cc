// Reading an S3 object in few requests (s3_input_file.h): how ranges merge, and, on moto
// (scripts/s3.sh), how many requests opening a file and reading it cost, counted by the FileIO.
#include "io/s3_input_file.h"

#include <gtest/gtest.h>

#include "io/s3_test_env.h"

namespace floe {
namespace {

std::vector<std::pair<int64_t, int64_t>> Pairs(const std::vector<ByteRange>& ranges) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const auto& r : ranges) out.emplace_back(r.offset, r.length);
  return out;
}

TEST(CoalesceRanges, MergesRangesWithSmallGapsUpToTheRequestLimit) {
  S3ReadCoalescing rules;
  rules.max_gap = 100;
  rules.max_request = 1000;
  using P = std::vector<std::pair<int64_t, int64_t>>;
  // Out of order, overlapping, adjacent, one empty: sorted and merged.
  EXPECT_EQ(Pairs(CoalesceRanges({{500, 10}, {0, 100}, {50, 20}, {100, 50}, {300, 0}}, rules)),
            (P{{0, 150}, {500, 10}}));
  // A gap of exactly max_gap merges, one byte more does not.
  EXPECT_EQ(Pairs(CoalesceRanges({{0, 10}, {110, 10}}, rules)), (P{{0, 120}}));
  EXPECT_EQ(Pairs(CoalesceRanges({{0, 10}, {111, 10}}, rules)), (P{{0, 10}, {111, 10}}));
  // A run stops before it would pass max_request; a single range larger than it stays whole.
  EXPECT_EQ(Pairs(CoalesceRanges({{0, 600}, {650, 600}, {1300, 2000}}, rules)),
            (P{{0, 600}, {650, 600}, {1300, 2000}}));
  EXPECT_EQ(Pairs(CoalesceRanges({{0, 400}, {450, 400}, {900, 100}}, rules)), (P{{0, 1000}}));
  EXPECT_EQ(Pairs(CoalesceRanges({{0, 400}, {450, 400}, {900, 101}}, rules)), (P{{0, 850}, {900, 101}}));
  EXPECT_TRUE(CoalesceRanges({}, rules).empty());
}

TEST(GapWorthReading, IsBandwidthTimesFirstByteLatencyWithinItsBounds) {
  S3ReadCoalescing rules;  // max_gap 1 MiB, 100 MB/s assumed, at most 64 MiB
  EXPECT_EQ(GapWorthReading(rules, {}), rules.max_gap) << "nothing measured yet";
  EXPECT_EQ(GapWorthReading(rules, {.first_byte_ms = 30}), 3'000'000) << "S3-like: 30 ms at the assumed 100 MB/s";
  EXPECT_EQ(GapWorthReading(rules, {.first_byte_ms = 30, .bytes_per_ms = 50'000}), 1'500'000) << "measured 50 MB/s";
  EXPECT_EQ(GapWorthReading(rules, {.first_byte_ms = 2}), rules.max_gap) << "never below max_gap";
  EXPECT_EQ(GapWorthReading(rules, {.first_byte_ms = 350, .bytes_per_ms = 400'000}), 64 << 20) << "moto: capped";
  rules.measured_gap = false;
  EXPECT_EQ(GapWorthReading(rules, {.first_byte_ms = 350}), rules.max_gap);
}

class S3InputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!TestS3Config()) GTEST_SKIP() << kNoS3Message;
    io_ = TestS3FileIO();
    ASSERT_NE(io_, nullptr) << "cannot reach the test S3 server or create its bucket";
    root_ = TestS3Prefix("input");
  }
  // Requests sent since the last call.
  S3RequestCounts Sent() {
    S3RequestCounts now = io_->RequestCounts(), d = now;
    d.get -= last_.get, d.put -= last_.put, d.head -= last_.head, d.post -= last_.post, d.del -= last_.del,
        d.list -= last_.list;
    last_ = now;
    return d;
  }
  static std::string Bytes(size_t n) {
    std::string s(n, '\0');
    for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 131 + i / 977) & 0xFF);
    return s;
  }
  std::shared_ptr<S3FileIO> io_;
  std::string root_;
  S3RequestCounts last_;
};

TEST_F(S3InputFileTest, OpeningIsOneGetOfTheTailWhichLaterReadsReuse) {
  const std::string data = Bytes(200'000);
  const std::string path = root_ + "/big.parquet";
  ASSERT_TRUE(io_->CreateIfAbsent(path, data));
  Sent();
  auto file = io_->NewInputFile(path);
  ASSERT_TRUE(file) << file.error().ToString();
  EXPECT_EQ((*file)->Size(), 200'000);
  S3RequestCounts open = Sent();
  EXPECT_EQ(open.get, 1);
  EXPECT_EQ(open.Total(), 1) << "no HEAD for the size";

  // The footer and anything else in the last 64 KiB: no request.
  std::string scratch(70'000, '\0');
  EXPECT_EQ((*file)->ReadAt(200'000 - 8, 8, scratch.data()).value_or(""), std::string_view(data).substr(199'992));
  EXPECT_EQ((*file)->ReadAt(200'000 - 65'536, 65'536, scratch.data()).value_or(""),
            std::string_view(data).substr(200'000 - 65'536));
  EXPECT_EQ(Sent().Total(), 0);
  // Just before the tail: a GET of its own.
  EXPECT_EQ((*file)->ReadAt(200'000 - 65'537, 2, scratch.data()).value_or(""),
            std::string_view(data).substr(200'000 - 65'537, 2));
  EXPECT_EQ(Sent().get, 1);

  // Two column chunks 2,000 bytes apart: one GET (received by a thread of the file's own), and
  // both read from what it brought.
  ASSERT_TRUE(WillRead(**file, {{4, 30'000}, {32'004, 40'000}, {100, 10}}));
  EXPECT_EQ((*file)->ReadAt(4, 30'000, scratch.data()).value_or(""), std::string_view(data).substr(4, 30'000));
  EXPECT_EQ((*file)->ReadAt(32'004, 40'000, scratch.data()).value_or(""),
            std::string_view(data).substr(32'004, 40'000));
  EXPECT_EQ((*file)->ReadAt(104, 5, scratch.data()).value_or(""), std::string_view(data).substr(104, 5));
  EXPECT_EQ(Sent().get, 1);
  EXPECT_EQ(Sent().Total(), 0);
  // Already fetched: nothing more to ask for.
  ASSERT_TRUE(WillRead(**file, {{10, 100}, {150'000, 100}}));
  EXPECT_EQ(Sent().Total(), 0);
  // A range past the end is refused before any request.
  auto past = WillRead(**file, {{199'990, 20}});
  ASSERT_FALSE(past);
  EXPECT_EQ(past.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(past.error().message.find("big.parquet"), std::string::npos) << past.error().message;
  EXPECT_EQ(Sent().Total(), 0);
  // Done with the first chunk: its memory goes, and reading it again is a GET again.
  DoneReading(**file, {{4, 30'000}});
  EXPECT_EQ((*file)->ReadAt(4, 10, scratch.data()).value_or(""), std::string_view(data).substr(4, 10));
  EXPECT_EQ(Sent().get, 1);
}

TEST_F(S3InputFileTest, SmallEmptyAndMissingObjects) {
  const std::string small = Bytes(5'000);
  ASSERT_TRUE(io_->CreateIfAbsent(root_ + "/small", small));
  ASSERT_TRUE(io_->CreateIfAbsent(root_ + "/empty", ""));
  Sent();
  auto file = io_->NewInputFile(root_ + "/small");
  ASSERT_TRUE(file) << file.error().ToString();
  EXPECT_EQ((*file)->Size(), 5'000);
  std::string scratch(5'000, '\0');
  EXPECT_EQ((*file)->ReadAt(0, 5'000, scratch.data()).value_or(""), small);
  ASSERT_TRUE(WillRead(**file, {{0, 100}, {4'000, 1'000}}));
  EXPECT_EQ(Sent().Total(), 1) << "the whole object came with the open";

  auto empty = io_->NewInputFile(root_ + "/empty");
  ASSERT_TRUE(empty) << empty.error().ToString();
  EXPECT_EQ((*empty)->Size(), 0);
  EXPECT_LE(Sent().Total(), 2);  // the refused suffix range and a HEAD

  auto missing = io_->NewInputFile(root_ + "/missing.parquet");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(missing.error().message.find("missing.parquet"), std::string::npos) << missing.error().message;
  EXPECT_EQ(Sent().Total(), 1);

  auto no_bucket = io_->NewInputFile("s3://floe-no-such-bucket-here/t/a.parquet");
  ASSERT_FALSE(no_bucket);
  EXPECT_NE(no_bucket.error().message.find("floe-no-such-bucket-here"), std::string::npos) << no_bucket.error().message;
}

}  // namespace
}  // namespace floe
