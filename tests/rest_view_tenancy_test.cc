// The view routes of `floe serve` hold to the table routes' rules: grants per namespace,
// locations confined to the view's namespace, Idempotency-Key replays. alice may write
// namespace a, bob namespace b; every refusal leaves the files and the other tenant's views as
// they were.
#include <gtest/gtest.h>
#include <httplib.h>

#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "catalog/catalog_test_env.h"
#include "catalog/rest/serve_process_for_tests.h"

namespace floe {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing_env::ServeProcess;
using testing_env::TempDir;

const std::string kAlice = "alice-secret-1";
const std::string kBob = "bob-secret-1";

json ViewBody(const std::string& name, const std::string& sql) {
  return json{{"name", name},
              {"schema", {{"type", "struct"}, {"schema-id", 0},
                          {"fields", json::array({{{"id", 1}, {"name", "n"}, {"type", "long"}, {"required", false}}})}}},
              {"view-version", {{"version-id", 1}, {"timestamp-ms", 1}, {"schema-id", 0}, {"summary", json::object()},
                                {"default-namespace", json::array()},
                                {"representations", json::array({{{"type", "sql"}, {"sql", sql}, {"dialect", "spark"}}})}}}};
}

class RestViewTenancy : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(warehouse_);
    std::string error;
    server_ = ServeProcess::Start(FLOE_BINARY,
                                  {"--catalog", "sqlite://" + warehouse_ + "/catalog.db", "serve", "--token",
                                   "alice:" + kAlice + ":write@a", "--token", "bob:" + kBob + ":write@b"},
                                  &error);
    ASSERT_TRUE(server_) << error;
    http_ = std::make_unique<httplib::Client>(server_->url());
    http_->set_read_timeout(20, 0);
    ASSERT_EQ(Post(kAlice, "/v1/namespaces", R"({"namespace":["a"]})")->status, 200);
    ASSERT_EQ(Post(kBob, "/v1/namespaces", R"({"namespace":["b"]})")->status, 200);
    auto created = Post(kBob, "/v1/namespaces/b/views", ViewBody("v", "SELECT 1").dump());
    ASSERT_EQ(created->status, 200) << created->body;
    bob_view_ = json::parse(created->body);
  }

  httplib::Headers Auth(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }
  httplib::Result Post(const std::string& token, const std::string& path, const std::string& body,
                       httplib::Headers extra = {}) {
    httplib::Headers headers = Auth(token);
    headers.insert(extra.begin(), extra.end());
    return http_->Post(path, headers, body, "application/json");
  }
  static std::string Message(const httplib::Result& r) {
    json j = r ? json::parse(r->body, nullptr, false) : json();
    return j.is_object() && j.contains("error") ? j["error"].value("message", "") : "";
  }
  std::map<std::string, std::string> Files() const {
    std::map<std::string, std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(root_.path())) {
      std::string p = e.path().string();
      if (!e.is_regular_file() || p.find("catalog.db") != std::string::npos) continue;
      std::ifstream in(e.path(), std::ios::binary);
      out[p] = std::string(std::istreambuf_iterator<char>(in), {});
    }
    return out;
  }

  TempDir root_{"floe-view-tenancy"};
  std::string warehouse_ = root_.path() + "/wh";
  std::unique_ptr<ServeProcess> server_;
  std::unique_ptr<httplib::Client> http_;
  json bob_view_;
};

TEST_F(RestViewTenancy, GrantsGuardEveryViewRoute) {
  auto before = Files();
  auto load = http_->Get("/v1/namespaces/b/views/v", Auth(kAlice));
  EXPECT_EQ(load->status, 403) << load->body;
  EXPECT_EQ(http_->Get("/v1/namespaces/b/views", Auth(kAlice))->status, 403);
  EXPECT_EQ(Post(kAlice, "/v1/namespaces/b/views", ViewBody("x", "SELECT 2").dump())->status, 403);
  json replace{{"requirements", json::array({{{"type", "assert-view-uuid"}, {"uuid", bob_view_["metadata"]["view-uuid"]}}})},
               {"updates", json::array({{{"action", "set-properties"}, {"updates", {{"owner", "alice"}}}}})}};
  EXPECT_EQ(Post(kAlice, "/v1/namespaces/b/views/v", replace.dump())->status, 403);
  EXPECT_EQ(http_->Delete("/v1/namespaces/b/views/v", Auth(kAlice))->status, 403);
  json rename{{"source", {{"namespace", {"b"}}, {"name", "v"}}}, {"destination", {{"namespace", {"a"}}, {"name", "v"}}}};
  EXPECT_EQ(Post(kAlice, "/v1/views/rename", rename.dump())->status, 403);
  EXPECT_EQ(Files(), before);
  auto still = http_->Get("/v1/namespaces/b/views/v", Auth(kBob));
  ASSERT_EQ(still->status, 200);
  EXPECT_EQ(json::parse(still->body)["metadata-location"], bob_view_["metadata-location"]);
  // The owner may do what the other may not.
  EXPECT_EQ(Post(kBob, "/v1/namespaces/b/views/v", replace.dump())->status, 200);
}

TEST_F(RestViewTenancy, LocationsStayInsideTheNamespace) {
  json outside = ViewBody("w", "SELECT 3");
  outside["location"] = root_.path() + "/outside/w";
  auto created = Post(kAlice, "/v1/namespaces/a/views", outside.dump());
  EXPECT_EQ(created->status, 400) << created->body;
  EXPECT_NE(Message(created).find("outside"), std::string::npos) << Message(created);
  json into_b = ViewBody("w", "SELECT 3");
  into_b["location"] = warehouse_ + "/b/w";
  EXPECT_EQ(Post(kAlice, "/v1/namespaces/a/views", into_b.dump())->status, 400);
  ASSERT_EQ(Post(kAlice, "/v1/namespaces/a/views", ViewBody("w", "SELECT 3").dump())->status, 200);
  auto mine = json::parse(http_->Get("/v1/namespaces/a/views/w", Auth(kAlice))->body);
  auto after_create = Files();
  json move{{"requirements", json::array({{{"type", "assert-view-uuid"}, {"uuid", mine["metadata"]["view-uuid"]}}})},
            {"updates", json::array({{{"action", "set-location"}, {"location", root_.path() + "/outside/w"}}})}};
  auto moved = Post(kAlice, "/v1/namespaces/a/views/w", move.dump());
  EXPECT_EQ(moved->status, 400) << moved->body;
  json steal{{"name", "stolen"}, {"metadata-location", bob_view_["metadata-location"]}};
  EXPECT_EQ(Post(kAlice, "/v1/namespaces/a/register-view", steal.dump())->status, 400);
  EXPECT_EQ(Files(), after_create);
  EXPECT_FALSE(fs::exists(root_.path() + "/outside"));
}

TEST_F(RestViewTenancy, IdempotencyKeyReplaysACreate) {
  const httplib::Headers key{{"Idempotency-Key", "018f2b7c-6f1e-7a3b-9c1d-2e3f4a5b6c7d"}};
  auto first = Post(kAlice, "/v1/namespaces/a/views", ViewBody("once", "SELECT 4").dump(), key);
  ASSERT_EQ(first->status, 200) << first->body;
  auto again = Post(kAlice, "/v1/namespaces/a/views", ViewBody("once", "SELECT 4").dump(), key);
  ASSERT_EQ(again->status, 200) << again->body;
  EXPECT_EQ(again->get_header_value("Idempotent-Replayed"), "true");
  EXPECT_EQ(json::parse(again->body)["metadata-location"], json::parse(first->body)["metadata-location"]);
  auto without_key = Post(kAlice, "/v1/namespaces/a/views", ViewBody("once", "SELECT 4").dump());
  EXPECT_EQ(without_key->status, 409);
  EXPECT_EQ(Message(without_key), "View already exists: a.once");
}

}  // namespace
}  // namespace floe
