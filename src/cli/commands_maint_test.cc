// The maintenance commands as a user runs them: bad arguments refused with nothing changed,
// dry runs that list, expiry and what reading an expired snapshot says.
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "util/uuid.h"

namespace {

struct MaintRun {
  int status = -1;
  std::string out;  // stdout and stderr
};

class MaintCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() / ("floe-maint-cli-" + floe::RandomUuidString().substr(0, 8))).string();
    std::filesystem::create_directories(dir_);
    ASSERT_EQ(Floe("namespace create sales").status, 0);
    ASSERT_EQ(Floe("create sales.orders --schema 'order_id long, country string' --partition-by country").status, 0);
    for (int i = 0; i < 3; ++i) {
      std::ofstream(dir_ + "/rows.csv") << "order_id,country\n" << i << ",DE\n";
      ASSERT_EQ(Floe("append sales.orders rows.csv").status, 0);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  MaintRun Floe(const std::string& args) {
    std::string cmd = "cd '" + dir_ + "' && env -u FLOE_CATALOG '" + std::string(FLOE_BINARY) + "' " + args + " 2>&1";
    MaintRun run;
    FILE* pipe = popen(cmd.c_str(), "r");
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) run.out.append(buf.data(), n);
    int status = pclose(pipe);
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
  }
  // The table's order ids, sorted (scan order is not fixed).
  std::string OrderIds() {
    std::string out = Floe("scan sales.orders --format csv --columns order_id").out;
    std::vector<std::string> lines;
    for (size_t start = out.find('\n') + 1; start < out.size();) {
      size_t end = out.find('\n', start);
      lines.push_back(out.substr(start, end - start));
      start = end + 1;
    }
    std::sort(lines.begin(), lines.end());
    std::string joined;
    for (const auto& l : lines) joined += l + " ";
    return joined;
  }
  std::vector<std::string> SnapshotIds() {
    std::vector<std::string> ids;
    std::string out = Floe("snapshots sales.orders --format jsonl").out;
    std::regex id("\"snapshot_id\":([0-9]+)");
    for (auto it = std::sregex_iterator(out.begin(), out.end(), id); it != std::sregex_iterator(); ++it)
      ids.push_back((*it)[1]);
    return ids;
  }
  std::string dir_;
};

TEST_F(MaintCli, BadArgumentsAreRefusedAndChangeNothing) {
  const auto before = SnapshotIds();
  ASSERT_EQ(before.size(), 3u);
  auto zero = Floe("expire-snapshots sales.orders --retain-last 0 --older-than 0");
  EXPECT_EQ(zero.status, 2) << zero.out;
  EXPECT_NE(zero.out.find("--retain-last"), std::string::npos) << zero.out;
  auto future = Floe("expire-snapshots sales.orders --older-than 2999-01-01T00:00:00");
  EXPECT_EQ(future.status, 2) << future.out;
  EXPECT_NE(future.out.find("in the future"), std::string::npos) << future.out;
  auto garbage = Floe("expire-snapshots sales.orders --older-than yesterday");
  EXPECT_EQ(garbage.status, 2) << garbage.out;
  EXPECT_NE(garbage.out.find("--older-than 'yesterday'"), std::string::npos) << garbage.out;
  auto orphans = Floe("remove-orphan-files sales.orders --location /etc");
  EXPECT_EQ(orphans.status, 2) << orphans.out;
  auto groups = Floe("rewrite-data-files sales.orders --partial-progress --max-commits 0");
  EXPECT_EQ(groups.status, 2) << groups.out;
  EXPECT_EQ(SnapshotIds(), before);
}

TEST_F(MaintCli, ExpireListsThenExpiresAndTimeTravelNamesTheSnapshot) {
  const auto ids = SnapshotIds();
  ASSERT_EQ(ids.size(), 3u);
  const std::string now = std::to_string(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
  auto dry = Floe("expire-snapshots sales.orders --older-than " + now + " --dry-run");
  EXPECT_EQ(dry.status, 0) << dry.out;
  EXPECT_NE(dry.out.find("would expire 2 snapshots"), std::string::npos) << dry.out;
  EXPECT_NE(dry.out.find("manifest-list "), std::string::npos) << dry.out;
  EXPECT_EQ(SnapshotIds().size(), 3u);

  auto real = Floe("expire-snapshots sales.orders --older-than " + now);
  EXPECT_EQ(real.status, 0) << real.out;
  EXPECT_NE(real.out.find("expired 2 snapshots"), std::string::npos) << real.out;
  EXPECT_EQ(SnapshotIds().size(), 1u);

  // Reading an expired snapshot names it; the table still reads whole.
  const std::string kept = SnapshotIds().front();
  const std::string oldest = ids.front() == kept ? ids.back() : ids.front();
  auto gone = Floe("scan sales.orders --snapshot " + oldest);
  EXPECT_EQ(gone.status, 1) << gone.out;
  EXPECT_NE(gone.out.find("snapshot " + oldest), std::string::npos) << gone.out;
  EXPECT_NE(gone.out.find("expired"), std::string::npos) << gone.out;
  EXPECT_EQ(gone.out.find("No such file"), std::string::npos) << gone.out;
  EXPECT_EQ(OrderIds(), "0 1 2 ");
}

TEST_F(MaintCli, CompactionManifestsAndMaintain) {
  auto rewrite = Floe("rewrite-data-files sales.orders --min-input-files 2 --partial-progress");
  EXPECT_EQ(rewrite.status, 0) << rewrite.out;
  EXPECT_NE(rewrite.out.find("1 of 1 file groups committed"), std::string::npos) << rewrite.out;
  auto manifests = Floe("rewrite-manifests sales.orders");
  EXPECT_EQ(manifests.status, 0) << manifests.out;
  auto orphans = Floe("remove-orphan-files sales.orders --dry-run");
  EXPECT_EQ(orphans.status, 0) << orphans.out;
  EXPECT_NE(orphans.out.find("would delete 0 orphan files"), std::string::npos) << orphans.out;
  auto maintain = Floe("maintain sales.orders");
  EXPECT_EQ(maintain.status, 0) << maintain.out;
  EXPECT_NE(maintain.out.find("expired 0 snapshots"), std::string::npos) << maintain.out;
  EXPECT_EQ(OrderIds(), "0 1 2 ");
}

}  // namespace
