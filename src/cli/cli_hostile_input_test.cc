// The floe command on files whose strings are not UTF-8: it prints them (escaped), it never
// aborts on an exception from a dependency.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "util/uuid.h"

namespace {

namespace fs = std::filesystem;

struct CommandRun {
  int status = -1;  // -1: killed by a signal (an abort)
  std::string out;
};

CommandRun Floe(const std::string& args) {
  std::string cmd = "env -u FLOE_CATALOG '" + std::string(FLOE_BINARY) + "' " + args + " 2>&1";
  CommandRun run;
  FILE* pipe = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) run.out.append(buf.data(), n);
  int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

std::string ReadAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class HostileFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* fixtures = std::getenv("FLOE_FIXTURES");
    if (!fixtures || !fs::exists(fixtures)) GTEST_SKIP() << "skipped: no fixtures";
    fixtures_ = fixtures;
    dir_ = (fs::temp_directory_path() / ("floe-hostile-" + floe::RandomUuidString().substr(0, 8))).string();
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }
  // A copy of fixture `relative` with the byte before the first `marker` set to 0xFF.
  std::string Corrupted(const std::string& relative, const std::string& marker, const std::string& name) {
    std::string bytes = ReadAll(fs::path(fixtures_) / relative);
    size_t at = bytes.find(marker);
    EXPECT_NE(at, std::string::npos) << marker << " not in " << relative;
    if (at != std::string::npos) bytes[at] = '\xff';
    std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  std::string fixtures_, dir_;
};

TEST_F(HostileFiles, InspectPrintsAManifestWhosePathIsNotUtf8) {
  std::string path = Corrupted(
      "tables/duckdb-iceberg/data/persistent/partition_timestamp/default.db/partition_timestamp/metadata/"
      "6b55fc2b-ce03-407e-9585-336c4675e611-m0.avro",
      ".parquet", "bad-m0.avro");
  CommandRun run = Floe("inspect '" + path + "'");
  ASSERT_NE(run.status, -1) << "floe aborted: " << run.out.substr(0, 500);
  EXPECT_EQ(run.status, 0) << run.out.substr(0, 500);
  EXPECT_NE(run.out.find("\xef\xbf\xbdparquet"), std::string::npos) << "the bad byte is shown as U+FFFD";
}

}  // namespace
