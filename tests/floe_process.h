// Starting the floe command as a child process, for the system tests that race it or kill it.
#pragma once

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>
#include <utility>
#include <vector>

namespace floe::test {

struct ChildOutput {
  std::string path = "/dev/null";  // standard output goes here (created or truncated)
  bool with_stderr = false;        // standard error too; otherwise it stays the test's
};

// Forks and runs `binary` with `args` (its own name comes first), after setting `env` in the
// child. The child's pid, or -1 when fork failed; a child that cannot exec exits 127.
inline pid_t SpawnProcess(const std::string& binary, const std::vector<std::string>& args, const ChildOutput& output = {},
                          const std::vector<std::pair<std::string, std::string>>& env = {}) {
  pid_t pid = fork();
  if (pid != 0) return pid;
  for (const auto& [name, value] : env) setenv(name.c_str(), value.c_str(), 1);
  int fd = open(output.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  dup2(fd, 1);
  if (output.with_stderr) dup2(fd, 2);
  std::vector<std::string> all = {binary};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(binary.c_str(), argv.data());
  _exit(127);
}

}  // namespace floe::test
