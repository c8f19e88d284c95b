// Two processes replace one view's version at once, on every backend (and through `floe serve`):
// each replace reloads the view, adds a version of its own SQL and asserts the view's uuid, so
// only the catalog's compare-and-swap decides between them; a loser (CommitConflict, a 409 over
// REST) reloads and decides again. Afterwards the version log holds exactly one entry per
// replace a process reported, every process's SQL is there once, and no loser left a document.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <random>
#include <set>
#include <thread>

#include "catalog/catalog_test_env.h"

namespace floe {
namespace {

using testing_env::Backend;

constexpr int kProcesses = 2;
constexpr int kReplacesEach = 15;
const TableIdentifier kView{{"race"}, "v"};

struct Report {
  int successes = 0;
  int conflicts = 0;
  int failed = 0;
};

std::string Sql(int process, int n) { return "SELECT " + std::to_string(1 + process * 1000 + n) + " AS n"; }

Report RunReplacer(const testing_env::CatalogPlace& place, int process, int start_fd) {
  Report report;
  auto catalog = testing_env::OpenPlace(place);
  char go;
  (void)!read(start_fd, &go, 1);
  if (!catalog) {
    fprintf(stderr, "replacer %d: %s\n", process, catalog.error().ToString().c_str());
    report.failed = 1;
    return report;
  }
  std::minstd_rand rng(std::random_device{}() ^ getpid());
  while (report.successes < kReplacesEach) {
    auto base = (*catalog)->LoadView(kView);
    if (!base) {
      fprintf(stderr, "replacer %d: %s\n", process, base.error().ToString().c_str());
      report.failed = 1;
      return report;
    }
    ViewVersion version = base->metadata.CurrentVersion();
    version.representations = {ViewRepresentation{"sql", Sql(process, report.successes), "spark", ""}};
    version.timestamp_ms = 0;
    auto done = (*catalog)->CommitView(ViewCommit{kView, {AssertViewUuid{base->metadata.view_uuid}},
                                                  {AddViewVersion{version}, SetCurrentViewVersion{-1}}});
    if (done) {
      ++report.successes;
    } else if (done.error().kind == ErrorKind::kCommitConflict) {
      ++report.conflicts;
      std::this_thread::sleep_for(std::chrono::microseconds(rng() % 500));
    } else {
      fprintf(stderr, "replacer %d: %s\n", process, done.error().ToString().c_str());
      report.failed = 1;
      return report;
    }
  }
  return report;
}

class ViewRace : public ::testing::TestWithParam<Backend> {};

TEST_P(ViewRace, EveryReplaceIsOneVersionAndNoneIsLost) {
  testing_env::TempDir dir("floe-view-race");
  auto place = testing_env::MakePlace(GetParam(), dir.path());
  if (place.uri.empty()) {
    if (!place.skip_reason.starts_with("skipped")) FAIL() << place.skip_reason;
    GTEST_SKIP() << place.skip_reason;
  }
  LoadedView created;
  {
    auto catalog = testing_env::OpenPlace(place);
    ASSERT_TRUE(catalog) << catalog.error().ToString();
    ASSERT_TRUE((*catalog)->CreateNamespace(kView.ns, {}));
    CreateViewRequest request{testing_env::SimpleSchema()};
    request.version.representations = {ViewRepresentation{"sql", "SELECT 0 AS n", "spark", ""}};
    request.properties[kViewHistorySizeProperty] = "1000";  // keep every version
    auto view = (*catalog)->CreateView(kView, request);
    ASSERT_TRUE(view) << view.error().ToString();
    created = *view;
  }  // closed before forking

  int start[2];
  ASSERT_EQ(pipe(start), 0);
  std::vector<std::pair<pid_t, int>> children;
  for (int p = 0; p < kProcesses; ++p) {
    int out[2];
    ASSERT_EQ(pipe(out), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(start[1]);
      close(out[0]);
      Report report = RunReplacer(place, p, start[0]);
      (void)!write(out[1], &report, sizeof report);
      _exit(0);
    }
    close(out[1]);
    children.emplace_back(pid, out[0]);
  }
  close(start[0]);
  close(start[1]);  // go

  int successes = 0, conflicts = 0;
  for (int p = 0; p < kProcesses; ++p) {
    Report report;
    ssize_t got = read(children[p].second, &report, sizeof report);
    close(children[p].second);
    int status = 0;
    waitpid(children[p].first, &status, 0);
    ASSERT_EQ(got, static_cast<ssize_t>(sizeof report)) << "replacer " << p << " died";
    EXPECT_EQ(report.failed, 0) << "replacer " << p;
    EXPECT_EQ(report.successes, kReplacesEach) << "replacer " << p;
    successes += report.successes;
    conflicts += report.conflicts;
  }
  std::printf("%s: %d replaces, %d conflicts\n", testing_env::BackendName(GetParam()), successes, conflicts);

  auto catalog = testing_env::OpenPlace(place);
  ASSERT_TRUE(catalog);
  auto view = (*catalog)->LoadView(kView);
  ASSERT_TRUE(view) << view.error().ToString();
  const ViewMetadata& m = view->metadata;
  ASSERT_EQ(m.version_log.size(), static_cast<size_t>(1 + successes)) << "one log entry per replace";
  ASSERT_EQ(m.versions.size(), static_cast<size_t>(1 + successes));
  std::set<int> logged;
  for (const auto& entry : m.version_log) EXPECT_TRUE(logged.insert(entry.version_id).second) << entry.version_id;
  std::multiset<std::string> sqls;
  for (const auto& version : m.versions) sqls.insert(version.SqlFor("spark")->sql);
  for (int p = 0; p < kProcesses; ++p) {
    for (int n = 0; n < kReplacesEach; ++n) EXPECT_EQ(sqls.count(Sql(p, n)), 1u) << Sql(p, n);
  }

  // Losers deleted their documents: one per version (created + each replace).
  if (GetParam() != Backend::kRestSqlite) {
    size_t documents = 0;
    auto listed = (*catalog)->io()->ListPrefix(m.location + "/metadata/");
    ASSERT_TRUE(listed) << listed.error().ToString();
    for (const auto& f : *listed) documents += f.path.ends_with(".metadata.json") || f.path.ends_with(".view.json");
    EXPECT_EQ(documents, static_cast<size_t>(1 + successes));
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, ViewRace,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres, Backend::kStorage, Backend::kRestSqlite,
                                           Backend::kStorageS3),
                         [](const auto& info) { return std::string(testing_env::BackendName(info.param)); });

}  // namespace
}  // namespace floe
