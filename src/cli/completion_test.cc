// `floe completion bash` sourced by a real bash, and an example in every command's --help.
#include <gtest/gtest.h>

#include <set>

#include "cli/cli_test_env.h"

namespace floe::cli_test {
namespace {

// What bash's completion function offers for the words typed so far (the last one is being
// completed), one candidate per line.
std::string Complete(const ScratchDir& dir, const std::string& words) {
  const std::string script = (dir.path() / "floe-completion.bash").string();
  FloeRun generated = dir.Floe("completion bash");
  EXPECT_EQ(generated.status, 0) << generated.err;
  std::ofstream(script) << generated.out;
  std::string probe = "source " + Quote(script) + "; COMP_WORDS=(" + words + "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1));" +
                      " _floe; printf '%s\\n' \"${COMPREPLY[@]}\"";
  std::string cmd = "cd " + Quote(dir.str()) + " && bash -c " + Quote(probe) + " > .completion 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << ReadText(dir.path() / ".completion");
  return ReadText(dir.path() / ".completion");
}

TEST(FloeCompletion, CompletesCommandsSubcommandsAndOptions) {
  ScratchDir dir;
  EXPECT_EQ(Complete(dir, "floe sc"), "scan\nschema\n");
  EXPECT_EQ(Complete(dir, "floe namespace cr"), "create\n");
  // Options of the command being typed, after floe's own options and their values.
  EXPECT_EQ(Complete(dir, "floe --catalog x.db scan t --allow"), "--allow-moved-paths\n");
  EXPECT_EQ(Complete(dir, "floe schema add-column t c long --cat"), "--catalog\n--catalog-name\n");
  // A command's positional arguments complete file names.
  std::ofstream(dir.path() / "orders.csv") << "id\n1\n";
  EXPECT_EQ(Complete(dir, "floe append t ord"), "orders.csv\n");
  // ... and a nested command's options are its own.
  std::string offered = Complete(dir, "floe namespace create sales --");
  EXPECT_NE(offered.find("--property\n"), std::string::npos) << offered;
  EXPECT_EQ(offered.find("--purge"), std::string::npos) << offered;
}

TEST(FloeCompletion, RefusesAnUnknownShell) {
  ScratchDir dir;
  FloeRun run = dir.Floe("completion tcsh");
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("tcsh"), std::string::npos) << run.err;
}

// The commands listed under "Subcommands:" in a --help text.
std::set<std::string> Subcommands(const std::string& help) {
  std::set<std::string> names;
  size_t at = help.find("Subcommands:\n");
  if (at == std::string::npos) return names;
  std::istringstream lines(help.substr(at + 13));
  std::string line;
  while (std::getline(lines, line) && !line.empty()) {
    std::istringstream words(line);
    std::string name;
    if (words >> name) names.insert(name);
  }
  return names;
}

TEST(FloeHelp, EveryCommandShowsAnExample) {
  ScratchDir dir;
  std::vector<std::string> pending = {""};
  int checked = 0;
  while (!pending.empty()) {
    std::string path = pending.back();
    pending.pop_back();
    FloeRun help = dir.Floe(path + " --help");
    ASSERT_EQ(help.status, 0) << "floe " << path << " --help: " << help.err;
    if (!path.empty()) {
      ++checked;
      size_t at = help.out.find("\nExample:\n  ");
      ASSERT_NE(at, std::string::npos) << "floe " << path << " --help has no example:\n" << help.out;
      std::string example = help.out.substr(at + 12, help.out.find('\n', at + 12) - (at + 12));
      EXPECT_NE(example.find("floe " + path), std::string::npos) << "floe " << path << ": " << example;
    }
    for (const std::string& sub : Subcommands(help.out)) pending.push_back(path.empty() ? sub : path + " " + sub);
  }
  EXPECT_GT(checked, 40) << "fewer commands than floe has: the Subcommands: parsing broke";
}

}  // namespace
}  // namespace floe::cli_test
