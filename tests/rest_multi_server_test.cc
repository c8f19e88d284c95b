// Several `floe serve` processes on one database serve one catalog: concurrent commits through
// two servers (floe's REST client, several threads each) all land exactly once, and the commit
// engine's retries on 409 work through the wire. SQLite always; PostgreSQL with FLOE_TEST_PG_URI.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "catalog/catalog_test_env.h"
#include "catalog/rest/rest_catalog.h"
#include "catalog/rest/serve_process_for_tests.h"

namespace floe {
namespace {

using testing_env::Backend;
using testing_env::ServeProcess;

class RestMultiServerTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    place_ = testing_env::MakePlace(GetParam(), dir_.path());
    if (place_.uri.empty()) GTEST_SKIP() << place_.skip_reason;
    if (!std::filesystem::exists(FLOE_BINARY)) GTEST_SKIP() << "skipped: no floe binary at " FLOE_BINARY;
    for (int i = 0; i < 2; ++i) {
      std::string error;
      auto server = ServeProcess::Start(FLOE_BINARY, {"--catalog", place_.uri, "--catalog-name", place_.name, "serve"},
                                        &error);
      ASSERT_TRUE(server) << error;
      servers_.push_back(std::move(server));
    }
  }

  std::unique_ptr<Catalog> Client(int server) {
    auto opened = OpenCatalog(servers_[server]->url());
    EXPECT_TRUE(opened) << opened.error().ToString();
    return opened ? std::move(*opened) : nullptr;
  }

  testing_env::TempDir dir_{"floe-rest-multi"};
  testing_env::CatalogPlace place_;
  std::vector<std::unique_ptr<ServeProcess>> servers_;
};

TEST_P(RestMultiServerTest, ConcurrentCommitsThroughTwoServersAllLand) {
  auto setup = Client(0);
  ASSERT_TRUE(setup);
  ASSERT_TRUE(setup->CreateNamespace({"db"}, {}));
  auto created = setup->CreateTable({{"db"}, "t"}, CreateTableRequest{testing_env::SimpleSchema()});
  ASSERT_TRUE(created) << created.error().ToString();
  // The second server sees what the first created.
  auto via_other = Client(1);
  ASSERT_TRUE(via_other);
  ASSERT_TRUE(via_other->TableExists({{"db"}, "t"}).value());
  EXPECT_TRUE(dynamic_cast<RestCatalog*>(via_other.get())->idempotency_supported());

  constexpr int kWriters = 4;  // per server
  constexpr int kPerWriter = 10;
  std::atomic<int> conflicts{0}, failures{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < 2 * kWriters; ++w) {
    threads.emplace_back([&, w] {
      auto catalog = Client(w % 2);
      if (!catalog) {
        ++failures;
        return;
      }
      for (int i = 0; i < kPerWriter;) {
        // Each commit asserts the table's current schema and uuid, like a real writer; on 409 it
        // reloads and tries again (what the commit engine does).
        auto base = catalog->LoadTable({{"db"}, "t"});
        if (!base) {
          ++failures;
          return;
        }
        TableCommit commit{{{"db"}, "t"},
                           {AssertTableUuid{base->metadata.table_uuid},
                            AssertCurrentSchemaId{base->metadata.current_schema_id}},
                           {SetProperties{{{"w" + std::to_string(w) + "-" + std::to_string(i), "x"}}}}};
        auto done = catalog->CommitTable(commit);
        if (done) {
          ++i;
        } else if (done.error().kind == ErrorKind::kCommitConflict) {
          ++conflicts;
        } else {
          ADD_FAILURE() << done.error().ToString();
          ++failures;
          return;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  ASSERT_EQ(failures.load(), 0);
  auto loaded = setup->LoadTable({{"db"}, "t"});
  ASSERT_TRUE(loaded);
  for (int w = 0; w < 2 * kWriters; ++w) {
    for (int i = 0; i < kPerWriter; ++i) {
      EXPECT_EQ(loaded->metadata.properties.count("w" + std::to_string(w) + "-" + std::to_string(i)), 1u);
    }
  }
  // At most one metadata version per successful commit (a server's group commit writes one
  // document for several): nothing applied twice, nothing lost (every key above is there).
  EXPECT_LE(loaded->metadata.metadata_log.size(), static_cast<size_t>(2 * kWriters * kPerWriter));
  std::cout << "conflicts retried: " << conflicts.load() << "\n";
}

TEST_P(RestMultiServerTest, MultiTableCommitThroughOneServerIsSeenByTheOther) {
  auto a = Client(0);
  auto b = Client(1);
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(a->CreateNamespace({"db"}, {}));
  ASSERT_TRUE(a->CreateTable({{"db"}, "x"}, CreateTableRequest{testing_env::SimpleSchema()}));
  ASSERT_TRUE(a->CreateTable({{"db"}, "y"}, CreateTableRequest{testing_env::SimpleSchema()}));
  auto committed = a->CommitTransaction({TableCommit{{{"db"}, "x"}, {}, {SetProperties{{{"k", "1"}}}}},
                                         TableCommit{{{"db"}, "y"}, {}, {SetProperties{{{"k", "1"}}}}}});
  ASSERT_TRUE(committed) << committed.error().ToString();
  EXPECT_EQ(b->LoadTable({{"db"}, "x"})->metadata.properties.at("k"), "1");
  EXPECT_EQ(b->LoadTable({{"db"}, "y"})->metadata.properties.at("k"), "1");
}

INSTANTIATE_TEST_SUITE_P(Backends, RestMultiServerTest, ::testing::Values(Backend::kSqlite, Backend::kPostgres),
                         [](const auto& info) { return std::string(testing_env::BackendName(info.param)); });

}  // namespace
}  // namespace floe
