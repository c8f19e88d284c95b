// For tests that run the floe binary as a user would: a scratch folder and a way to run
// `floe ARGS` in it with standard output and standard error kept apart.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "catalog/catalog_test_env.h"

namespace floe::cli_test {

struct FloeRun {
  int status = -1;
  std::string out;
  std::string err;
};

inline std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A folder under the system's temporary folder, removed with its contents at the end.
class ScratchDir {
 public:
  std::filesystem::path path() const { return dir_.path(); }
  std::string str() const { return dir_.path(); }

  // `floe ARGS` (ARGS as shell words) run in this folder, without FLOE_CATALOG from outside.
  FloeRun Floe(const std::string& args) const {
    const std::string out = (path() / ".stdout").string(), err = (path() / ".stderr").string();
    std::string cmd = "cd " + Quote(str()) + " && env -u FLOE_CATALOG " + Quote(FLOE_BINARY) + " " + args +
                      " < /dev/null > " + Quote(out) + " 2> " + Quote(err);
    int status = std::system(cmd.c_str());
    FloeRun run;
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.out = ReadText(out);
    run.err = ReadText(err);
    return run;
  }

 private:
  testing_env::TempDir dir_{"floe-cli"};
};

}  // namespace floe::cli_test
