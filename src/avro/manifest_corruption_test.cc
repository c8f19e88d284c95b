// Truncated and bit-flipped manifests and manifest lists: every read ends in a value or in an
// error that names the file; none crashes (run these under -DFLOE_SANITIZE=ON too).
#include <gtest/gtest.h>

#include <filesystem>
#include <limits>

#include "avro/avro_describe.h"
#include "avro/manifest_list.h"
#include "avro/manifest_reader.h"
#include "avro/manifest_writer.h"
#include "avro/sample_entries.h"
#include "avro/test_util.h"

namespace floe {
namespace {

constexpr const char* kPath = "s3://bucket/t/metadata/broken-m0.avro";

std::string SampleManifest(const std::string& codec, int count) {
  avro_sample::SampleTable t = avro_sample::MakeSampleTable();
  std::mt19937_64 rng(42);
  std::vector<ManifestEntry> entries;
  for (int i = 0; i < count; ++i) entries.push_back(avro_sample::RandomEntry(rng, 2, false, t, i));
  ManifestWriterOptions options;
  options.schema = t.schema;
  options.spec = t.spec;
  options.codec = codec;
  auto written = WriteManifest(options, entries);
  EXPECT_TRUE(written.has_value());
  return written ? written->bytes : std::string();
}

std::string SampleList(const std::string& codec) {
  std::vector<ManifestFile> manifests(20);
  for (size_t i = 0; i < manifests.size(); ++i) {
    manifests[i].manifest_path = "s3://bucket/t/metadata/m" + std::to_string(i) + ".avro";
    manifests[i].partitions.resize(2);
    manifests[i].partitions[0].lower_bound = "abc";
    manifests[i].partitions[1].upper_bound = std::string("\x01\x02\x03\x04", 4);
  }
  ManifestListWriterOptions options;
  options.codec = codec;
  auto bytes = WriteManifestList(options, manifests);
  EXPECT_TRUE(bytes.has_value());
  return bytes ? *bytes : std::string();
}

// Reads `bytes` every way a caller can; a failure must name the file.
// Describe (the slowest way) runs on every `describe_every`-th damaged copy only.
void ReadEveryWay(const std::string& bytes, size_t expected_records, const std::string& what, bool describe = true) {
  auto check = [&](const Error& e) {
    EXPECT_NE(e.message.find(kPath), std::string::npos) << what << ": error does not name the file: " << e.message;
  };
  auto m = ReadManifest(bytes, kPath);
  if (!m) {
    check(m.error());
  } else {
    EXPECT_LE(m->entries.size(), expected_records) << what;
  }
  auto l = ReadManifestList(bytes, kPath);
  if (!l) check(l.error());
  if (!describe) return;
  auto d = DescribeAvroFile(bytes, kPath, nullptr);
  if (!d) {
    check(d.error());
  } else {
    // Rendering must not throw either (invalid UTF-8 is replaced).
    (void)d->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
}

class Corruption : public ::testing::TestWithParam<std::string> {};

TEST_P(Corruption, TruncatedManifestsFailWithTheFileName) {
  std::string full = SampleManifest(GetParam(), 12);
  ASSERT_FALSE(full.empty());
  for (size_t len = 0; len < full.size(); ++len) {
    std::string cut = full.substr(0, len);
    ReadEveryWay(cut, 12, "truncated to " + std::to_string(len), len % 5 == 0);
    auto m = ReadManifest(cut, kPath);
    // A cut inside the one data block can never read as a whole manifest.
    EXPECT_FALSE(m.has_value() && m->entries.size() == 12) << len;
    if (HasFailure()) return;
  }
}

TEST_P(Corruption, BitFlippedManifestsNeverCrash) {
  std::string full = SampleManifest(GetParam(), 12);
  std::mt19937_64 rng(5);
  for (size_t pos = 0; pos < full.size(); ++pos) {
    std::string flipped = full;
    flipped[pos] = static_cast<char>(flipped[pos] ^ (1 << (rng() % 8)));
    ReadEveryWay(flipped, 12, "bit flipped at " + std::to_string(pos), pos % 5 == 0);
    if (HasFailure()) return;
  }
}

TEST_P(Corruption, DamagedManifestListsNeverCrash) {
  std::string full = SampleList(GetParam());
  ASSERT_FALSE(full.empty());
  std::mt19937_64 rng(6);
  for (size_t pos = 0; pos < full.size(); ++pos) {
    ReadEveryWay(full.substr(0, pos), 20, "list truncated to " + std::to_string(pos));
    std::string flipped = full;
    flipped[pos] = static_cast<char>(flipped[pos] ^ (1 << (rng() % 8)));
    ReadEveryWay(flipped, 20, "list bit flipped at " + std::to_string(pos));
    if (HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Codecs, Corruption, ::testing::Values("null", "deflate", "snappy", "zstandard"));

TEST(Corruption, NotAvroAtAll) {
  for (std::string bytes : {std::string(), std::string("Obj"), std::string("PAR1....PAR1"), std::string(100, '\0')}) {
    auto m = ReadManifest(bytes, kPath);
    ASSERT_FALSE(m.has_value());
    EXPECT_EQ(m.error().kind, ErrorKind::kCorrupt);
    EXPECT_NE(m.error().message.find(kPath), std::string::npos) << m.error().message;
  }
}

TEST(Corruption, ManifestListIsNotAManifest) {
  auto m = ReadManifest(SampleList("null"), kPath);
  ASSERT_FALSE(m.has_value());
  EXPECT_NE(m.error().message.find("not a manifest"), std::string::npos) << m.error().message;
  auto l = ReadManifestList(SampleManifest("null", 3), kPath);
  ASSERT_FALSE(l.has_value());
  EXPECT_NE(l.error().message.find("not a manifest list"), std::string::npos) << l.error().message;
}

// Real writers' files damaged the same ways.
TEST(Corruption, DamagedFixtureManifests) {
  std::string dir = avro_test::FixturesDir();
  if (dir.empty()) GTEST_SKIP() << "skipped: no fixtures";
  std::string p = dir + "/tables/duckdb-iceberg/data/persistent/hive_partitioned_table/metadata/";
  for (std::string name : {"fee93099-6425-4d83-bd7c-0aa646533090-m0.avro",
                           "snap-5128628767169163501-1-fee93099-6425-4d83-bd7c-0aa646533090.avro"}) {
    std::string full = avro_test::ReadFileBytes(p + name);
    ASSERT_FALSE(full.empty());
    std::mt19937_64 rng(8);
    for (size_t pos = 0; pos < full.size(); pos += 3) {
      ReadEveryWay(full.substr(0, pos), 4, name + " truncated");
      std::string flipped = full;
      flipped[pos] = static_cast<char>(flipped[pos] ^ (1 << (rng() % 8)));
      ReadEveryWay(flipped, 4, name + " flipped");
      if (HasFailure()) return;
    }
  }
}

// first_row_id, content_offset and content_size_in_bytes are held in 8 bytes with INT64_MIN
// meaning absent (util/optional_long.h): a manifest holding that value is refused by name, not
// read as if the field were absent.
TEST(Corruption, LongThatMarksAbsenceIsRefusedByName) {
  avro_sample::SampleTable t = avro_sample::MakeSampleTable();
  std::mt19937_64 rng(7);
  ManifestEntry e = avro_sample::RandomEntry(rng, 3, false, t, 0);
  e.file.content = FileContent::kData;
  e.file.first_row_id = std::numeric_limits<int64_t>::max();
  ManifestWriterOptions options;
  options.format_version = 3;
  options.schema = t.schema;
  options.spec = t.spec;
  options.codec = "null";  // the value's bytes stay findable
  auto written = WriteManifest(options, {e});
  ASSERT_TRUE(written.has_value()) << written.error().message;
  auto read = ReadManifest(written->bytes, kPath);
  ASSERT_TRUE(read.has_value()) << read.error().message;
  ASSERT_EQ(read->entries.at(0).file.first_row_id, std::numeric_limits<int64_t>::max());

  // Zigzag varints of INT64_MAX and INT64_MIN are both 10 bytes and differ in the first only.
  const std::string max_varint("\xfe\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10);
  std::string bytes = written->bytes;
  size_t at = bytes.find(max_varint);
  ASSERT_NE(at, std::string::npos);
  ASSERT_EQ(bytes.find(max_varint, at + 1), std::string::npos);
  bytes[at] = '\xff';
  auto refused = ReadManifest(bytes, kPath);
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message.find(kPath), std::string::npos) << refused.error().message;
  EXPECT_NE(refused.error().message.find("first_row_id -9223372036854775808 is out of range"), std::string::npos)
      << refused.error().message;
}

}  // namespace
}  // namespace floe
