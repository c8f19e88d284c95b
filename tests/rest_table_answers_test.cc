// `floe serve`'s load-table and commit-table answers for a table with history: an ETag on each,
// If-None-Match answered 304 while the catalog row still points at that document (also when
// another server on the same database moved it), snapshots=refs answering only the snapshots
// the refs point at, and floe's REST client using both (its copy revalidated, not refetched).
#include <gtest/gtest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>

#include "catalog/catalog_test_env.h"
#include "catalog/rest/rest_catalog.h"
#include "catalog/rest/serve_process_for_tests.h"
#include "commit/commit_operation.h"
#include "commit/files_operation.h"
#include "commit/operations.h"
#include "write/data_writer.h"

namespace floe {
namespace {

using nlohmann::json;
using testing_env::ServeProcess;

const TableIdentifier kTable{{"db"}, "t"};
const std::string kTablePath = "/v1/namespaces/db/tables/t";

class RestTableAnswersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int i = 0; i < 2; ++i) {
      std::string error;
      auto server =
          ServeProcess::Start(FLOE_BINARY, {"--catalog", "sqlite://" + dir_.path() + "/catalog.db", "serve"}, &error);
      ASSERT_TRUE(server) << error;
      servers_.push_back(std::move(server));
    }
    client_ = Client(0);
    ASSERT_TRUE(client_->CreateNamespace({"db"}, {}));
    ASSERT_TRUE(client_->CreateTable(kTable, CreateTableRequest{testing_env::SimpleSchema()}));
    http_ = std::make_unique<httplib::Client>(servers_[0]->url());
    http_->set_read_timeout(30, 0);
  }

  std::unique_ptr<RestCatalog> Client(int server) {
    auto opened = RestCatalog::Open(servers_[server]->url(), {});
    EXPECT_TRUE(opened) << opened.error().ToString();
    return opened ? std::move(*opened) : nullptr;
  }

  // Appends one real data file per commit, `commits` times, through `catalog`.
  void Append(Catalog& catalog, int commits) {
    auto table = catalog.LoadTable(kTable);
    ASSERT_TRUE(table) << table.error().ToString();
    for (int i = 0; i < commits; ++i) {
      DataWriter writer(*catalog.io(), table->metadata);
      ColumnBatch rows(table->metadata.CurrentSchema());
      ASSERT_TRUE(rows.AppendRow({Literal::Long(i), Literal::String("row")}));
      ASSERT_TRUE(writer.Write(rows));
      auto files = writer.Finish();
      ASSERT_TRUE(files) << files.error().ToString();
      FilesOperation op(FastAppend(*files));
      auto done = CommitOperation(catalog, kTable, op);
      ASSERT_TRUE(done) << done.error().ToString();
    }
  }

  httplib::Result Get(const std::string& path, const std::string& if_none_match = "") {
    httplib::Headers headers;
    if (!if_none_match.empty()) headers.emplace("If-None-Match", if_none_match);
    return http_->Get(path, headers);
  }

  testing_env::TempDir dir_{"floe-rest-answers"};
  std::vector<std::unique_ptr<ServeProcess>> servers_;
  std::unique_ptr<RestCatalog> client_;
  std::unique_ptr<httplib::Client> http_;
};

TEST_F(RestTableAnswersTest, IfNoneMatchGets304UntilTheTableChanges) {
  Append(*client_, 3);
  auto first = Get(kTablePath);
  ASSERT_TRUE(first);
  ASSERT_EQ(first->status, 200) << first->body;
  const std::string etag = first->get_header_value("ETag");
  ASSERT_FALSE(etag.empty());
  EXPECT_EQ(etag.front(), '"');

  // The same document: 304, no body, the same validator; also as a weak tag and in a list.
  for (const std::string& header : {etag, "W/" + etag, "\"other\", " + etag, std::string("*")}) {
    auto again = Get(kTablePath, header);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->status, 304) << header;
    EXPECT_TRUE(again->body.empty());
    EXPECT_EQ(again->get_header_value("ETag"), etag);
  }
  // A tag of another document is answered in full.
  auto other = Get(kTablePath, "\"0123456789abcdef0123456789abcdef\"");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->status, 200);
  EXPECT_EQ(other->body, first->body);

  // A commit moves the table on: the old tag gets the new document, with a new tag, and the
  // commit's own answer carries that same tag and the same document.
  Append(*client_, 1);
  auto after = Get(kTablePath, etag);
  ASSERT_TRUE(after);
  ASSERT_EQ(after->status, 200);
  EXPECT_NE(after->get_header_value("ETag"), etag);
  json doc = json::parse(after->body);
  EXPECT_EQ(doc["metadata"]["snapshots"].size(), 4u);
  EXPECT_EQ(doc["config"], json::object());
}

TEST_F(RestTableAnswersTest, AnotherServerMovingTheTableIsNeverAnswered304) {
  Append(*client_, 2);
  auto first = Get(kTablePath);
  ASSERT_TRUE(first);
  const std::string etag = first->get_header_value("ETag");
  // Server 1 commits on the shared database; server 0 still holds the old document's text.
  auto other = Client(1);
  Append(*other, 1);
  auto after = Get(kTablePath, etag);
  ASSERT_TRUE(after);
  ASSERT_EQ(after->status, 200);
  EXPECT_EQ(json::parse(after->body)["metadata"]["snapshots"].size(), 3u);
  // And floe's client, holding server 0's old copy, sees server 1's commit too.
  auto seen = client_->LoadSharedTable(kTable);
  ASSERT_TRUE(seen);
  EXPECT_EQ(seen->metadata->snapshots.size(), 3u);
}

TEST_F(RestTableAnswersTest, RefsModeAnswersOnlyTheSnapshotsRefsPointAt) {
  Append(*client_, 5);
  auto all = Get(kTablePath + "?snapshots=all");
  auto refs = Get(kTablePath + "?snapshots=refs");
  ASSERT_TRUE(all && refs);
  ASSERT_EQ(all->status, 200);
  ASSERT_EQ(refs->status, 200) << refs->body;
  EXPECT_NE(all->get_header_value("ETag"), refs->get_header_value("ETag"));
  json full = json::parse(all->body)["metadata"];
  json current = json::parse(refs->body)["metadata"];
  ASSERT_EQ(full["snapshots"].size(), 5u);
  ASSERT_EQ(current["snapshots"].size(), 1u);
  EXPECT_EQ(current["snapshots"][0]["snapshot-id"], full["current-snapshot-id"]);
  EXPECT_EQ(current["current-snapshot-id"], full["current-snapshot-id"]);
  EXPECT_EQ(current["refs"], full["refs"]);
  EXPECT_EQ(current["snapshot-log"], full["snapshot-log"]);
  EXPECT_EQ(current["last-sequence-number"], full["last-sequence-number"]);
  // refs mode has its own validator.
  auto again = Get(kTablePath + "?snapshots=refs", refs->get_header_value("ETag"));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 304);

  // A bad mode is a 400 naming the parameter.
  auto bad = Get(kTablePath + "?snapshots=some");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
  EXPECT_NE(bad->body.find("snapshots"), std::string::npos) << bad->body;
}

TEST_F(RestTableAnswersTest, FloeClientLoadsRefsForCurrentStateAndAllForHistory) {
  Append(*client_, 4);
  auto current = client_->LoadCurrentState(kTable);
  ASSERT_TRUE(current) << current.error().ToString();
  ASSERT_EQ(current->metadata->snapshots.size(), 1u);
  ASSERT_NE(current->metadata->CurrentSnapshot(), nullptr);
  // The caller that needs history loads it all.
  auto history = client_->LoadSharedTable(kTable);
  ASSERT_TRUE(history);
  EXPECT_EQ(history->metadata->snapshots.size(), 4u);
  EXPECT_EQ(history->metadata->CurrentSnapshot()->snapshot_id, current->metadata->CurrentSnapshot()->snapshot_id);
  EXPECT_EQ(history->metadata->Ancestry(*history->metadata->current_snapshot_id).size(), 4u);
}

TEST_F(RestTableAnswersTest, FloeClientRevalidatesItsCopyInsteadOfRefetching) {
  Append(*client_, 3);
  auto a = client_->LoadSharedTable(kTable);
  auto b = client_->LoadSharedTable(kTable);
  ASSERT_TRUE(a && b);
  // 304: the very same parsed copy, not a second parse.
  EXPECT_EQ(a->metadata.get(), b->metadata.get());
  auto r1 = client_->LoadCurrentState(kTable);
  auto r2 = client_->LoadCurrentState(kTable);
  ASSERT_TRUE(r1 && r2);
  EXPECT_EQ(r1->metadata.get(), r2->metadata.get());
  // Its own commit's answer is the copy the next load revalidates.
  Append(*client_, 1);
  auto c = client_->LoadSharedTable(kTable);
  auto d = client_->LoadSharedTable(kTable);
  ASSERT_TRUE(c && d);
  EXPECT_EQ(c->metadata->snapshots.size(), 4u);
  EXPECT_EQ(c->metadata.get(), d->metadata.get());
  EXPECT_NE(c->metadata_location, a->metadata_location);
}

}  // namespace
}  // namespace floe
