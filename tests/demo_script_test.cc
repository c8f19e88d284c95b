// scripts/demo.sh on a clean build folder builds the `floe` command and nothing else (not the
// tests and benchmarks a full build makes), then runs the demo.
//
// A clean build folder means compiling floe cold (ccache keys the objects by build folder), a few
// minutes of both cores, so it runs only when FLOE_TEST_DEMO_SCRIPT=1, which the test command
// (scripts/test.sh) sets.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "util/uuid.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

std::string ReadText(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The outputs ninja built, from its log (format v5: start, end, mtime, output, hash).
std::vector<std::string> BuiltOutputs(const fs::path& ninja_log) {
  std::vector<std::string> outputs;
  std::istringstream lines(ReadText(ninja_log));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.starts_with("#")) continue;
    std::istringstream fields(line);
    std::string start, end, mtime, output;
    if (fields >> start >> end >> mtime >> output) outputs.push_back(output);
  }
  return outputs;
}

TEST(DemoScript, BuildsOnlyFloeThenRunsTheDemo) {
  const char* wanted = std::getenv("FLOE_TEST_DEMO_SCRIPT");
  if (!wanted || std::string(wanted) != "1") {
    GTEST_SKIP() << "skipped: set FLOE_TEST_DEMO_SCRIPT=1 to build floe in a fresh folder (minutes)";
  }
  if (std::system("command -v ninja > /dev/null 2>&1") != 0) GTEST_SKIP() << "skipped: ninja is not installed";
  const fs::path scratch = fs::temp_directory_path() / ("floe-demo-test-" + RandomUuidString().substr(0, 8));
  const fs::path build = scratch / "build", demo = scratch / "demo";
  fs::create_directories(scratch);
  const std::string log = (scratch / "demo.out").string();
  const std::string cmd = "FLOE_BUILD_DIR='" + build.string() + "' FLOE_DEMO_DIR='" + demo.string() + "' bash '" +
                          std::string(FLOE_SOURCE_DIR) + "/scripts/demo.sh' > '" + log + "' 2>&1";
  int status = std::system(cmd.c_str());
  std::string output = ReadText(log);
  ASSERT_EQ(status, 0) << output;
  EXPECT_NE(output.find("build: building floe into"), std::string::npos) << output;
  EXPECT_NE(output.find("== Summary =="), std::string::npos) << output;
  EXPECT_NE(output.find("idempotent re-run is a no-op:                  yes"), std::string::npos) << output;

  std::vector<std::string> built = BuiltOutputs(build / ".ninja_log");
  bool floe_built = false;
  for (const std::string& output_path : built) {
    if (output_path == "floe") floe_built = true;
    EXPECT_EQ(output_path.find("_test"), std::string::npos) << "demo.sh built " << output_path;
    EXPECT_EQ(output_path.find("_bench"), std::string::npos) << "demo.sh built " << output_path;
  }
  EXPECT_TRUE(floe_built) << "floe is not among ninja's outputs";
  EXPECT_FALSE(fs::exists(build / "floe_cli_tests"));
  std::error_code ec;
  fs::remove_all(scratch, ec);
}

}  // namespace
}  // namespace floe
