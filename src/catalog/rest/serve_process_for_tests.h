// Tests only (header-only, not in the library): runs `floe serve` as a child process on a free
// loopback port and stops it with SIGTERM when destroyed.
#pragma once

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace floe::testing_env {

class ServeProcess {
 public:
  // `floe` is the binary; `args` follow it (global options, then "serve" and its options;
  // "--listen 127.0.0.1:0" is added when absent). Returns nullptr with *error set when the
  // server does not start within 30 s.
  static std::unique_ptr<ServeProcess> Start(const std::string& floe, std::vector<std::string> args,
                                             std::string* error) {
    if (!std::filesystem::exists(floe)) {
      *error = "no floe binary at " + floe + " (build the floe target)";
      return nullptr;
    }
    bool has_listen = false;
    for (const auto& a : args) has_listen |= a == "--listen";
    if (!has_listen) {
      args.push_back("--listen");
      args.push_back("127.0.0.1:0");
    }
    int out[2];
    if (pipe(out) != 0) {
      *error = "pipe failed";
      return nullptr;
    }
    pid_t pid = fork();
    if (pid == 0) {
      dup2(out[1], STDOUT_FILENO);
      close(out[0]);
      close(out[1]);
      ExecFloe(floe, args);
    }
    close(out[1]);
    std::unique_ptr<ServeProcess> p(new ServeProcess(pid, out[0]));
    std::string seen;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd pfd{out[0], POLLIN, 0};
      if (poll(&pfd, 1, 200) <= 0) continue;
      char buf[512];
      ssize_t n = read(out[0], buf, sizeof buf);
      if (n <= 0) break;
      seen.append(buf, static_cast<size_t>(n));
      size_t at = seen.find("listening on ");
      size_t eol = at == std::string::npos ? at : seen.find('\n', at);
      if (eol != std::string::npos) {
        p->url_ = seen.substr(at + 13, eol - at - 13);
        return p;
      }
    }
    *error = "floe serve did not start; its output: " + seen;
    p->exit_status_ = p->Stop();
    *error += " (exit status " + std::to_string(p->exit_status_) + ")";
    return nullptr;
  }

  // Runs `floe args...` to completion and returns its exit status (for refused starts).
  static int RunToExit(const std::string& floe, std::vector<std::string> args) {
    pid_t pid = fork();
    if (pid == 0) {
      ExecFloe(floe, args);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  ~ServeProcess() { Stop(); }
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  const std::string& url() const { return url_; }
  pid_t pid() const { return pid_; }

  // SIGTERM, then the exit status (128+signal when it died of one).
  int Stop() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      int status = 0;
      waitpid(pid_, &status, 0);
      pid_ = -1;
      exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      close(fd_);
    }
    return exit_status_;
  }

 private:
  // In a forked child: becomes `floe args...` (exit status 127 if that fails).
  [[noreturn]] static void ExecFloe(const std::string& floe, std::vector<std::string>& args) {
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(floe.c_str()));
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(floe.c_str(), argv.data());
    _exit(127);
  }

  ServeProcess(pid_t pid, int fd) : pid_(pid), fd_(fd) {}
  pid_t pid_;
  int fd_;
  int exit_status_ = -1;
  std::string url_;
};

}  // namespace floe::testing_env
