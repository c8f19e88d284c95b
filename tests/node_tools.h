// Running the independent engines of tests/js (Node with npm packages) from a GoogleTest.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

namespace floe::testing {

// Why a cross-engine test cannot run here (to pass to GTEST_SKIP), or nullopt when node and the
// npm package `module` (installed in tests/js by scripts/install-deps.sh) are both present.
inline std::optional<std::string> MissingNodeModule(const std::string& module) {
  if (std::system("command -v node > /dev/null 2>&1") != 0) return "skipped: node is not installed";
  if (!std::filesystem::exists(std::string(FLOE_SOURCE_DIR) + "/tests/js/node_modules/" + module)) {
    return "skipped: tests/js/node_modules/" + module + " is missing (run scripts/install-deps.sh)";
  }
  return std::nullopt;
}

inline std::string JsScript(const std::string& name) { return std::string(FLOE_SOURCE_DIR) + "/tests/js/" + name; }

inline std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct CommandOutput {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

inline CommandOutput RunCommand(const std::string& command) {
  CommandOutput result;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  return result;
}

}  // namespace floe::testing
