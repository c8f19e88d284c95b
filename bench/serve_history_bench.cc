// A hot table with a long history through `floe serve` (issue 39 item 6), on SQLite, no expiry:
//   (a) one writer's append commit through the server vs the same commit in process, at the
//       same history (p50 of --commits commits each; the client is floe's REST client);
//   (b) commits/s of one writer and of eight writers (threads, each its own REST client) through
//       the server for --seconds each, at the same history;
//   (c) a load-table of the old table in refs mode (snapshots=refs) vs a load of a young table
//       (one snapshot), as a client does it: the request, the JSON parse and the document parse
//       (p50 of --loads); also the full load and a 304 revalidation, for reference.
// Usage: serve_history_bench --floe build/floe [--history 5000] [--commits 40] [--seconds 10]
//                            [--loads 50] [--writers 8]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>
#include <vector>

#include <httplib.h>

#include <nlohmann/json.hpp>

#include "contention/contention_scheduler.h"
#include "bench_must.h"
#include "catalog/catalog.h"
#include "catalog/rest/rest_catalog.h"
#include "catalog/rest/rest_protocol.h"
#include "catalog/rest/serve_process_for_tests.h"
#include "commit/commit_operation.h"
#include "commit/files_operation.h"
#include "commit/operations.h"
#include "commit/snapshot_lineage.h"
#include "types/schema_text.h"
#include "util/clock.h"
#include "util/uuid.h"
#include "write/data_writer.h"

using namespace floe;
using floe::bench::Die;
using floe::bench::Must;

namespace {

const TableIdentifier kOld{{"bench"}, "old"};
const TableIdentifier kYoung{{"bench"}, "young"};

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5))];
}

void CreateTable(Catalog& catalog, const TableIdentifier& id) {
  CreateTableRequest request;
  request.schema = Must(ParseSchemaText("order_id long not null, country string"));
  // Writers in a tight loop retry until they land, after short waits.
  request.properties = {{"commit.retry.num-retries", "1000"},
                        {"commit.retry.min-wait-ms", "1"},
                        {"commit.retry.max-wait-ms", "50"},
                        {"commit.retry.total-timeout-ms", "600000"}};
  Must(catalog.CreateTable(id, request));
}

// One real data file; commits list copies of its entry under names of their own.
DataFile OneDataFile(Catalog& catalog, const TableIdentifier& id) {
  auto table = Must(catalog.LoadTable(id));
  DataWriter writer(*catalog.io(), table.metadata);
  ColumnBatch batch(table.metadata.CurrentSchema());
  Must(batch.AppendRow({Literal::Long(1), Literal::String("DE")}));
  Must(writer.Write(batch));
  return Must(writer.Finish()).front();
}

std::atomic<int64_t> copies{0};
void AppendOne(Catalog& catalog, const TableIdentifier& id, const DataFile& proto) {
  DataFile f = proto;
  f.file_path += ".copy-" + std::to_string(copies++);
  FilesOperation op(FastAppend({f}));
  Must(CommitOperation(catalog, id, op));
}

// Adds `count` snapshots of history in one commit (all sharing the current manifest list).
void AddHistory(Catalog& catalog, const TableIdentifier& id, int count) {
  auto table = Must(catalog.LoadTable(id));
  const Snapshot* head = table.metadata.CurrentSnapshot();
  TableCommit commit{id, {}, {}};
  int64_t seq = table.metadata.last_sequence_number;
  std::optional<int64_t> parent = head->snapshot_id;
  for (int i = 0; i < count; ++i) {
    Snapshot s;
    s.snapshot_id = NewSnapshotId(table.metadata);
    s.parent_snapshot_id = parent;
    s.sequence_number = ++seq;
    s.timestamp_ms = NowMillis();
    s.manifest_list = head->manifest_list;
    s.summary = head->summary;
    s.summary["operation"] = "append";
    commit.updates.push_back(AddSnapshot{s});
    parent = s.snapshot_id;
  }
  SnapshotRef ref;
  ref.snapshot_id = *parent;
  commit.updates.push_back(SetSnapshotRef{"main", ref});
  Must(catalog.CommitTable(commit));
}

double TimeCommits(Catalog& catalog, const DataFile& proto, int commits) {
  std::vector<double> ms;
  for (int i = 0; i < commits; ++i) {
    const int64_t t = MonotonicMicros();
    AppendOne(catalog, kOld, proto);
    ms.push_back((MonotonicMicros() - t) / 1000.0);
  }
  return Percentile(ms, 0.5);
}

// Commits/s of `writers` threads, each with its own REST client, for `seconds`.
double CommitsPerSecond(const std::string& url, const DataFile& proto, int writers, double seconds) {
  std::vector<std::unique_ptr<RestCatalog>> clients;
  for (int w = 0; w < writers; ++w) clients.push_back(Must(RestCatalog::Open(url, {})));
  for (auto& c : clients) (void)Must(c->LoadSharedTable(kOld));
  std::atomic<int64_t> landed{0};
  const int64_t start = MonotonicMicros();
  const int64_t end = start + static_cast<int64_t>(seconds * 1e6);
  std::vector<std::thread> threads;
  for (int w = 0; w < writers; ++w) {
    threads.emplace_back([&, w] {
      while (MonotonicMicros() < end) {
        AppendOne(*clients[w], kOld, proto);
        ++landed;
      }
    });
  }
  for (auto& t : threads) t.join();
  return landed.load() / ((MonotonicMicros() - start) / 1e6);
}

// p50 ms of a load as a client does it: GET, JSON parse, document parse.
double TimeLoads(httplib::Client& http, const TableIdentifier& id, const std::string& query, int loads,
                 size_t* bytes, const std::string& if_none_match = "") {
  std::vector<double> ms;
  const std::string path = "/v1/namespaces/bench/tables/" + id.name + query;
  for (int i = 0; i < loads; ++i) {
    httplib::Headers headers;
    if (!if_none_match.empty()) headers.emplace("If-None-Match", if_none_match);
    const int64_t t = MonotonicMicros();
    auto r = http.Get(path, headers);
    if (!r) Die("GET " + path + " failed");
    if (r->status == 200) {
      auto j = nlohmann::json::parse(r->body);
      auto loaded = Must(LoadTableResultFromJson(id, j));
      if (loaded.metadata.snapshots.empty()) Die("no snapshots");
    } else if (r->status != 304) {
      Die("GET " + path + ": " + std::to_string(r->status) + " " + r->body);
    }
    ms.push_back((MonotonicMicros() - t) / 1000.0);
    *bytes = r->body.size();
  }
  return Percentile(ms, 0.5);
}

}  // namespace

int main(int argc, char** argv) {
  std::string floe;
  int history = 5000, commits = 40, loads = 50, writers = 8;
  double seconds = 10;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i], v = argv[i + 1];
    if (a == "--floe") floe = v;
    else if (a == "--history") history = std::stoi(v);
    else if (a == "--commits") commits = std::stoi(v);
    else if (a == "--seconds") seconds = std::stod(v);
    else if (a == "--loads") loads = std::stoi(v);
    else if (a == "--writers") writers = std::stoi(v);
    else Die("unknown option " + a);
  }
  if (floe.empty()) Die("usage: serve_history_bench --floe build/floe [--history N] [--commits N] [--seconds S]");
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("floe-serve-history-" + RandomUuidString().substr(0, 8))).string();
  std::filesystem::create_directories(dir);
  const std::string uri = "sqlite://" + dir + "/catalog.db";
  {
    auto local = Must(OpenCatalog(uri, ProcessCatalogOptions()));
    Must(local->CreateNamespace({"bench"}, {}));
    CreateTable(*local, kOld);
    CreateTable(*local, kYoung);
    DataFile proto = OneDataFile(*local, kOld);
    AppendOne(*local, kOld, proto);
    AppendOne(*local, kYoung, proto);
    AddHistory(*local, kOld, history - 1);
    // (a) in process: a warm catalog, as a writer process that keeps it open.
    for (int i = 0; i < 3; ++i) AppendOne(*local, kOld, proto);
    const double in_process = TimeCommits(*local, proto, commits);

    std::string error;
    auto server = testing_env::ServeProcess::Start(floe, {"--catalog", uri, "serve", "--log-format", "off"}, &error);
    if (!server) Die(error);
    auto client = Must(RestCatalog::Open(server->url(), {}));
    for (int i = 0; i < 3; ++i) AppendOne(*client, kOld, proto);
    const double served = TimeCommits(*client, proto, commits);
    auto doc = Must(client->LoadSharedTable(kOld));
    std::printf("### floe serve, a table with %zu snapshots (SQLite, no expiry)\n\n", doc.metadata->snapshots.size());
    std::printf("| (a) one writer's append commit | p50 ms |\n|---|---|\n");
    std::printf("| in process (SQLite catalog) | %.2f |\n| through floe serve (REST client) | %.2f |\n", in_process, served);
    std::printf("| ratio (goal <= 2x) | %.2fx |\n\n", served / in_process);

    // (b)
    const double one = CommitsPerSecond(server->url(), proto, 1, seconds);
    const double many = CommitsPerSecond(server->url(), proto, writers, seconds);
    doc = Must(client->LoadSharedTable(kOld));
    std::printf("| (b) writers through floe serve, %.0f s each | commits/s |\n|---|---|\n", seconds);
    std::printf("| 1 | %.1f |\n| %d | %.1f |\n| ratio (goal >= 3x) | %.2fx |\n", one, writers, many, many / one);
    std::printf("(history at the end: %zu snapshots)\n\n", doc.metadata->snapshots.size());

    // (c)
    httplib::Client http(server->url());
    http.set_read_timeout(60, 0);
    size_t young_bytes = 0, refs_bytes = 0, all_bytes = 0, revalidate_bytes = 0;
    const double young = TimeLoads(http, kYoung, "", loads, &young_bytes);
    const double refs = TimeLoads(http, kOld, "?snapshots=refs", loads, &refs_bytes);
    const double all = TimeLoads(http, kOld, "", loads, &all_bytes);
    auto head = http.Get("/v1/namespaces/bench/tables/old");
    const double revalidate = TimeLoads(http, kOld, "", loads, &revalidate_bytes, head->get_header_value("ETag"));
    std::printf("| (c) load-table, client side (GET + parse) | answer | p50 ms |\n|---|---|---|\n");
    std::printf("| young table (1 snapshot) | %.1f KB | %.2f |\n", young_bytes / 1024.0, young);
    std::printf("| old table, snapshots=refs | %.1f KB | %.2f |\n", refs_bytes / 1024.0, refs);
    std::printf("| old table, snapshots=all | %.1f KB | %.2f |\n", all_bytes / 1024.0, all);
    std::printf("| old table, If-None-Match (304) | %zu B | %.2f |\n", revalidate_bytes, revalidate);
    std::printf("| refs vs young (goal <= 2x) | | %.2fx |\n", refs / young);
    server->Stop();
  }
  std::filesystem::remove_all(dir);
  return 0;
}
