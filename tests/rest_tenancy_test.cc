// `floe serve` shared by two tenants, attacked over loopback: alice may write namespace a, bob
// namespace b. Every attack must leave the other tenant's files and everything outside the
// warehouse as they were (checked on disk, with canary files), and the server alive.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <csignal>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include <nlohmann/json.hpp>

#include "catalog/catalog_test_env.h"
#include "catalog/rest/serve_process_for_tests.h"

namespace floe {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing_env::ServeProcess;
using testing_env::TempDir;

const std::string kSchema =
    R"({"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","type":"long","required":true}]})";
const std::string kAlice = "alice-secret-1";
const std::string kBob = "bob-secret-1";

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
void WriteFile(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// Connects to the server's port on 127.0.0.1; -1 on failure.
int Connect(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// What the server sends on `fd` within `timeout_ms` (until it closes or the time is up).
std::string ReadReply(int fd, int timeout_ms) {
  std::string out;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd pfd{fd, POLLIN, 0};
    if (poll(&pfd, 1, 50) <= 0) continue;
    char buf[4096];
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

class RestTenancyTest : public ::testing::Test {
 protected:
  void SetUp() override { Start({}); }

  void Start(std::vector<std::string> serve_args) {
    server_.reset();
    fs::create_directories(warehouse_);
    std::vector<std::string> args = {"--catalog", "sqlite://" + warehouse_ + "/catalog.db", "serve",
                                     "--token",   "alice:" + kAlice + ":write@a",              "--token",
                                     "bob:" + kBob + ":write@b"};
    args.insert(args.end(), serve_args.begin(), serve_args.end());
    std::string error;
    server_ = ServeProcess::Start(FLOE_BINARY, args, &error);
    ASSERT_TRUE(server_) << error;
    http_ = std::make_unique<httplib::Client>(server_->url());
    http_->set_read_timeout(20, 0);
    port_ = std::stoi(server_->url().substr(server_->url().rfind(':') + 1));
  }

  // b.t with real files (a data file, a manifest, a manifest list), written by floe's own client.
  void MakeTenants() {
    WriteFile(outside_ + "/canary.txt", "SECRET-CANARY-CONTENT");
    WriteFile(outside_ + "/sub/canary2.txt", "SECRET-CANARY-2");
    ASSERT_EQ(PostAs(kAlice, "/v1/namespaces", R"({"namespace":["a"]})")->status, 200);
    ASSERT_EQ(PostAs(kBob, "/v1/namespaces", R"({"namespace":["b"]})")->status, 200);
    ASSERT_EQ(PostAs(kBob, "/v1/namespaces/b/tables", R"({"name":"t","schema":)" + kSchema + "}")->status, 200);
    WriteFile(root_.path() + "/rows.csv", "id\n1\n2\n");
    int appended = ServeProcess::RunToExit(
        FLOE_BINARY, {"--catalog", server_->url() + "?credential=bob:" + kBob, "append", "b.t", root_.path() + "/rows.csv"});
    ASSERT_EQ(appended, 0);
    json b = Body(GetAs(kBob, "/v1/namespaces/b/tables/t"));
    b_metadata_location_ = b["metadata-location"];
    b_manifest_list_ = b["metadata"]["snapshots"][0]["manifest-list"];
    ASSERT_TRUE(fs::exists(b_manifest_list_));
    before_ = Snapshot();
  }

  httplib::Headers Auth(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }
  httplib::Result PostAs(const std::string& token, const std::string& path, const std::string& body) {
    return http_->Post(path, Auth(token), body, "application/json");
  }
  httplib::Result GetAs(const std::string& token, const std::string& path) { return http_->Get(path, Auth(token)); }
  static json Body(const httplib::Result& r) { return r ? json::parse(r->body, nullptr, false) : json(); }
  static std::string Message(const httplib::Result& r) {
    json j = Body(r);
    return j.is_object() && j.contains("error") ? j["error"].value("message", "") : "";
  }

  // Every file outside alice's namespace folder (and the catalog database), with its bytes.
  std::map<std::string, std::string> Snapshot() const {
    std::map<std::string, std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(root_.path())) {
      std::string p = e.path().string();
      if (e.is_symlink() || !e.is_regular_file() || p.find("catalog.db") != std::string::npos) continue;
      if (p.rfind(warehouse_ + "/a/", 0) == 0) continue;
      out[p] = ReadFile(e.path());
    }
    return out;
  }

  // The server answers a normal request, and nothing outside namespace a changed.
  void ExpectAliveAndUntouched() {
    auto config = GetAs(kAlice, "/v1/config");
    ASSERT_TRUE(config) << "the server died";
    EXPECT_EQ(config->status, 200);
    EXPECT_EQ(Snapshot(), before_);
  }

  json CommitBody(const json& updates) { return json{{"requirements", json::array()}, {"updates", updates}}; }

  TempDir root_{"floe-tenancy"};
  std::string warehouse_ = root_.path() + "/wh";
  std::string outside_ = root_.path() + "/outside";
  std::unique_ptr<ServeProcess> server_;
  std::unique_ptr<httplib::Client> http_;
  int port_ = 0;
  std::string b_metadata_location_, b_manifest_list_;
  std::map<std::string, std::string> before_;
};

TEST_F(RestTenancyTest, TableLocationsOutsideTheNamespaceAreRefused) {
  MakeTenants();
  fs::create_directories(warehouse_ + "/a");
  fs::create_directory_symlink(outside_, warehouse_ + "/a/link");
  const std::vector<std::string> locations = {
      outside_,
      "file://" + outside_,
      "file:" + outside_ + "/x",
      "relative/folder",
      warehouse_ + "/b/t",
      warehouse_ + "/b/t-new",
      warehouse_ + "/a/../b/t2",
      warehouse_ + "//b//t3",
      "file://" + warehouse_ + "/a/../../outside",
      warehouse_ + "/a/link/t",  // a symbolic link inside the warehouse that leads outside
      warehouse_ + "/ab",        // shares the string prefix ".../a", not the folder
      warehouse_,
  };
  for (const auto& location : locations) {
    SCOPED_TRACE(location);
    for (bool stage : {false, true}) {
      json body{{"name", "x"}, {"schema", json::parse(kSchema)}, {"location", location}, {"stage-create", stage}};
      auto r = PostAs(kAlice, "/v1/namespaces/a/tables", body.dump());
      ASSERT_TRUE(r);
      EXPECT_EQ(r->status, 400) << r->body;
      EXPECT_NE(Message(r).find("location"), std::string::npos) << r->body;
    }
    ExpectAliveAndUntouched();
  }
  EXPECT_FALSE(fs::exists(outside_ + "/metadata"));
  EXPECT_FALSE(fs::exists(warehouse_ + "/relative"));
  EXPECT_EQ(Body(GetAs(kAlice, "/v1/namespaces/a/tables"))["identifiers"].size(), 0u);
  // Inside its own namespace a table may live where it likes.
  json ok{{"name", "custom"}, {"schema", json::parse(kSchema)}, {"location", warehouse_ + "/a/custom-place"}};
  EXPECT_EQ(PostAs(kAlice, "/v1/namespaces/a/tables", ok.dump())->status, 200);
  // A property that names a write folder is a location too.
  json props{{"name", "p"}, {"schema", json::parse(kSchema)}, {"properties", {{"write.metadata.path", outside_}}}};
  auto r = PostAs(kAlice, "/v1/namespaces/a/tables", props.dump());
  EXPECT_EQ(r->status, 400) << r->body;
  EXPECT_NE(Message(r).find("write.metadata.path"), std::string::npos) << r->body;
  ExpectAliveAndUntouched();
}

TEST_F(RestTenancyTest, NamespaceLocationPropertyIsConfined) {
  MakeTenants();
  for (const std::string& location : {outside_, warehouse_ + "/b", warehouse_ + "/a/../b"}) {
    SCOPED_TRACE(location);
    auto created = PostAs(kAlice, "/v1/namespaces", json{{"namespace", {"a", "sub"}}, {"properties", {{"location", location}}}}.dump());
    EXPECT_EQ(created->status, 400) << created->body;
    auto updated = PostAs(kAlice, "/v1/namespaces/a/properties", json{{"updates", {{"location", location}}}}.dump());
    EXPECT_EQ(updated->status, 400) << updated->body;
    EXPECT_NE(Message(updated).find("location"), std::string::npos) << updated->body;
  }
  EXPECT_EQ(PostAs(kAlice, "/v1/namespaces/a/properties",
                   json{{"updates", {{"location", warehouse_ + "/a/elsewhere"}}}}.dump())
                ->status,
            200);
  ExpectAliveAndUntouched();
}

TEST_F(RestTenancyTest, CommitsCannotPointOutsideTheTable) {
  MakeTenants();
  ASSERT_EQ(PostAs(kAlice, "/v1/namespaces/a/tables", R"({"name":"t","schema":)" + kSchema + "}")->status, 200);
  json before = Body(GetAs(kAlice, "/v1/namespaces/a/tables/t"));
  const std::string a_location = before["metadata"]["location"];
  json snapshot{{"snapshot-id", 77},          {"sequence-number", 1},
                {"timestamp-ms", 1700000000000}, {"summary", {{"operation", "append"}}},
                {"schema-id", 0},             {"manifest-list", b_manifest_list_}};
  struct Case {
    std::string name;
    json updates;
    std::string field;
  };
  std::vector<Case> cases = {
      {"set-location outside", json::array({{{"action", "set-location"}, {"location", outside_}}}), "set-location"},
      {"set-location into b", json::array({{{"action", "set-location"}, {"location", warehouse_ + "/b/t"}}}),
       "set-location"},
      {"write.metadata.path", json::array({{{"action", "set-properties"}, {"updates", {{"write.metadata.path", outside_}}}}}),
       "write.metadata.path"},
      {"write.data.path", json::array({{{"action", "set-properties"}, {"updates", {{"write.data.path", warehouse_ + "/b/t/data"}}}}}),
       "write.data.path"},
      {"write.object-storage.path",
       json::array({{{"action", "set-properties"}, {"updates", {{"write.object-storage.path", "file://" + outside_}}}}}),
       "write.object-storage.path"},
      {"manifest-list of b", json::array({{{"action", "add-snapshot"}, {"snapshot", snapshot}}}), "manifest-list"},
      {"statistics outside",
       json::array({{{"action", "set-statistics"},
                     {"statistics",
                      {{"snapshot-id", 1}, {"statistics-path", outside_ + "/canary.txt"}, {"file-size-in-bytes", 1},
                       {"file-footer-size-in-bytes", 1}, {"blob-metadata", json::array()}}}}}),
       "statistics-path"},
      {"partition statistics outside",
       json::array({{{"action", "set-partition-statistics"},
                     {"partition-statistics",
                      {{"snapshot-id", 1}, {"statistics-path", b_manifest_list_}, {"file-size-in-bytes", 1}}}}}),
       "statistics-path"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto r = PostAs(kAlice, "/v1/namespaces/a/tables/t", CommitBody(c.updates).dump());
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << r->body;
    EXPECT_NE(Message(r).find(c.field), std::string::npos) << r->body;
    json change = CommitBody(c.updates);
    change["identifier"] = {{"namespace", {"a"}}, {"name", "t"}};
    auto tx = PostAs(kAlice, "/v1/transactions/commit", json{{"table-changes", {change}}}.dump());
    EXPECT_EQ(tx->status, 400) << tx->body;
    ExpectAliveAndUntouched();
  }
  json after = Body(GetAs(kAlice, "/v1/namespaces/a/tables/t"));
  EXPECT_EQ(after["metadata-location"], before["metadata-location"]);
  // Paths inside the table are fine, and a purge then deletes only alice's own files.
  auto ok = PostAs(kAlice, "/v1/namespaces/a/tables/t",
                   CommitBody(json::array({{{"action", "set-properties"},
                                            {"updates", {{"write.data.path", a_location + "/elsewhere"}}}}}))
                       .dump());
  EXPECT_EQ(ok->status, 200) << ok->body;
  auto dropped = http_->Delete("/v1/namespaces/a/tables/t?purgeRequested=true", Auth(kAlice));
  EXPECT_EQ(dropped->status, 204) << dropped->body;
  ExpectAliveAndUntouched();
  EXPECT_TRUE(fs::exists(b_manifest_list_));
  EXPECT_EQ(GetAs(kBob, "/v1/namespaces/b/tables/t")->status, 200);
}

TEST_F(RestTenancyTest, AllowLocationAdmitsAnAdministratorsPrefix) {
  Start({"--allow-location", root_.path() + "/trusted"});
  MakeTenants();
  json in{{"name", "x"}, {"schema", json::parse(kSchema)}, {"location", root_.path() + "/trusted/x"}};
  EXPECT_EQ(PostAs(kAlice, "/v1/namespaces/a/tables", in.dump())->status, 200);
  EXPECT_TRUE(fs::exists(root_.path() + "/trusted/x/metadata"));
  json near{{"name", "y"}, {"schema", json::parse(kSchema)}, {"location", root_.path() + "/trusted-not/y"}};
  EXPECT_EQ(PostAs(kAlice, "/v1/namespaces/a/tables", near.dump())->status, 400);
  json up{{"name", "z"}, {"schema", json::parse(kSchema)}, {"location", root_.path() + "/trusted/../outside"}};
  EXPECT_EQ(PostAs(kAlice, "/v1/namespaces/a/tables", up.dump())->status, 400);
  before_.erase(before_.begin(), before_.end());
  for (auto& [k, v] : Snapshot()) {
    if (k.find("/trusted/") == std::string::npos) before_[k] = v;
  }
  EXPECT_FALSE(fs::exists(root_.path() + "/trusted-not"));
  EXPECT_FALSE(fs::exists(outside_ + "/metadata"));
}

TEST_F(RestTenancyTest, RegisterCannotTakeAnotherTenantsOrAnyOtherTablesDocument) {
  MakeTenants();
  auto stolen = PostAs(kAlice, "/v1/namespaces/a/register",
                       json{{"name", "stolen"}, {"metadata-location", b_metadata_location_}}.dump());
  EXPECT_EQ(stolen->status, 400) << stolen->body;
  EXPECT_NE(Message(stolen).find("metadata-location"), std::string::npos) << stolen->body;
  auto secret = PostAs(kAlice, "/v1/namespaces/a/register",
                       json{{"name", "s"}, {"metadata-location", outside_ + "/canary.txt"}}.dump());
  EXPECT_EQ(secret->status, 400);
  EXPECT_EQ(secret->body.find("SECRET"), std::string::npos) << secret->body;
  // A file inside alice's namespace that is not a metadata document: refused without quoting it.
  WriteFile(warehouse_ + "/a/junk.metadata.json", "SECRET-JUNK {");
  auto junk = PostAs(kAlice, "/v1/namespaces/a/register",
                     json{{"name", "j"}, {"metadata-location", warehouse_ + "/a/junk.metadata.json"}}.dump());
  EXPECT_EQ(junk->status, 400);
  EXPECT_EQ(junk->body.find("SECRET"), std::string::npos) << junk->body;
  // Even inside namespace a, another table's document (current or earlier) is not for taking.
  ASSERT_EQ(PostAs(kAlice, "/v1/namespaces/a/tables", R"({"name":"t1","schema":)" + kSchema + "}")->status, 200);
  std::string t1_first = Body(GetAs(kAlice, "/v1/namespaces/a/tables/t1"))["metadata-location"];
  ASSERT_EQ(PostAs(kAlice, "/v1/namespaces/a/tables/t1",
                   CommitBody(json::array({{{"action", "set-properties"}, {"updates", {{"k", "v"}}}}})).dump())
                ->status,
            200);
  auto twin = PostAs(kAlice, "/v1/namespaces/a/register", json{{"name", "t2"}, {"metadata-location", t1_first}}.dump());
  EXPECT_EQ(twin->status, 400) << twin->body;
  EXPECT_NE(Message(twin).find("a.t1"), std::string::npos) << twin->body;
  // Once t1 is dropped (its files kept), its document may be registered again.
  std::string t1_now = Body(GetAs(kAlice, "/v1/namespaces/a/tables/t1"))["metadata-location"];
  ASSERT_EQ(http_->Delete("/v1/namespaces/a/tables/t1", Auth(kAlice))->status, 204);
  auto again = PostAs(kAlice, "/v1/namespaces/a/register", json{{"name", "t2"}, {"metadata-location", t1_now}}.dump());
  EXPECT_EQ(again->status, 200) << again->body;
  ExpectAliveAndUntouched();
  EXPECT_EQ(GetAs(kBob, "/v1/namespaces/b/tables/t")->status, 200);
}

TEST_F(RestTenancyTest, DeepNestingIsRefusedBeforeItCanCrashTheServer) {
  MakeTenants();
  const std::string deep(100000, '[');
  // bob has no rights on a: refused before his body is even parsed.
  auto bobs = PostAs(kBob, "/v1/namespaces/a/tables", R"({"name":"x","schema":)" + deep);
  ASSERT_TRUE(bobs) << "the server died";
  EXPECT_EQ(bobs->status, 403) << bobs->body;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/v1/namespaces", R"({"namespace":["a","n"],"properties":{"k":)" + deep},
      {"/v1/namespaces/a/tables", R"({"name":"x","schema":)" + deep},
      {"/v1/namespaces/b/tables/t", R"({"requirements":[],"updates":)" + deep},
      {"/v1/namespaces/a/properties", R"({"updates":)" + deep},
      {"/v1/transactions/commit", R"({"table-changes":)" + deep},
  };
  for (const auto& [path, body] : cases) {
    SCOPED_TRACE(path);
    auto r = PostAs(path.find("/b/") != std::string::npos ? kBob : kAlice, path, body);
    ASSERT_TRUE(r) << "the server died";
    EXPECT_EQ(r->status, 400) << r->body;
    ExpectAliveAndUntouched();
  }
  // A schema with a list nested 10,000 deep, written without JSON whitespace.
  std::string type = R"("long")";
  std::string nested;
  for (int i = 0; i < 10000; ++i) nested += R"({"type":"list","element-id":)" + std::to_string(i + 2) + R"(,"element-required":false,"element":)";
  nested += type + std::string(10000, '}');
  std::string body = R"({"name":"deep","schema":{"type":"struct","fields":[{"id":1,"name":"l","required":false,"type":)" +
                     nested + "}]}}";
  auto r = PostAs(kAlice, "/v1/namespaces/a/tables", body);
  ASSERT_TRUE(r) << "the server died";
  EXPECT_EQ(r->status, 400);
  ExpectAliveAndUntouched();
}

TEST_F(RestTenancyTest, BadUtf8DuplicateKeysAndTrailingDataAre400) {
  MakeTenants();
  auto raw = [&](const std::string& request) {
    int fd = Connect(port_);
    EXPECT_GE(fd, 0);
    send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    std::string reply = ReadReply(fd, 3000);
    close(fd);
    return reply.substr(0, reply.find("\r\n"));
  };
  const std::string auth = "Authorization: Bearer " + kAlice + "\r\n";
  const json namespace_properties = Body(GetAs(kAlice, "/v1/namespaces/a"))["properties"];
  EXPECT_EQ(raw("GET /v1/namespaces/%FF%FE HTTP/1.1\r\nHost: x\r\n" + auth + "Connection: close\r\n\r\n"),
            "HTTP/1.1 400 Bad Request");
  EXPECT_EQ(raw("GET /v1/namespaces/a/tables/%C3 HTTP/1.1\r\nHost: x\r\n" + auth + "Connection: close\r\n\r\n"),
            "HTTP/1.1 400 Bad Request");
  EXPECT_EQ(raw("GET /v1/namespaces?parent=%FF HTTP/1.1\r\nHost: x\r\n" + auth + "Connection: close\r\n\r\n"),
            "HTTP/1.1 400 Bad Request");
  ExpectAliveAndUntouched();
  struct Case {
    std::string path, body;
  };
  const std::vector<Case> cases = {
      {"/v1/namespaces", "{\"namespace\":[\"a\",\"\xff\"]}"},
      {"/v1/namespaces", R"({"namespace":["a","n1"]} trailing)"},
      {"/v1/namespaces", R"({"namespace":["a","n2"]}{})"},
      {"/v1/namespaces", R"({"namespace":["a","n3"],"namespace":["a","n4"]})"},
      {"/v1/namespaces/a/tables", R"({"name":"u","name":"v","schema":)" + kSchema + "}"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.body);
    auto r = PostAs(kAlice, c.path, c.body);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << r->body;
  }
  // A later "requirements": [] must not silently replace an earlier requirement.
  ASSERT_EQ(PostAs(kAlice, "/v1/namespaces/a/tables", R"({"name":"t","schema":)" + kSchema + "}")->status, 200);
  auto dup = PostAs(kAlice, "/v1/namespaces/a/tables/t",
                    R"({"requirements":[{"type":"assert-table-uuid","uuid":"00000000-0000-0000-0000-000000000000"}],)"
                    R"("updates":[{"action":"set-properties","updates":{"k":"v"}}],"requirements":[]})");
  EXPECT_EQ(dup->status, 400) << dup->body;
  EXPECT_EQ(Body(GetAs(kAlice, "/v1/namespaces/a/tables/t"))["metadata"]["properties"].count("k"), 0u);
  EXPECT_EQ(Body(GetAs(kAlice, "/v1/namespaces/a"))["properties"], namespace_properties);
  EXPECT_EQ(Body(GetAs(kAlice, "/v1/namespaces?parent=a"))["namespaces"].size(), 0u);
  ExpectAliveAndUntouched();
}

TEST_F(RestTenancyTest, CommitLimitsAre400NamingTheLimit) {
  MakeTenants();
  ASSERT_EQ(PostAs(kAlice, "/v1/namespaces/a/tables", R"({"name":"t","schema":)" + kSchema + "}")->status, 200);
  json many = json::object();
  for (int i = 0; i <= 10000; ++i) many["k" + std::to_string(i)] = "v";
  auto r = PostAs(kAlice, "/v1/namespaces/a/tables/t",
                  CommitBody(json::array({{{"action", "set-properties"}, {"updates", many}}})).dump());
  EXPECT_EQ(r->status, 400) << r->body;
  EXPECT_NE(Message(r).find("properties"), std::string::npos) << r->body;
  json big{{"k", std::string(2 * 1024 * 1024, 'x')}};
  r = PostAs(kAlice, "/v1/namespaces/a/tables/t", CommitBody(json::array({{{"action", "set-properties"}, {"updates", big}}})).dump());
  EXPECT_EQ(r->status, 400) << r->body;
  EXPECT_NE(Message(r).find("bytes"), std::string::npos) << r->body;
  json snapshots = json::array();
  for (int i = 0; i < 101; ++i) {
    snapshots.push_back({{"action", "add-snapshot"},
                         {"snapshot",
                          {{"snapshot-id", 100 + i}, {"sequence-number", 1 + i}, {"timestamp-ms", 1700000000000},
                           {"summary", {{"operation", "append"}}}, {"schema-id", 0},
                           {"manifest-list", warehouse_ + "/a/t/metadata/snap-" + std::to_string(i) + ".avro"}}}});
  }
  r = PostAs(kAlice, "/v1/namespaces/a/tables/t", CommitBody(snapshots).dump());
  EXPECT_EQ(r->status, 400) << r->body;
  EXPECT_NE(Message(r).find("snapshots"), std::string::npos) << r->body;
  // The REST spec's leniency: missing or null requirements / updates are empty lists.
  auto lenient = PostAs(kAlice, "/v1/namespaces/a/tables/t", R"({"updates":[{"action":"set-properties","updates":{"x":"1"}}]})");
  EXPECT_EQ(lenient->status, 200) << lenient->body;
  lenient = PostAs(kAlice, "/v1/namespaces/a/tables/t", R"({"requirements":null,"updates":null})");
  EXPECT_EQ(lenient->status, 200) << lenient->body;
  ExpectAliveAndUntouched();
}

TEST_F(RestTenancyTest, HalfOpenConnectionsDoNotHoldTheServer) {
  MakeTenants();
  std::vector<int> held;
  for (int i = 0; i < 40; ++i) {
    int fd = Connect(port_);
    ASSERT_GE(fd, 0);
    std::string partial = "GET /v1/config HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ";  // never finished
    send(fd, partial.data(), partial.size(), MSG_NOSIGNAL);
    held.push_back(fd);
  }
  httplib::Client quick(server_->url());
  quick.set_connection_timeout(2, 0);
  quick.set_read_timeout(2, 0);  // the old server needed 34 s here
  for (int i = 0; i < 3; ++i) {
    auto r = quick.Get("/v1/config", Auth(kAlice));
    ASSERT_TRUE(r) << "no answer within 2 s while 40 half-open connections are held";
    EXPECT_EQ(r->status, 200);
  }
  for (int fd : held) close(fd);
  ExpectAliveAndUntouched();
}

TEST_F(RestTenancyTest, HeaderDeadlineAndPerClientCap) {
  Start({"--header-timeout", "1", "--max-connections-per-client", "4"});
  MakeTenants();
  // Four half-sent requests. A connection of an earlier request may still count for a moment
  // after it closed (the server notices the close on its own thread): then one of the four is
  // refused at once, and the four are tried again (bounded).
  std::vector<int> held;
  for (int round = 0; round < 50; ++round) {
    for (int fd : held) close(fd);
    held.clear();
    for (int i = 0; i < 4; ++i) {
      held.push_back(Connect(port_));
      send(held.back(), "GET /v1/con", 11, MSG_NOSIGNAL);
    }
    std::vector<pollfd> fds;
    for (int fd : held) fds.push_back(pollfd{fd, POLLIN, 0});
    if (poll(fds.data(), fds.size(), 300) == 0) break;  // all four accepted and waiting
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  // One more from the same address is turned away at once.
  int extra = Connect(port_);
  std::string refused = ReadReply(extra, 2000);
  EXPECT_EQ(refused.substr(0, refused.find("\r\n")), "HTTP/1.1 503 Service Unavailable") << refused;
  close(extra);
  // The slow ones are cut off at the header deadline (1 s), without an answer.
  for (int fd : held) {
    std::string got = ReadReply(fd, 4000);
    EXPECT_EQ(got, "");
    pollfd pfd{fd, POLLIN, 0};
    EXPECT_EQ(poll(&pfd, 1, 0), 1);
    char c;
    EXPECT_EQ(recv(fd, &c, 1, MSG_DONTWAIT), 0) << "closed by the server";
    close(fd);
  }
  EXPECT_EQ(GetAs(kAlice, "/v1/config")->status, 200);
}

TEST_F(RestTenancyTest, TokensFileMayHoldASecretsSha256) {
  unsigned char digest[32];
  unsigned int size = 0;
  const std::string secret = "carol-secret-1";
  EVP_Digest(secret.data(), secret.size(), digest, &size, EVP_sha256(), nullptr);
  std::string hex;
  for (unsigned i = 0; i < size; ++i) {
    static const char* kHex = "0123456789abcdef";
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 15];
  }
  WriteFile(root_.path() + "/tokens", "# name:secret-or-hash:grants\ncarol:sha256:" + hex + ":write@c\n");
  server_.reset();
  std::string error;
  server_ = ServeProcess::Start(
      FLOE_BINARY, {"--catalog", "sqlite://" + warehouse_ + "/catalog.db", "serve", "--tokens-file", root_.path() + "/tokens"},
      &error);
  ASSERT_TRUE(server_) << error;
  http_ = std::make_unique<httplib::Client>(server_->url());
  EXPECT_EQ(PostAs(secret, "/v1/namespaces", R"({"namespace":["c"]})")->status, 200);
  EXPECT_EQ(PostAs("sha256:" + hex, "/v1/namespaces", R"({"namespace":["c2"]})")->status, 401);
  EXPECT_EQ(PostAs(hex, "/v1/namespaces", R"({"namespace":["c3"]})")->status, 401);
  auto issued = http_->Post("/v1/oauth/tokens", "grant_type=client_credentials&client_id=carol&client_secret=" + secret,
                            "application/x-www-form-urlencoded");
  ASSERT_EQ(issued->status, 200) << issued->body;
  EXPECT_EQ(GetAs(Body(issued)["access_token"], "/v1/namespaces/c")->status, 200);
}

// Issue 40, item 1 and 2: a namespace 100,000 levels deep, a name longer than a file name may
// be, one namespace too many: each a 400 naming the limit, and nothing created.
TEST_F(RestTenancyTest, NamespaceDepthNameLengthAndCountAre400NamingTheLimit) {
  Start({"--max-namespaces", "4"});
  MakeTenants();
  json deep = json::array({"a"});
  for (int i = 0; i < 100000; ++i) deep.push_back("x");
  auto r = PostAs(kAlice, "/v1/namespaces", json{{"namespace", deep}}.dump());
  EXPECT_EQ(r->status, 400) << r->body.substr(0, 300);
  EXPECT_NE(Message(r).find("namespace depth"), std::string::npos) << r->body.substr(0, 300);
  json seventeen = json::array({"a"});
  for (int i = 0; i < 16; ++i) seventeen.push_back("x");
  EXPECT_EQ(PostAs(kAlice, "/v1/namespaces", json{{"namespace", seventeen}}.dump())->status, 400);
  seventeen.erase(seventeen.size() - 1);  // 16 levels: allowed
  EXPECT_EQ(PostAs(kAlice, "/v1/namespaces", json{{"namespace", seventeen}}.dump())->status, 200);

  const std::string long_name(256, 'n');
  r = PostAs(kAlice, "/v1/namespaces", json{{"namespace", json::array({"a", long_name})}}.dump());
  EXPECT_EQ(r->status, 400) << r->body;
  EXPECT_NE(Message(r).find("the limit is 255 bytes"), std::string::npos) << r->body;
  // A table name over 255 bytes was a 500 "File name too long" from the file system.
  r = PostAs(kAlice, "/v1/namespaces/a/tables", json{{"name", std::string(300, 't')}, {"schema", json::parse(kSchema)}}.dump());
  EXPECT_EQ(r->status, 400) << r->body;
  EXPECT_NE(Message(r).find("the limit is 255 bytes"), std::string::npos) << r->body;
  r = GetAs(kAlice, "/v1/namespaces/a/tables/" + std::string(300, 't'));
  EXPECT_EQ(r->status, 400) << r->body;
  // 255 bytes is a valid name.
  r = PostAs(kAlice, "/v1/namespaces/a/tables", json{{"name", std::string(255, 't')}, {"schema", json::parse(kSchema)}}.dump());
  EXPECT_EQ(r->status, 200) << r->body.substr(0, 300);

  // a, b and the 16-level one are 3 namespaces: one more fits, the next is refused.
  EXPECT_EQ(PostAs(kAlice, "/v1/namespaces", R"({"namespace":["a","n1"]})")->status, 200);
  r = PostAs(kAlice, "/v1/namespaces", R"({"namespace":["a","n2"]})");
  EXPECT_EQ(r->status, 400) << r->body;
  EXPECT_NE(Message(r).find("--max-namespaces"), std::string::npos) << r->body;
  EXPECT_EQ(GetAs(kAlice, "/v1/namespaces/a%1Fn2")->status, 404);
  ExpectAliveAndUntouched();
}

// Issue 40, item 1: a register reads what it touches, never the whole catalog. Alice's 400
// namespaces 16 deep made every register walk 6,400 namespaces, listing them all each time.
TEST_F(RestTenancyTest, RegisterCostDoesNotGrowWithOtherTenantsNamespaces) {
  MakeTenants();
  auto time_register = [&] {
    auto started = std::chrono::steady_clock::now();
    auto r = PostAs(kBob, "/v1/namespaces/b/register",
                    json{{"name", "r"}, {"metadata-location", warehouse_ + "/b/missing.metadata.json"}}.dump());
    EXPECT_EQ(r->status, 400) << r->body;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  const double before = time_register();
  for (int i = 0; i < 400; ++i) {
    json ns = json::array({"a", "n" + std::to_string(i)});
    for (int level = 2; level < 16; ++level) ns.push_back("x");
    ASSERT_EQ(PostAs(kAlice, "/v1/namespaces", json{{"namespace", ns}}.dump())->status, 200);
  }
  const double after = time_register();
  EXPECT_LT(after, before + 0.5) << "bob's register took " << after << " s after alice's namespaces, " << before
                                 << " s before";
  ExpectAliveAndUntouched();
}

// Issue 40, item 4: /metrics names a table only to a caller who may read its namespace.
TEST_F(RestTenancyTest, MetricsShowOnlyTheTablesTheCallerMayRead) {
  MakeTenants();  // bob's append to b.t went through the server
  ASSERT_EQ(PostAs(kAlice, "/v1/namespaces/a/tables", R"({"name":"t","schema":)" + kSchema + "}")->status, 200);
  ASSERT_EQ(PostAs(kAlice, "/v1/namespaces/a/tables/t",
                   CommitBody(json::array({{{"action", "set-properties"}, {"updates", {{"k", "v"}}}}})).dump())
                ->status,
            200);
  auto bobs = GetAs(kBob, "/metrics");
  ASSERT_EQ(bobs->status, 200);
  EXPECT_EQ(bobs->body.find("a.t"), std::string::npos) << bobs->body;
  EXPECT_NE(bobs->body.find(R"(floe_commits_total{table="b.t")"), std::string::npos) << bobs->body;
  EXPECT_NE(bobs->body.find("floe_http_requests_total"), std::string::npos) << bobs->body;
  auto alices = GetAs(kAlice, "/metrics");
  ASSERT_EQ(alices->status, 200);
  EXPECT_NE(alices->body.find(R"(floe_commits_total{table="a.t")"), std::string::npos) << alices->body;
  EXPECT_EQ(alices->body.find("b.t"), std::string::npos) << alices->body;
}

// Issue 40, item 6: the whole token is compared, not the bytes before a NUL.
TEST_F(RestTenancyTest, ATokenWithANulAndMoreBytesIsNotTheToken) {
  MakeTenants();
  for (const std::string& suffix : {std::string("\0garbage", 8), std::string("\0", 1)}) {
    int fd = Connect(port_);
    ASSERT_GE(fd, 0);
    std::string request = "GET /v1/namespaces/a HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + kAlice + suffix +
                          "\r\nConnection: close\r\n\r\n";
    send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    std::string reply = ReadReply(fd, 5000);
    close(fd);
    EXPECT_EQ(reply.substr(0, 12), "HTTP/1.1 401") << reply;
  }
  EXPECT_EQ(GetAs(kAlice, "/v1/namespaces/a")->status, 200);
}

// Issue 40, item 7: a method no route takes (TRACE, OPTIONS) is a 405 naming those it takes.
TEST_F(RestTenancyTest, MethodsNoRouteTakesAre405WithAllow) {
  MakeTenants();
  for (const std::string method : {"TRACE", "OPTIONS"}) {
    int fd = Connect(port_);
    ASSERT_GE(fd, 0);
    std::string request = method + " /v1/namespaces/a HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + kAlice +
                          "\r\nConnection: close\r\n\r\n";
    send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    std::string reply = ReadReply(fd, 5000);
    close(fd);
    EXPECT_EQ(reply.substr(0, 12), "HTTP/1.1 405") << method << ": " << reply;
    EXPECT_NE(reply.find("Allow: GET, HEAD, DELETE"), std::string::npos) << method << ": " << reply;
  }
  // A path that names no route of this server (another catalog prefix) has no methods to list:
  // it is answered as any method there is, 400 "no route", never a 405 with a made-up Allow.
  int fd = Connect(port_);
  ASSERT_GE(fd, 0);
  std::string request = "OPTIONS /v1/other-prefix/namespaces/a HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                        std::string(kAlice) + "\r\nConnection: close\r\n\r\n";
  send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string reply = ReadReply(fd, 5000);
  close(fd);
  EXPECT_EQ(reply.substr(0, 12), "HTTP/1.1 400") << reply;
  EXPECT_EQ(reply.find("Allow:"), std::string::npos) << reply;
}

// Issue 40, item 5: a Content-Length no body can satisfy is refused when the headers arrive,
// not after the 60 s body deadline.
TEST_F(RestTenancyTest, ImpossibleContentLengthIsRefusedAtOnce) {
  MakeTenants();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {std::to_string(30 << 20), "413"},  // 20 MiB over the 10 MiB limit
      {"1000000000000", "413"},
      {"18446744073709551616", "413"},  // 2^64
      {"-5", "400"},
      {"+5", "400"},
      {"5 5", "400"},
  };
  for (const auto& [length, status] : cases) {
    SCOPED_TRACE(length);
    int fd = Connect(port_);
    ASSERT_GE(fd, 0);
    std::string request = "POST /v1/namespaces HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + kAlice +
                          "\r\nContent-Type: application/json\r\nContent-Length: " + length + "\r\n\r\n";
    send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    auto started = std::chrono::steady_clock::now();
    std::string reply = ReadReply(fd, 5000);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    close(fd);
    EXPECT_EQ(reply.substr(0, 12), "HTTP/1.1 " + status) << reply;
    EXPECT_LT(seconds, 3) << reply;
  }
  ExpectAliveAndUntouched();
}

// Issue 40, item 1: SIGTERM waits for a request still running at most --stop-timeout, here
// one blocked on a database lock another process holds (it would wait out the 30 s busy timeout).
TEST_F(RestTenancyTest, StopDoesNotWaitForeverForARunningRequest) {
  Start({"--stop-timeout", "1"});
  MakeTenants();
  const std::string flag = root_.path() + "/locked";
  pid_t locker = fork();
  if (locker == 0) {
    execlp("python3", "python3", "-c",
           "import sqlite3, sys, time\n"
           "c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)\n"
           "c.execute('BEGIN EXCLUSIVE')\n"
           "open(sys.argv[2], 'w').close()\n"
           "time.sleep(60)\n",
           (warehouse_ + "/catalog.db").c_str(), flag.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  for (int i = 0; i < 200 && !fs::exists(flag); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  if (!fs::exists(flag)) {
    kill(locker, SIGKILL);
    waitpid(locker, nullptr, 0);
    GTEST_SKIP() << "skipped: python3 with sqlite3 is needed to hold the catalog's lock";
  }
  std::thread blocked([this] {
    httplib::Client client(server_->url());
    client.set_read_timeout(60, 0);
    (void)client.Post("/v1/namespaces", Auth(kAlice), R"({"namespace":["a","blocked"]})", "application/json");
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the request is waiting for the lock
  auto started = std::chrono::steady_clock::now();
  server_->Stop();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  blocked.join();
  kill(locker, SIGKILL);
  waitpid(locker, nullptr, 0);
  EXPECT_LT(seconds, 8) << "the server waited for the blocked request after SIGTERM";
}

}  // namespace
}  // namespace floe
