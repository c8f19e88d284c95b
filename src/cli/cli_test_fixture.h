// The fixture of the CLI's subprocess tests: a fresh folder per test and `floe` run in it.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "util/uuid.h"

namespace floe_cli_test {

struct CommandResult {
  int status = -1;
  std::string out;  // stdout and stderr together
};

class FloeCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() / ("floe-cli-" + floe::RandomUuidString().substr(0, 8))).string();
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // Runs `floe ARGS` in the test folder (default catalog: ./warehouse/catalog.db there).
  CommandResult Floe(const std::string& args, const std::string& stdin_text = "") {
    std::string input = dir_ + "/stdin.txt";
    std::ofstream(input) << stdin_text;
    std::string cmd = "cd '" + dir_ + "' && env -u FLOE_CATALOG '" + std::string(FLOE_BINARY) + "' " + args +
                      " < '" + input + "' 2>&1";
    CommandResult run;
    FILE* pipe = popen(cmd.c_str(), "r");
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) run.out.append(buf.data(), n);
    int status = pclose(pipe);
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
  }
  void Write(const std::string& name, const std::string& text) { std::ofstream(dir_ + "/" + name) << text; }
  const std::string& dir() const { return dir_; }

  void CreateOrders() {
    ASSERT_EQ(Floe("namespace create sales").status, 0);
    auto r = Floe("create sales.orders --schema 'order_id long, country string, amount_cents long, ts timestamp' "
                  "--partition-by 'country, day(ts)'");
    ASSERT_EQ(r.status, 0) << r.out;
    Write("orders.csv",
          "order_id,country,amount_cents,ts\n1,DE,100,2026-01-01T10:00:00\n2,DE,200,2026-01-01T11:00:00\n"
          "3,FR,300,2026-01-02T10:00:00\n4,US,400,2026-01-03T10:00:00\n");
    r = Floe("append sales.orders orders.csv");
    ASSERT_EQ(r.status, 0) << r.out;
  }

 private:
  std::string dir_;
};

}  // namespace floe_cli_test
