#include "contention/contention_scheduler.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "catalog/fault_injecting_catalog.h"

namespace floe {
namespace {

TEST(ContentionScheduler, ReachesTheEngineOnlyThroughTheCatalogItWasSuppliedWith) {
  // Nothing is installed behind the program's back: a catalog opened without a scheduler
  // carries none (its commits run unscheduled), one opened with it carries exactly that one,
  // and a wrapper answers with the wrapped catalog's.
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("floe-contention-supply-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string uri = "sqlite://" + (dir / "catalog.db").string() + "?warehouse=" + (dir / "wh").string();
  auto plain = OpenCatalog(uri);
  ASSERT_TRUE(plain.has_value()) << plain.error().message;
  EXPECT_EQ((*plain)->commit_scheduler(), nullptr);

  ContentionScheduler mine;
  CatalogOptions options;
  options.commit_scheduler = &mine;
  auto supplied = OpenCatalog(uri, options);
  ASSERT_TRUE(supplied.has_value()) << supplied.error().message;
  EXPECT_EQ((*supplied)->commit_scheduler(), &mine);
  FaultInjectingCatalog wrapper(std::move(*supplied));
  EXPECT_EQ(wrapper.commit_scheduler(), &mine);
  std::filesystem::remove_all(dir);
}

TEST(ContentionScheduler, OneTableOnePacer) {
  ContentionScheduler scheduler;
  CommitPacer& a = scheduler.PacingOf("cat/db.pacing_a");
  CommitPacer& same = scheduler.PacingOf("cat/db.pacing_a");
  CommitPacer& other = scheduler.PacingOf("cat/db.pacing_b");
  EXPECT_EQ(&a, &same);
  EXPECT_NE(&a, &other);
  // Another scheduler keeps pacers of its own.
  ContentionScheduler apart;
  EXPECT_NE(&apart.PacingOf("cat/db.pacing_a"), &a);
}

TEST(ContentionScheduler, OneGroupCommitQueuePerKeyWhileHeld) {
  ContentionScheduler scheduler;
  std::shared_ptr<CommitQueue> queue = scheduler.QueueOf("test|scheduler|db.t");
  EXPECT_EQ(queue, scheduler.QueueOf("test|scheduler|db.t"));
  EXPECT_NE(queue, scheduler.QueueOf("test|scheduler|db.u"));
  // A queue nobody holds any longer is forgotten.
  queue.reset();
  EXPECT_EQ(scheduler.QueueOf("test|scheduler|db.t").use_count(), 1);
}

TEST(ContentionScheduler, TurnsAreKeyedByTableIdentity) {
  ContentionScheduler scheduler;
  TableMetadata with_uuid;
  with_uuid.table_uuid = "9d3c2e1a-0000-4000-8000-000000000001";
  with_uuid.location = "file:///w/db/t";
  TableMetadata same_table = with_uuid;
  same_table.location = "file:///elsewhere/t";  // moved: still the same table
  EXPECT_EQ(scheduler.TurnKeyOf(with_uuid), scheduler.TurnKeyOf(same_table));
  const std::string key = scheduler.TurnKeyOf(with_uuid);
  ASSERT_FALSE(key.empty());
  // Turns of one party on an idle table start at once (no queue: only the lock's time).
  auto first = scheduler.TakeTurn(key, this);
  ASSERT_NE(first, nullptr);
  EXPECT_LT(first->waited_us(), 100'000);
  EXPECT_FALSE(first->LandedSince(0));
  first->End("");
  auto second = scheduler.TakeTurn(key, this);
  ASSERT_NE(second, nullptr);
  second->End("file:///w/db/t/metadata/v2.metadata.json");
  auto third = scheduler.TakeTurn(key, this);
  EXPECT_TRUE(third->LandedSince(0));
  EXPECT_EQ(third->landed_location(), "file:///w/db/t/metadata/v2.metadata.json");
}

}  // namespace
}  // namespace floe
