// `floe inspect` of Puffin files: what a deletion vector holds, and damaged files refused with
// an error naming the file (exit 1), never a crash.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "parquet/deletion_vector.h"
#include "parquet/puffin.h"
#include "util/uuid.h"

namespace floe {
namespace inspect_puffin_test {
namespace {

namespace fs = std::filesystem;

struct InspectRun {
  int status = -1;
  std::string out;
};

InspectRun Inspect(const std::string& path) {
  std::string cmd = "env -u FLOE_CATALOG '" + std::string(FLOE_BINARY) + "' inspect '" + path + "' 2>&1";
  InspectRun run;
  FILE* pipe = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) run.out.append(buf.data(), n);
  int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

void Put32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

// A Puffin file of one blob whose footer JSON is `footer` as given (offsets and all).
std::string PuffinWithFooter(const std::string& blob, const std::string& footer) {
  std::string out = "PFA1" + blob + "PFA1" + footer;
  Put32(out, static_cast<uint32_t>(footer.size()));
  Put32(out, 0);
  return out + "PFA1";
}

std::string Footer(int64_t offset, int64_t length, int64_t cardinality) {
  return R"({"blobs":[{"type":"deletion-vector-v1","fields":[2147483545],"snapshot-id":-1,"sequence-number":-1,)"
         R"("offset":)" + std::to_string(offset) + R"(,"length":)" + std::to_string(length) +
         R"(,"properties":{"referenced-data-file":"data/a.parquet","cardinality":")" + std::to_string(cardinality) +
         R"("}}]})";
}

class InspectPuffin : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() / ("floe-puffin-" + RandomUuidString().substr(0, 8))).string();
    fs::create_directories(dir_);
    auto blob = parquet::EncodeDeletionVector({3, 70000, 1LL << 33});
    ASSERT_TRUE(blob.has_value());
    blob_ = *blob;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  void ExpectRefused(const std::string& path, const std::string& message) {
    InspectRun run = Inspect(path);
    EXPECT_EQ(run.status, 1) << run.out;
    EXPECT_NE(run.out.find(path), std::string::npos) << run.out;
    EXPECT_NE(run.out.find(message), std::string::npos) << run.out;
  }
  std::string dir_, blob_;
};

TEST_F(InspectPuffin, PrintsWhatADeletionVectorHolds) {
  const std::string path = Write("ok.puffin", PuffinWithFooter(blob_, Footer(4, blob_.size(), 3)));
  InspectRun run = Inspect(path);
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("\"positions\": 3"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\"last_position\": 8589934592"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("data/a.parquet"), std::string::npos) << run.out;
}

TEST_F(InspectPuffin, FooterOffsetsOutsideTheFile) {
  ExpectRefused(Write("far.puffin", PuffinWithFooter(blob_, Footer(4000, blob_.size(), 3))), "lie outside");
  ExpectRefused(Write("long.puffin", PuffinWithFooter(blob_, Footer(4, 1 << 20, 3))), "lie outside");
  ExpectRefused(Write("negative.puffin", PuffinWithFooter(blob_, Footer(-8, blob_.size(), 3))), "lie outside");
}

TEST_F(InspectPuffin, DamagedBlobs) {
  std::string magic = blob_;
  magic[4] ^= 0x11;
  ExpectRefused(Write("magic.puffin", PuffinWithFooter(magic, Footer(4, magic.size(), 3))), "magic");
  std::string crc = blob_;
  crc.back() ^= 0x11;
  ExpectRefused(Write("crc.puffin", PuffinWithFooter(crc, Footer(4, crc.size(), 3))), "checksum");
  ExpectRefused(Write("count.puffin", PuffinWithFooter(blob_, Footer(4, blob_.size(), 4))), "cardinality");
}

TEST_F(InspectPuffin, DamagedFooters) {
  const std::string whole = PuffinWithFooter(blob_, Footer(4, blob_.size(), 3));
  ExpectRefused(Write("cut.puffin", whole.substr(0, whole.size() - 3)), "magic PFA1");
  std::string size = whole;
  size[size.size() - 12] = '\x7f';  // payload size far past the file
  size[size.size() - 10] = '\x7f';
  ExpectRefused(Write("size.puffin", size), "does not fit");
  ExpectRefused(Write("json.puffin", PuffinWithFooter(blob_, "{\"blobs\":[{\"type\":")), "footer");
  std::string lz4 = whole;
  lz4[lz4.size() - 8] = '\x01';
  InspectRun run = Inspect(Write("lz4.puffin", lz4));
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_NE(run.out.find("LZ4"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace inspect_puffin_test
}  // namespace floe
