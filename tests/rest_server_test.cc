// `floe serve` as a client sees it: the spec's routes and errors, iceberg-js, idempotency keys,
// bad input, tokens and grants. Each test starts its own server process on a free port.
#include <gtest/gtest.h>
#include <httplib.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "catalog/catalog_test_env.h"
#include "catalog/rest/serve_process_for_tests.h"

namespace floe {
namespace {

using nlohmann::json;
using testing_env::ServeProcess;
using testing_env::TempDir;

const std::string kSchema =
    R"({"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","type":"long","required":true}]})";

class RestServerTest : public ::testing::Test {
 protected:
  void StartServer(std::vector<std::string> serve_args = {}) {
    std::vector<std::string> args = {"--catalog", "sqlite://" + dir_.path() + "/catalog.db", "serve"};
    args.insert(args.end(), serve_args.begin(), serve_args.end());
    std::string error;
    server_ = ServeProcess::Start(FLOE_BINARY, args, &error);
    ASSERT_TRUE(server_) << error;
    http_ = std::make_unique<httplib::Client>(server_->url());
    http_->set_read_timeout(30, 0);
  }
  void SetUp() override { StartServer(); }

  httplib::Headers Headers(const std::string& token = "", const std::string& key = "") {
    httplib::Headers h;
    if (!token.empty()) h.emplace("Authorization", "Bearer " + token);
    if (!key.empty()) h.emplace("Idempotency-Key", key);
    return h;
  }
  httplib::Result Post(const std::string& path, const std::string& body, const httplib::Headers& headers = {}) {
    return http_->Post(path, headers, body, "application/json");
  }
  static json Body(const httplib::Result& r) { return json::parse(r->body, nullptr, false); }
  static std::string ErrorType(const httplib::Result& r) {
    json j = Body(r);
    return j.is_object() && j.contains("error") ? j["error"].value("type", "") : "";
  }

  void CreateNamespace(const std::string& ns) {
    auto r = Post("/v1/namespaces", json{{"namespace", {ns}}}.dump());
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
  }
  json CreateTable(const std::string& ns, const std::string& name) {
    auto r = Post("/v1/namespaces/" + ns + "/tables", R"({"name":")" + name + R"(","schema":)" + kSchema + "}");
    EXPECT_TRUE(r);
    EXPECT_EQ(r->status, 200) << r->body;
    return Body(r);
  }

  std::set<std::string> Files() {
    std::set<std::string> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir_.path())) {
      std::string p = e.path().string();
      if (e.is_regular_file() && p.find("catalog.db") == std::string::npos) out.insert(p);
    }
    return out;
  }

  TempDir dir_{"floe-rest"};
  std::unique_ptr<ServeProcess> server_;
  std::unique_ptr<httplib::Client> http_;
};

TEST_F(RestServerTest, ConfigAdvertisesIdempotencyEndpointsAndWarehouse) {
  auto r = http_->Get("/v1/config");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200);
  json j = Body(r);
  EXPECT_EQ(j["idempotency-key-lifetime"], "PT30M");
  EXPECT_EQ(j["overrides"]["warehouse"], dir_.path());
  EXPECT_EQ(j["overrides"]["prefix"], "default");
  auto endpoints = j["endpoints"].get<std::vector<std::string>>();
  EXPECT_NE(std::find(endpoints.begin(), endpoints.end(), "POST /v1/{prefix}/transactions/commit"), endpoints.end());
  // The same routes answer with and without the prefix; another prefix is unknown.
  CreateNamespace("db");
  EXPECT_EQ(http_->Get("/v1/default/namespaces/db")->status, 200);
  EXPECT_EQ(http_->Get("/v1/namespaces/db")->status, 200);
  // (400, as Iceberg's own server answers a request no route takes: the spec declares it.)
  auto other = http_->Get("/v1/other/namespaces/db");
  EXPECT_EQ(other->status, 400);
}

TEST_F(RestServerTest, IcebergJsCreatesLoadsCommitsAndGets409OnStaleRef) {
  const std::string js = std::string(FLOE_SOURCE_DIR) + "/tests/js";
  if (std::system("node --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "skipped: node is not installed";
  if (!std::filesystem::exists(js + "/node_modules/iceberg-js")) {
    GTEST_SKIP() << "skipped: tests/js/node_modules/iceberg-js missing (run scripts/install-deps.sh)";
  }
  std::string cmd = "node " + js + "/rest_iceberg_js.mjs " + server_->url() + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, pipe)) output.append(buf, n);
  int status = pclose(pipe);
  ASSERT_EQ(status, 0) << output;
  EXPECT_NE(output.find("iceberg-js: OK"), std::string::npos) << output;
}

TEST_F(RestServerTest, ReplayedIdempotencyKeyReturnsFirstResponseAndChangesNothing) {
  const std::string key = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
  auto first = Post("/v1/namespaces", R"({"namespace":["db"]})", Headers("", key));
  ASSERT_TRUE(first);
  ASSERT_EQ(first->status, 200) << first->body;
  auto again = Post("/v1/namespaces", R"({"namespace":["db"]})", Headers("", key));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 200) << again->body;  // not 409: the first answer is replayed
  EXPECT_EQ(again->body, first->body);
  EXPECT_EQ(again->get_header_value("Idempotent-Replayed"), "true");
  // The key in upper case is the same key (RFC 9562 compares UUIDs case-insensitively).
  std::string upper_key = key;
  for (char& c : upper_key) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  auto upper = Post("/v1/namespaces", R"({"namespace":["db"]})", Headers("", upper_key));
  ASSERT_TRUE(upper);
  EXPECT_EQ(upper->status, 200) << upper->body;
  EXPECT_EQ(upper->get_header_value("Idempotent-Replayed"), "true");

  json table = CreateTable("db", "t");
  const std::string uuid = table["metadata"]["table-uuid"];
  const std::string commit_key = "018f22e2-79b0-7cc3-98c4-dc0c0c07398f";
  const std::string commit =
      R"({"requirements":[{"type":"assert-table-uuid","uuid":")" + uuid +
      R"("}],"updates":[{"action":"set-properties","updates":{"n":"1"}}]})";
  auto c1 = Post("/v1/namespaces/db/tables/t", commit, Headers("", commit_key));
  ASSERT_EQ(c1->status, 200) << c1->body;
  const std::string location1 = Body(c1)["metadata-location"];
  // Someone else commits; then the first commit is retried with its key.
  auto c2 = Post("/v1/namespaces/db/tables/t", R"({"requirements":[],"updates":[{"action":"set-properties","updates":{"n":"2"}}]})");
  ASSERT_EQ(c2->status, 200) << c2->body;
  const std::string location2 = Body(c2)["metadata-location"];
  auto files = Files();
  auto replay = Post("/v1/namespaces/db/tables/t", commit, Headers("", commit_key));
  ASSERT_EQ(replay->status, 200) << replay->body;
  EXPECT_EQ(Body(replay)["metadata-location"], location1);
  EXPECT_EQ(Files(), files);  // no new metadata document
  auto loaded = http_->Get("/v1/namespaces/db/tables/t");
  EXPECT_EQ(Body(loaded)["metadata-location"], location2);
  EXPECT_EQ(Body(loaded)["metadata"]["properties"]["n"], "2");

  // A terminal 4xx is final too: a replayed failed create stays the same failure.
  const std::string dup_key = "019f22e2-79b0-7cc3-98c4-dc0c0c07398f";
  auto dup = Post("/v1/namespaces", R"({"namespace":["db"]})", Headers("", dup_key));
  EXPECT_EQ(dup->status, 409);
  ASSERT_EQ(http_->Delete("/v1/namespaces/db/tables/t")->status, 204);
  ASSERT_EQ(http_->Delete("/v1/namespaces/db")->status, 204);
  auto dup_again = Post("/v1/namespaces", R"({"namespace":["db"]})", Headers("", dup_key));
  EXPECT_EQ(dup_again->status, 409);
  EXPECT_EQ(http_->Get("/v1/namespaces/db")->status, 404);  // the replay created nothing

  // The same key for another request is refused; a malformed key too.
  auto reuse = Post("/v1/namespaces", R"({"namespace":["other"]})", Headers("", key));
  EXPECT_EQ(reuse->status, 422) << reuse->body;
  EXPECT_EQ(http_->Get("/v1/namespaces/other")->status, 404);
  auto bad_key = Post("/v1/namespaces", R"({"namespace":["other"]})", Headers("", "not-a-uuid"));
  EXPECT_EQ(bad_key->status, 400);
}

// A commit's key keeps a reference to the document its answer was; a replay after many later
// commits, on this server or another one on the same database (both read the document from its
// file once it left the cache), answers what the first answer said. A table that deletes old documents after
// commits keeps its answers whole, so they replay after the document is gone.
TEST_F(RestServerTest, ACommitReplayedAfterManyLaterCommitsAnswersItsFirstAnswer) {
  CreateNamespace("db");
  const std::string uuid = CreateTable("db", "t")["metadata"]["table-uuid"];
  const auto set_n = [](int n) {
    return R"({"requirements":[],"updates":[{"action":"set-properties","updates":{"n":")" + std::to_string(n) +
           R"("}}]})";
  };
  const std::string key = "038f22e2-79b0-7cc3-98c4-dc0c0c07398f";
  auto first = Post("/v1/namespaces/db/tables/t", set_n(0), Headers("", key));
  ASSERT_EQ(first->status, 200) << first->body;
  for (int i = 1; i <= 25; ++i) ASSERT_EQ(Post("/v1/namespaces/db/tables/t", set_n(i))->status, 200);
  auto files = Files();
  auto replay = Post("/v1/namespaces/db/tables/t", set_n(0), Headers("", key));
  ASSERT_EQ(replay->status, 200) << replay->body;
  EXPECT_EQ(replay->get_header_value("Idempotent-Replayed"), "true");
  EXPECT_EQ(Body(replay), Body(first));  // the same content (key order may differ once evicted)
  EXPECT_EQ(replay->get_header_value("ETag"), first->get_header_value("ETag"));
  EXPECT_EQ(Files(), files);

  std::string error;
  auto second = ServeProcess::Start(
      FLOE_BINARY, {"--catalog", "sqlite://" + dir_.path() + "/catalog.db", "serve"}, &error);
  ASSERT_TRUE(second) << error;
  httplib::Client other(second->url());
  auto elsewhere = other.Post("/v1/namespaces/db/tables/t", Headers("", key), set_n(0), "application/json");
  ASSERT_TRUE(elsewhere);
  ASSERT_EQ(elsewhere->status, 200) << elsewhere->body;
  EXPECT_EQ(Body(elsewhere), Body(first));
  EXPECT_EQ(Body(elsewhere)["metadata"]["properties"]["n"], "0");
  EXPECT_EQ(Body(http_->Get("/v1/namespaces/db/tables/t"))["metadata"]["properties"]["n"], "25");

  // Old documents deleted after commits: the answer was kept whole and still replays.
  auto deleting = Post("/v1/namespaces/db/tables/t",
                       R"({"requirements":[],"updates":[{"action":"set-properties","updates":{)"
                       R"("write.metadata.delete-after-commit.enabled":"true",)"
                       R"("write.metadata.previous-versions-max":"1"}}]})");
  ASSERT_EQ(deleting->status, 200) << deleting->body;
  const std::string kept_key = "048f22e2-79b0-7cc3-98c4-dc0c0c07398f";
  auto kept = Post("/v1/namespaces/db/tables/t", set_n(100), Headers("", kept_key));
  ASSERT_EQ(kept->status, 200) << kept->body;
  const std::string kept_location = Body(kept)["metadata-location"];
  for (int i = 101; i <= 104; ++i) ASSERT_EQ(Post("/v1/namespaces/db/tables/t", set_n(i))->status, 200);
  const std::string kept_path =
      kept_location.rfind("file://", 0) == 0 ? kept_location.substr(7) : kept_location;
  EXPECT_FALSE(std::filesystem::exists(kept_path));  // deleted by the later commits
  auto kept_again = Post("/v1/namespaces/db/tables/t", set_n(100), Headers("", kept_key));
  ASSERT_EQ(kept_again->status, 200) << kept_again->body;
  EXPECT_EQ(kept_again->body, kept->body);
}

TEST_F(RestServerTest, IdempotencyKeysLiveInTheCatalogDatabase) {
  const std::string key = "027f22e2-79b0-7cc3-98c4-dc0c0c07398f";
  ASSERT_EQ(Post("/v1/namespaces", R"({"namespace":["db"]})", Headers("", key))->status, 200);
  // A second server on the same database replays the first server's answer.
  std::string error;
  auto second = ServeProcess::Start(
      FLOE_BINARY, {"--catalog", "sqlite://" + dir_.path() + "/catalog.db", "serve"}, &error);
  ASSERT_TRUE(second) << error;
  httplib::Client other(second->url());
  auto replay = other.Post("/v1/namespaces", Headers("", key), R"({"namespace":["db"]})", "application/json");
  ASSERT_TRUE(replay);
  EXPECT_EQ(replay->status, 200) << replay->body;
  EXPECT_EQ(replay->get_header_value("Idempotent-Replayed"), "true");
}

TEST_F(RestServerTest, MalformedBodiesGetClear400AndChangeNothing) {
  CreateNamespace("db");
  json table = CreateTable("db", "t");
  auto files = Files();
  struct Case {
    std::string path, body;
  };
  const std::vector<Case> cases = {
      {"/v1/namespaces", "{not json"},
      {"/v1/namespaces", "[1,2]"},
      {"/v1/namespaces", R"({"namespace":"db2"})"},
      {"/v1/namespaces", R"({"namespace":["db2"],"properties":{"a":1}})"},
      {"/v1/namespaces/db/tables", R"({"name":"u"})"},
      {"/v1/namespaces/db/tables", R"({"name":5,"schema":)" + kSchema + "}"},
      {"/v1/namespaces/db/tables", R"({"name":"u","schema":{"type":"struct","fields":"x"}})"},
      {"/v1/namespaces/db/tables/t", R"({"requirements":{},"updates":[]})"},
      {"/v1/namespaces/db/tables/t", R"({"requirements":[],"updates":[{"action":"no-such-update"}]})"},
      {"/v1/namespaces/db/tables/t", R"({"requirements":[{"type":"assert-nothing"}],"updates":[]})"},
      {"/v1/namespaces/db/tables/t", R"({"requirements":[],"updates":[{"action":"set-properties","updates":{"a":[]}}]})"},
      {"/v1/namespaces/db/tables/t",
       R"({"identifier":{"namespace":["db"],"name":"other"},"requirements":[],"updates":[]})"},
      {"/v1/tables/rename", R"({"source":{"namespace":["db"],"name":"t"}})"},
      {"/v1/transactions/commit", R"({"table-changes":[{"requirements":[],"updates":[]}]})"},
      {"/v1/namespaces/db/properties", R"({"updates":{"a":"1"},"removals":"a"})"},
      {"/v1/namespaces/db/register", R"({"name":"r","metadata-location":")" + dir_.path() + R"(/nothing.json"})"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.path + " " + c.body);
    auto r = Post(c.path, c.body);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << r->body;
    EXPECT_EQ(ErrorType(r), "BadRequestException") << r->body;
    EXPECT_EQ(Body(r)["error"]["code"], 400);
    EXPECT_FALSE(Body(r)["error"]["message"].get<std::string>().empty());
  }
  EXPECT_EQ(Files(), files);
  auto listed = Body(http_->Get("/v1/namespaces"));
  EXPECT_EQ(listed["namespaces"], json::array({json::array({"db"})}));
  auto loaded = Body(http_->Get("/v1/namespaces/db/tables/t"));
  EXPECT_EQ(loaded["metadata-location"], table["metadata-location"]);
}

TEST_F(RestServerTest, PathTricksAndControlCharactersAreRefused) {
  CreateNamespace("db");
  CreateTable("db", "t");
  auto files = Files();
  const std::vector<std::string> bad_paths = {
      "/v1/namespaces/..",        "/v1/namespaces/%2E%2E",          "/v1/namespaces/a%2Fb",
      "/v1/namespaces/db%2F..%2Fx", "/v1/namespaces/db/tables/..",   "/v1/namespaces/db/tables/a%2F..%2Fb",
      "/v1/namespaces/a%01b",     "/v1/namespaces/a%0Ab/tables/t",  "/v1/namespaces/db%1F..",
      "/v1/namespaces/a%5Cb",     "/v1/namespaces/db/tables/%",     "/v1/namespaces/db.x",
  };
  for (const auto& path : bad_paths) {
    SCOPED_TRACE(path);
    // Every trick, a decoded line break included, is refused by name validation with 400, and
    // nothing is touched.
    const int expected = 400;
    auto get = http_->Get(path);
    ASSERT_TRUE(get);
    EXPECT_EQ(get->status, expected) << get->body;
    auto del = http_->Delete(path);
    EXPECT_EQ(del->status, expected) << del->body;
  }
  for (const std::string& name : std::vector<std::string>{"..", "a/b", "a\\b", std::string("a\x01", 2), "x\ny"}) {
    SCOPED_TRACE(name);
    auto ns = Post("/v1/namespaces", json{{"namespace", {name}}}.dump());
    EXPECT_EQ(ns->status, 400) << ns->body;
    auto t = Post("/v1/namespaces/db/tables", json{{"name", name}, {"schema", json::parse(kSchema)}}.dump());
    EXPECT_EQ(t->status, 400) << t->body;
  }
  // Under /v1 a request no route takes is a 400, as Iceberg's own server answers it (the spec
  // declares 400 on every route); outside the spec's paths, 404.
  EXPECT_EQ(http_->Get("/v1/nothing/here/at/all")->status, 400);
  EXPECT_EQ(http_->Get("/v2/config")->status, 404);
  EXPECT_EQ(http_->Get("/v1//namespaces")->status, 400);
  EXPECT_EQ(Files(), files);
  EXPECT_EQ(Body(http_->Get("/v1/namespaces"))["namespaces"].size(), 1u);
}

TEST_F(RestServerTest, HugeBodyGets413) {
  std::string huge(11 * 1024 * 1024, ' ');
  huge[0] = '{';
  huge.back() = '}';
  auto r = Post("/v1/namespaces", huge);
  ASSERT_TRUE(r) << httplib::to_string(r.error());
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(Body(http_->Get("/v1/namespaces"))["namespaces"].size(), 0u);
  // The server is still serving.
  EXPECT_EQ(http_->Get("/v1/config")->status, 200);
}

// Clients (and Iceberg's compatibility kit) match on these messages, worded as Iceberg's own
// catalogs word them.
TEST_F(RestServerTest, NotFoundAndAlreadyExistsMessagesAreIcebergs) {
  auto message = [](const httplib::Result& r) { return Body(r)["error"].value("message", ""); };
  EXPECT_EQ(message(http_->Get("/v1/namespaces/nope")), "Namespace does not exist: nope");
  EXPECT_EQ(message(http_->Get("/v1/namespaces?parent=nope")), "Namespace does not exist: nope");
  CreateNamespace("db");
  EXPECT_EQ(message(Post("/v1/namespaces", R"({"namespace":["db"]})")), "Namespace already exists: db");
  EXPECT_EQ(message(http_->Get("/v1/namespaces/db/tables/none")), "Table does not exist: db.none");
  EXPECT_EQ(message(http_->Get("/v1/namespaces/nope/tables/none")), "Table does not exist: nope.none");
  CreateTable("db", "t");
  EXPECT_EQ(message(Post("/v1/namespaces/db/tables", R"({"name":"t","schema":)" + kSchema + "}")),
            "Table already exists: db.t");
  auto no_ns = Post("/v1/namespaces/nope/tables", R"({"name":"t","schema":)" + kSchema + "}");
  EXPECT_EQ(ErrorType(no_ns), "NoSuchNamespaceException");
  EXPECT_EQ(message(no_ns), "Namespace does not exist: nope");
  auto rename = Post("/v1/tables/rename", R"({"source":{"namespace":["db"],"name":"none"},"destination":{"namespace":["db"],"name":"x"}})");
  EXPECT_EQ(rename->status, 404);
  EXPECT_EQ(message(rename), "Table does not exist: db.none");
}

// A table whose current metadata document was deleted behind the catalog's back is broken, and
// says so on every load, also when the server still has the document parsed in its cache.
TEST_F(RestServerTest, MissingMetadataDocumentIsNotFoundNamingTheFile) {
  CreateNamespace("db");
  const std::string location = CreateTable("db", "t")["metadata-location"];
  ASSERT_EQ(http_->Get("/v1/namespaces/db/tables/t")->status, 200);  // parsed and cached
  std::filesystem::rename(location, location + ".moved");
  auto gone = http_->Get("/v1/namespaces/db/tables/t");
  EXPECT_EQ(gone->status, 404);
  EXPECT_EQ(ErrorType(gone), "NotFoundException");
  EXPECT_NE(Body(gone)["error"].value("message", "").find(location), std::string::npos) << gone->body;
  std::filesystem::rename(location + ".moved", location);
  EXPECT_EQ(http_->Get("/v1/namespaces/db/tables/t")->status, 200);
}

TEST_F(RestServerTest, StatusCodesOfTheSpec) {
  EXPECT_EQ(http_->Get("/v1/namespaces/nope")->status, 404);
  EXPECT_EQ(ErrorType(http_->Get("/v1/namespaces/nope")), "NoSuchNamespaceException");
  CreateNamespace("db");
  EXPECT_EQ(Post("/v1/namespaces", R"({"namespace":["db"]})")->status, 409);
  EXPECT_EQ(ErrorType(http_->Get("/v1/namespaces/db/tables/none")), "NoSuchTableException");
  EXPECT_EQ(http_->Head("/v1/namespaces/db/tables/none")->status, 404);
  EXPECT_EQ(http_->Head("/v1/namespaces/db")->status, 204);
  json t = CreateTable("db", "t");
  EXPECT_EQ(http_->Head("/v1/namespaces/db/tables/t")->status, 204);
  auto exists = Post("/v1/namespaces/db/tables", R"({"name":"t","schema":)" + kSchema + "}");
  EXPECT_EQ(exists->status, 409);
  EXPECT_EQ(ErrorType(exists), "AlreadyExistsException");
  auto not_empty = http_->Delete("/v1/namespaces/db");
  EXPECT_EQ(not_empty->status, 409);
  EXPECT_EQ(ErrorType(not_empty), "NamespaceNotEmptyException");
  // A failed requirement is a 409 naming it.
  auto stale = Post("/v1/namespaces/db/tables/t",
                    R"({"requirements":[{"type":"assert-current-schema-id","current-schema-id":7}],"updates":[]})");
  EXPECT_EQ(stale->status, 409);
  EXPECT_EQ(ErrorType(stale), "CommitFailedException");
  EXPECT_NE(Body(stale)["error"]["message"].get<std::string>().find("schema"), std::string::npos) << stale->body;
  // Stage-create returns metadata without creating; assert-create then creates through the commit route.
  auto staged = Post("/v1/namespaces/db/tables", R"({"name":"s","stage-create":true,"schema":)" + kSchema + "}");
  ASSERT_EQ(staged->status, 200) << staged->body;
  EXPECT_EQ(http_->Head("/v1/namespaces/db/tables/s")->status, 404);
  // Metrics are accepted; rename and transactions.
  EXPECT_EQ(Post("/v1/namespaces/db/tables/t/metrics", R"({"report-type":"scan-report"})")->status, 204);
  EXPECT_EQ(Post("/v1/tables/rename",
                 R"({"source":{"namespace":["db"],"name":"t"},"destination":{"namespace":["db"],"name":"t2"}})")
                ->status,
            204);
  auto tx = Post("/v1/transactions/commit",
                 R"({"table-changes":[{"identifier":{"namespace":["db"],"name":"t2"},"requirements":[],)"
                 R"("updates":[{"action":"set-properties","updates":{"tx":"1"}}]}]})");
  EXPECT_EQ(tx->status, 204) << tx->body;
  EXPECT_EQ(Body(http_->Get("/v1/namespaces/db/tables/t2"))["metadata"]["properties"]["tx"], "1");
  auto stale_tx = Post("/v1/transactions/commit",
                       R"({"table-changes":[{"identifier":{"namespace":["db"],"name":"t2"},"requirements":[)"
                       R"({"type":"assert-table-uuid","uuid":"00000000-0000-0000-0000-000000000000"}],)"
                       R"("updates":[{"action":"set-properties","updates":{"tx":"2"}}]}]})");
  EXPECT_EQ(stale_tx->status, 409);
  EXPECT_EQ(Body(http_->Get("/v1/namespaces/db/tables/t2"))["metadata"]["properties"]["tx"], "1");
}

// Issue 40, item 7: answers the OpenAPI spec declares. A path floe does not serve (remote
// signing) or a catalog prefix not this server's is a 400 with the ErrorModel, as Iceberg's own
// server answers (the spec declares no 404 on /sign, nor on create-namespace). A method the
// spec does not declare on a path is a 405 naming the methods that are (Allow).
TEST_F(RestServerTest, UnservedRoutesAre400AndUndeclaredMethods405) {
  CreateNamespace("db");
  CreateTable("db", "t");
  std::vector<httplib::Result> replies;
  replies.push_back(Post("/v1/namespaces/db/tables/t/sign", R"({"region":"x","uri":"s3://b/k","method":"GET","headers":{}})"));
  replies.push_back(Post("/v1/elsewhere/namespaces", R"({"namespace":["x"]})"));
  replies.push_back(Post("/v1/elsewhere/namespaces/db/tables/t/sign", "{}"));
  for (auto& r : replies) {
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << r->body;
    EXPECT_EQ(ErrorType(r), "BadRequestException") << r->body;
  }
  const std::vector<std::pair<httplib::Result, std::string>> wrong_method = [&] {
    std::vector<std::pair<httplib::Result, std::string>> out;
    out.emplace_back(http_->Put("/v1/namespaces/db", "{}", "application/json"), "GET, HEAD, DELETE");
    out.emplace_back(http_->Delete("/v1/config"), "GET, HEAD");
    out.emplace_back(http_->Get("/v1/namespaces/db/register"), "POST");
    return out;
  }();
  for (const auto& [r, allow] : wrong_method) {
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 405) << r->body;
    EXPECT_EQ(r->get_header_value("Allow"), allow);
  }
}

TEST_F(RestServerTest, StopsCleanlyOnSigterm) { EXPECT_EQ(server_->Stop(), 0); }

TEST_F(RestServerTest, RefusesNonLoopbackListenWithoutTokens) {
  int status = ServeProcess::RunToExit(
      FLOE_BINARY, {"--catalog", "sqlite://" + dir_.path() + "/other.db", "serve", "--listen", "0.0.0.0:0"});
  EXPECT_EQ(status, 2);
}

// /v1/config advertises the lifetime: keys that would live 0 s (or less) are refused at start.
TEST_F(RestServerTest, RefusesAnIdempotencyLifetimeBelowASecond) {
  for (std::string lifetime : {"0", "-5"}) {
    std::string error;
    auto server = ServeProcess::Start(
        FLOE_BINARY, {"--catalog", "sqlite://" + dir_.path() + "/other.db", "serve", "--idempotency-lifetime", lifetime},
        &error);
    EXPECT_FALSE(server) << lifetime << " was accepted";
    EXPECT_NE(error.find("(exit status 2)"), std::string::npos) << error;
  }
}

class RestAuthTest : public RestServerTest {
 protected:
  void SetUp() override {
    StartServer({"--token", "admin:admin-secret-1:write@*", "--token", "reader:reader-secret-1:read@*",
                 "--token", "sales:sales-secret-1:write@sales,read@hr"});
  }
  httplib::Result GetAs(const std::string& path, const std::string& token) { return http_->Get(path, Headers(token)); }
  httplib::Result PostAs(const std::string& path, const std::string& body, const std::string& token) {
    return Post(path, body, Headers(token));
  }
};

TEST_F(RestAuthTest, MissingOrForgedTokensGet401AndChangeNothing) {
  auto none = http_->Get("/v1/namespaces");
  EXPECT_EQ(none->status, 401);
  EXPECT_EQ(ErrorType(none), "NotAuthorizedException");
  EXPECT_EQ(GetAs("/v1/config", "wrong-secret")->status, 401);
  EXPECT_EQ(PostAs("/v1/namespaces", R"({"namespace":["x"]})", "")->status, 401);
  EXPECT_EQ(PostAs("/v1/namespaces", R"({"namespace":["x"]})", "admin-secret-2")->status, 401);
  // A forged issued token: the right shape, a wrong signature.
  const std::string forged = "floe1.61646d696e.99999999999.00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
  EXPECT_EQ(PostAs("/v1/namespaces", R"({"namespace":["x"]})", forged)->status, 401);
  EXPECT_EQ(Body(GetAs("/v1/namespaces", "admin-secret-1"))["namespaces"].size(), 0u);
}

TEST_F(RestAuthTest, GrantsLimitReadsAndWritesPerNamespace) {
  ASSERT_EQ(PostAs("/v1/namespaces", R"({"namespace":["sales"]})", "admin-secret-1")->status, 200);
  ASSERT_EQ(PostAs("/v1/namespaces", R"({"namespace":["hr"]})", "admin-secret-1")->status, 200);
  ASSERT_EQ(PostAs("/v1/namespaces", R"({"namespace":["ops"]})", "admin-secret-1")->status, 200);
  // reader reads everything, writes nothing.
  EXPECT_EQ(GetAs("/v1/namespaces/ops", "reader-secret-1")->status, 200);
  auto denied = PostAs("/v1/namespaces/ops/tables", R"({"name":"t","schema":)" + kSchema + "}", "reader-secret-1");
  EXPECT_EQ(denied->status, 403);
  EXPECT_EQ(ErrorType(denied), "ForbiddenException");
  // sales writes sales, reads hr, cannot see ops.
  EXPECT_EQ(PostAs("/v1/namespaces/sales/tables", R"({"name":"t","schema":)" + kSchema + "}", "sales-secret-1")->status,
            200);
  EXPECT_EQ(PostAs("/v1/namespaces/hr/tables", R"({"name":"t","schema":)" + kSchema + "}", "sales-secret-1")->status,
            403);
  EXPECT_EQ(GetAs("/v1/namespaces/hr/tables", "sales-secret-1")->status, 200);
  EXPECT_EQ(GetAs("/v1/namespaces/ops", "sales-secret-1")->status, 403);
  auto listed = Body(GetAs("/v1/namespaces", "sales-secret-1"));
  EXPECT_EQ(listed["namespaces"], json::parse(R"([["hr"],["sales"]])"));
  // A rename out of a writable namespace into a read-only one is refused, and nothing moves.
  auto rename = PostAs("/v1/tables/rename",
                       R"({"source":{"namespace":["sales"],"name":"t"},"destination":{"namespace":["hr"],"name":"t"}})",
                       "sales-secret-1");
  EXPECT_EQ(rename->status, 403);
  EXPECT_EQ(GetAs("/v1/namespaces/sales/tables/t", "admin-secret-1")->status, 200);
  EXPECT_EQ(GetAs("/v1/namespaces/hr/tables/t", "admin-secret-1")->status, 404);
}

TEST_F(RestAuthTest, OAuthClientCredentialsIssueWorkingTokens) {
  auto issued = http_->Post("/v1/oauth/tokens",
                            "grant_type=client_credentials&client_id=sales&client_secret=sales-secret-1&scope=catalog",
                            "application/x-www-form-urlencoded");
  ASSERT_TRUE(issued);
  ASSERT_EQ(issued->status, 200) << issued->body;
  json j = Body(issued);
  EXPECT_EQ(j["token_type"], "bearer");
  EXPECT_EQ(j["expires_in"], 3600);
  const std::string token = j["access_token"];
  EXPECT_EQ(PostAs("/v1/namespaces", R"({"namespace":["sales"]})", token)->status, 200);
  EXPECT_EQ(PostAs("/v1/namespaces", R"({"namespace":["ops"]})", token)->status, 403);
  // A token whose signature was tampered with is refused.
  std::string tampered = token;
  tampered.back() = tampered.back() == '0' ? '1' : '0';
  EXPECT_EQ(GetAs("/v1/namespaces", tampered)->status, 401);
  auto wrong = http_->Post("/v1/oauth/tokens", "grant_type=client_credentials&client_id=sales&client_secret=nope",
                           "application/x-www-form-urlencoded");
  EXPECT_EQ(wrong->status, 401);
  EXPECT_EQ(Body(wrong)["error"], "invalid_client");
  auto grant = http_->Post("/v1/oauth/tokens", "grant_type=password", "application/x-www-form-urlencoded");
  EXPECT_EQ(grant->status, 400);
  EXPECT_EQ(Body(grant)["error"], "unsupported_grant_type");
  // Issue 40, item 7: every error of the token endpoint is in OAuth2's form (the spec's
  // OAuthError), with a status it declares there (400, 401), never the catalog's ErrorModel.
  auto get = http_->Get("/v1/oauth/tokens");
  ASSERT_TRUE(get);
  EXPECT_EQ(get->status, 405);
  EXPECT_EQ(get->get_header_value("Allow"), "POST");
  EXPECT_EQ(Body(get)["error"], "invalid_request") << get->body;
  std::vector<httplib::Result> refusals;
  refusals.push_back(http_->Post("/v1/oauth/tokens", std::string(11 * 1024 * 1024, 'x'), "application/x-www-form-urlencoded"));
  refusals.push_back(http_->Post("/v1/oauth/tokens?x=%FF", "grant_type=client_credentials", "application/x-www-form-urlencoded"));
  for (auto& r : refusals) {
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << r->body;
    json j = Body(r);
    ASSERT_TRUE(j.is_object() && j.contains("error") && j["error"].is_string()) << r->body;
    EXPECT_EQ(j["error"], "invalid_request") << r->body;
    EXPECT_TRUE(j.contains("error_description")) << r->body;
  }
}

TEST_F(RestAuthTest, FloeClientAuthenticatesWithACredential) {
  CatalogOptions options;
  auto refused = OpenCatalog(server_->url(), options);
  ASSERT_FALSE(refused);  // no token: the config request is refused
  auto catalog = OpenCatalog(server_->url() + "?credential=sales:sales-secret-1", options);
  ASSERT_TRUE(catalog) << catalog.error().ToString();
  ASSERT_TRUE((*catalog)->CreateNamespace({"sales"}, {}));
  auto denied = (*catalog)->CreateNamespace({"ops"}, {});
  ASSERT_FALSE(denied);
  EXPECT_NE(denied.error().message.find("may not write"), std::string::npos) << denied.error().message;
}

}  // namespace
}  // namespace floe
