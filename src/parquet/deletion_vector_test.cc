#include "parquet/deletion_vector.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace floe::parquet {
namespace {

void Le(std::string* out, uint64_t v, int width) {
  for (int i = 0; i < width; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void Be32(std::string* out, uint32_t v) {
  for (int i = 3; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

// A blob around `bitmap` (the 64-bit portable Roaring form), framed as the spec says.
std::string Blob(const std::string& bitmap) {
  std::string body("\xD1\xD3\x39\x64", 4);
  body += bitmap;
  std::string blob;
  Be32(&blob, static_cast<uint32_t>(body.size()));
  blob += body;
  Be32(&blob, static_cast<uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(body.data()), body.size())));
  return blob;
}

// Two 32-bit bitmaps: key 0 holds an array container {1, 5, 70000 (key 1: 4464)} and a run
// container 100..102 at key 2; key 3 (positions 3 << 32 and up) holds a bitmap container.
std::string SampleBitmap() {
  std::string b;
  Le(&b, 2, 8);  // two 32-bit bitmaps
  // High key 0: run-capable format, three containers (keys 0, 1, 2), container 2 is a run.
  Le(&b, 0, 4);
  Le(&b, 12347 | ((3 - 1) << 16), 4);
  b.push_back(static_cast<char>(0b100));  // run flags: container 2
  Le(&b, 0, 2), Le(&b, 2 - 1, 2);         // key 0, cardinality 2
  Le(&b, 1, 2), Le(&b, 1 - 1, 2);         // key 1, cardinality 1
  Le(&b, 2, 2), Le(&b, 3 - 1, 2);         // key 2, cardinality 3 (a run)
  Le(&b, 1, 2), Le(&b, 5, 2);             // array {1, 5}
  Le(&b, 4464, 2);                        // array {4464}: position 65536 + 4464
  Le(&b, 1, 2), Le(&b, 100, 2), Le(&b, 2, 2);  // one run: 100, length 2 -> 100..102
  // High key 3: the format without runs, one bitmap container (5000 positions: 0..4999).
  Le(&b, 3, 4);
  Le(&b, 12346, 4);
  Le(&b, 1, 4);
  Le(&b, 0, 2), Le(&b, 5000 - 1, 2);
  Le(&b, 0, 4);  // offset header
  std::string words(8192, '\0');
  for (int v = 0; v < 5000; ++v) words[v / 8] = static_cast<char>(words[v / 8] | (1 << (v % 8)));
  b += words;
  return b;
}

TEST(DeletionVector, DecodesArrayRunAndBitmapContainers) {
  auto positions = DecodeDeletionVector(Blob(SampleBitmap()));
  ASSERT_TRUE(positions) << positions.error().message;
  std::vector<int64_t> want = {1, 5, 65536 + 4464, 131072 + 100, 131072 + 101, 131072 + 102};
  for (int64_t v = 0; v < 5000; ++v) want.push_back((int64_t{3} << 32) + v);
  EXPECT_EQ(*positions, want);
}

TEST(DeletionVector, EmptyVectorHoldsNothing) {
  std::string bitmap;
  Le(&bitmap, 0, 8);
  auto positions = DecodeDeletionVector(Blob(bitmap));
  ASSERT_TRUE(positions) << positions.error().message;
  EXPECT_TRUE(positions->empty());
}

TEST(DeletionVector, DamagedBlobsAreCorruptNeverACrash) {
  const std::string good = Blob(SampleBitmap());
  std::string bad_magic = good;
  bad_magic[5] = 'x';
  auto r = DecodeDeletionVector(bad_magic);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kCorrupt);
  std::string bad_crc = good;
  bad_crc[20] ^= 1;
  r = DecodeDeletionVector(bad_crc);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("checksum"), std::string::npos);
  for (size_t cut = 0; cut < good.size(); cut += 7) EXPECT_FALSE(DecodeDeletionVector(good.substr(0, cut)));
  // Every truncation of the bitmap, re-framed with a valid length and checksum, is refused too.
  const std::string bitmap = SampleBitmap();
  for (size_t cut = 0; cut < bitmap.size(); cut += 5) EXPECT_FALSE(DecodeDeletionVector(Blob(bitmap.substr(0, cut)))) << cut;
}

TEST(DeletionVector, EncodedVectorsReadBackExactly) {
  std::mt19937_64 random(7);
  std::vector<std::vector<int64_t>> cases = {
      {},
      {0},
      {5, 3, 3, 1},                                                  // any order, duplicates once
      {int64_t{1} << 32, (int64_t{1} << 32) + 1, (int64_t{5} << 32)},  // several 32-bit bitmaps
      {(int64_t{0x7FFFFFFF} << 32) | 0xFFFFFFFF},                    // the largest position
  };
  std::vector<int64_t> runs;  // long runs: run containers
  for (int64_t v = 1000; v < 200000; ++v) runs.push_back(v);
  cases.push_back(runs);
  std::vector<int64_t> dense;  // every other row: bitmap containers
  for (int64_t v = 0; v < 300000; v += 2) dense.push_back(v);
  cases.push_back(dense);
  std::vector<int64_t> scattered;
  for (int i = 0; i < 5000; ++i) scattered.push_back(static_cast<int64_t>(random() % (int64_t{3} << 33)));
  cases.push_back(scattered);
  for (const auto& positions : cases) {
    auto blob = EncodeDeletionVector(positions);
    ASSERT_TRUE(blob) << blob.error().message;
    auto back = DecodeDeletionVector(*blob);
    ASSERT_TRUE(back) << back.error().message;
    std::vector<int64_t> want = positions;
    std::sort(want.begin(), want.end());
    want.erase(std::unique(want.begin(), want.end()), want.end());
    EXPECT_EQ(*back, want);
  }
  // Run containers keep a run of 199,000 positions (four 16-bit containers) to a few bytes each.
  EXPECT_LT(EncodeDeletionVector(runs)->size(), 128u);
}

TEST(DeletionVector, PositionsOutsideTheSpecAreRefused) {
  auto negative = EncodeDeletionVector({4, -1});
  ASSERT_FALSE(negative);
  EXPECT_EQ(negative.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_FALSE(EncodeDeletionVector({int64_t{0x80000000} << 32}));
}

// What a shell command prints on standard output (empty when it cannot start).
std::string StandardOutputOf(const std::string& command) {
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[65536];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
    pclose(pipe);
  }
  return out;
}

// Iceberg Java's own serialized position indexes (deletion-vector blobs) from iceberg-core's
// test resources, in the peers' jars: floe reads each, and CRoaring writes the same positions
// back byte for byte as Java did.
std::string JavaVector(const std::string& name) {
  const char* jars = std::getenv("FLOE_PEERS_JAVA_JARS");
  if (!jars || !*jars) return {};
  const std::string command = "python3 -c \"import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1])"
                              ".read('org/apache/iceberg/deletes/' + sys.argv[2]))\" '" +
                              std::string(jars) + "/iceberg-core-1.11.0-tests.jar' " + name + " 2>/dev/null";
  return StandardOutputOf(command);
}

TEST(DeletionVector, JavaWrittenVectorsReadAndRewriteIdentically) {
  if (!std::getenv("FLOE_PEERS_JAVA_JARS")) GTEST_SKIP() << "skipped: no peers (FLOE_PEERS_JAVA_JARS)";
  const std::vector<std::pair<std::string, size_t>> files = {
      {"empty-position-index.bin", 0}, {"small-alternating-values-position-index.bin", 5},
      {"small-and-large-values-position-index.bin", 4}, {"all-container-types-position-index.bin", 0}};
  for (const auto& [name, count] : files) {
    const std::string java = JavaVector(name);
    ASSERT_FALSE(java.empty()) << name << " not found in iceberg-core-1.11.0-tests.jar";
    auto positions = DecodeDeletionVector(java);
    ASSERT_TRUE(positions) << name << ": " << positions.error().message;
    if (count) EXPECT_EQ(positions->size(), count) << name;
    auto ours = EncodeDeletionVector(*positions);
    ASSERT_TRUE(ours) << ours.error().message;
    EXPECT_EQ(*ours, java) << name << ": CRoaring's bytes differ from Java's";
  }
  auto alternating = DecodeDeletionVector(JavaVector("small-alternating-values-position-index.bin"));
  ASSERT_TRUE(alternating);
  EXPECT_EQ(*alternating, (std::vector<int64_t>{1, 3, 5, 7, 9}));
}

// What Iceberg Java writes for each list of positions (tests/interop/java/DeletionVectorBytes.java,
// one JVM for all of them): the blobs as bytes, or "error ..." lines as text.
std::vector<std::string> JavaBlobs(const std::vector<std::vector<int64_t>>& cases) {
  const auto dir = std::filesystem::temp_directory_path() / ("floe-dv-java-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream input(dir / "positions.txt");
    for (const auto& positions : cases) {
      for (int64_t p : positions) input << p << ' ';
      input << '\n';
    }
  }
  const std::string command = "java -Xmx256m -cp '" + std::string(std::getenv("FLOE_PEERS_JAVA_JARS")) + "/*' '" +
                              std::string(FLOE_SOURCE_DIR) + "/tests/interop/java/DeletionVectorBytes.java' '" +
                              (dir / "positions.txt").string() + "' 2>/dev/null";
  const std::string out = StandardOutputOf(command);
  std::filesystem::remove_all(dir);
  std::vector<std::string> blobs;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("error ", 0) == 0) {
      blobs.push_back(line);
      continue;
    }
    std::string bytes;
    for (size_t i = 0; i + 1 < line.size(); i += 2) bytes.push_back(static_cast<char>(std::stoi(line.substr(i, 2), nullptr, 16)));
    blobs.push_back(bytes);
  }
  return blobs;
}

std::vector<int64_t> Runs(int64_t first, int64_t count, int64_t length, int64_t step) {
  std::vector<int64_t> out;
  for (int64_t r = 0; r < count; ++r)
    for (int64_t v = 0; v < length; ++v) out.push_back(first + r * step + v);
  return out;
}

// The same positions serialized by floe (CRoaring) and by Iceberg Java are the same bytes on
// every rule of the container choice: the array's 4096-value limit, runs against a bitmap's
// 8192 bytes on both sides of the limit, the offset header (written without runs, or with four
// containers or more), several flag bytes, and several 32-bit bitmaps. Two differences are
// known and asserted as such, both the spec's layout and each read by the other engine:
// - a tie between an array and runs (3 values in 1 run, 5 in 2: the same bytes either way):
//   CRoaring's run optimization takes the runs, Java keeps the array;
// - key gaps (positions at 2^32 and up with no position in a 32-bit bitmap below them): Java
//   writes an empty bitmap for every key under the highest, floe only the keys that hold
//   positions.
TEST(DeletionVector, SamePositionsAreJavasBytes) {
  if (!std::getenv("FLOE_PEERS_JAVA_JARS") || std::system("java -version >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "skipped: no peers (FLOE_PEERS_JAVA_JARS or java)";
  std::vector<std::vector<int64_t>> cases = {
      {},
      {7},
      {10, 11, 12, 13},          // 4 values in 1 run: runs win, no offset header (1 container)
      {0, 1, 2, 3, 65536, 65537, 65538, 65539, 131072, 131073, 131074, 131075, 196608, 196609, 196610, 196611},
      Runs(0, 4096, 1, 2),       // 4096 values apart: the largest array
      Runs(0, 4097, 1, 2),       // 4097: a bitmap
      Runs(0, 2047, 3, 32),      // 2047 runs: 8190 bytes, runs beat the bitmap
      Runs(0, 2048, 3, 32),      // 2048 runs: 8194 bytes, the bitmap stays
      Runs(0, 65536, 1, 1),      // a full container
      Runs(0, 20, 300, 65536),   // 20 containers of one run each: three flag bytes
      Runs(5, 10, 1, 65536 + 3), // 10 containers of arrays: offsets, no runs
      Runs(0, 100000, 1, 100),   // every 100th row: array containers, as the bench's first delete
      {1, int64_t{1} << 32, (int64_t{1} << 32) + 1, (int64_t{2} << 32) + 65537},  // keys 0, 1, 2
  };
  std::mt19937_64 random(37);
  for (int n : {10, 3000, 40000}) {
    std::vector<int64_t> scattered;
    for (int i = 0; i < n; ++i) scattered.push_back(static_cast<int64_t>(random() % 300000));
    cases.push_back(scattered);
  }
  std::vector<int64_t> mixed = Runs(0, 500, 7, 40);  // runs, then sparse values in the same containers
  for (int64_t v = 20000; v < 200000; v += 97) mixed.push_back(v);
  cases.push_back(mixed);
  const std::vector<std::string> java = JavaBlobs(cases);
  ASSERT_EQ(java.size(), cases.size()) << "DeletionVectorBytes.java printed " << java.size() << " lines";
  for (size_t i = 0; i < cases.size(); ++i) {
    auto ours = EncodeDeletionVector(cases[i]);
    ASSERT_TRUE(ours) << ours.error().message;
    EXPECT_EQ(*ours, java[i]) << "case " << i << " (" << cases[i].size() << " positions): floe wrote "
                              << ours->size() << " bytes, Java " << java[i].size();
  }

  // Ties: the same positions, a run container on floe's side (its blob is never the longer one:
  // the portable form with runs has no offset header when there are fewer than four containers).
  const std::vector<std::vector<int64_t>> ties = {
      {10, 11, 12}, {10, 11, 12, 13, 20},
      {0, 1, 2, 65536, 65537, 65538, 65539, 131072, 131073, 131074, 131075, 196608, 196609, 196610, 196611}};
  const std::vector<std::string> java_ties = JavaBlobs(ties);
  ASSERT_EQ(java_ties.size(), ties.size());
  for (size_t i = 0; i < ties.size(); ++i) {
    auto ours = EncodeDeletionVector(ties[i]);
    ASSERT_TRUE(ours) << ours.error().message;
    EXPECT_LE(ours->size(), java_ties[i].size()) << "tie " << i;
    EXPECT_NE(*ours, java_ties[i]) << "tie " << i << ": CRoaring now keeps the array as Java does; fold it into the cases above";
    auto from_java = DecodeDeletionVector(java_ties[i]);
    auto from_floe = DecodeDeletionVector(*ours);
    ASSERT_TRUE(from_java && from_floe);
    EXPECT_EQ(*from_java, ties[i]);
    EXPECT_EQ(*from_floe, ties[i]);
  }

  // A key gap: Java fills it with an empty bitmap. Each side reads the other's bytes.
  const std::vector<int64_t> gap = {3, (int64_t{2} << 32) + 5};
  const std::vector<std::string> java_gap = JavaBlobs({gap});
  ASSERT_EQ(java_gap.size(), 1u);
  auto from_java = DecodeDeletionVector(java_gap[0]);
  ASSERT_TRUE(from_java) << from_java.error().message;
  EXPECT_EQ(*from_java, gap);
  EXPECT_EQ(EncodeDeletionVector(gap)->size() + 12, java_gap[0].size());  // key, cookie and count of the empty one
}

}  // namespace
}  // namespace floe::parquet
