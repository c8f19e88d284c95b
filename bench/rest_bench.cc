// Commits per second through `floe serve` next to the bare PostgreSQL swap underneath it, and
// load-table requests per second, all in one run on loopback.
//
//   rest_bench --floe build/floe --pg postgresql://postgres@127.0.0.1:PORT/floe_test [--seconds 3]
//
// Measured, each for 1 and 8 clients (one table per client, so the figures are throughput,
// not contention):
//   swap         SqlCatalog::SwapPointer: the conditional UPDATE alone (no metadata files)
//   sql commit   Catalog::CommitTable on the SQL catalog: read metadata, write the next
//                document, swap (what the server does per commit)
//   rest commit  the same commit sent by floe's REST client to `floe serve` over HTTP
//   rest load    GET .../tables/{t} (LoadTable through the REST client)
// plus `wrk` on the load-table route when wrk is installed.
#include <sys/wait.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include "catalog/catalog_test_env.h"
#include "catalog/commit.h"
#include "catalog/rest/serve_process_for_tests.h"
#include "io/local_file_io.h"

namespace floe {
namespace {

using Clock = std::chrono::steady_clock;

struct Args {
  std::string floe;
  std::string pg;
  double seconds = 3;
};

// Runs `work(client, i)` in `clients` threads for `seconds`; returns operations per second.
double Rate(int clients, double seconds, const std::function<bool(int, int64_t)>& work) {
  std::atomic<int64_t> done{0};
  std::atomic<bool> stop{false}, failed{false};
  std::vector<std::thread> threads;
  auto start = Clock::now();
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      for (int64_t i = 0; !stop.load(); ++i) {
        if (!work(c, i)) {
          failed = true;
          return;
        }
        ++done;
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop = true;
  for (auto& t : threads) t.join();
  double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  if (failed) std::cerr << "rest_bench: a client failed; the figure counts only what finished\n";
  return done.load() / elapsed;
}

std::vector<std::unique_ptr<Catalog>> OpenMany(const std::string& uri, const std::string& name, int n) {
  std::vector<std::unique_ptr<Catalog>> out;
  for (int i = 0; i < n; ++i) {
    CatalogOptions options;
    options.name = name;
    auto c = OpenCatalog(uri, options);
    if (!c) {
      std::cerr << "rest_bench: " << c.error().ToString() << "\n";
      std::exit(1);
    }
    out.push_back(std::move(*c));
  }
  return out;
}

TableIdentifier TableFor(int client) { return {{"bench"}, "t" + std::to_string(client)}; }

void Prepare(Catalog& catalog, int tables) {
  (void)catalog.CreateNamespace({"bench"}, {});
  for (int i = 0; i < tables; ++i) {
    auto created = catalog.CreateTable(TableFor(i), CreateTableRequest{testing_env::SimpleSchema()});
    if (!created && created.error().kind != ErrorKind::kAlreadyExists) {
      std::cerr << "rest_bench: " << created.error().ToString() << "\n";
      std::exit(1);
    }
  }
}

double CommitRate(std::vector<std::unique_ptr<Catalog>>& catalogs, int clients, double seconds) {
  return Rate(clients, seconds, [&](int c, int64_t i) {
    TableCommit commit{TableFor(c), {}, {SetProperties{{{"i", std::to_string(i)}}}}};
    auto done = catalogs[c]->CommitTable(commit);
    if (!done) std::cerr << "rest_bench: " << done.error().ToString() << "\n";
    return done.has_value();
  });
}

std::string RunWrk(const std::string& url) {
  if (std::system("wrk --version > /dev/null 2>&1") > 256) return "";
  std::string cmd = "wrk -t2 -c16 -d5s " + url + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return "";
  std::string out;
  char buf[1024];
  while (size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  pclose(pipe);
  return out;
}

int Main(const Args& args) {
  testing_env::TempDir dir("floe-rest-bench");
  const std::string name = "bench" + RandomUuidString().substr(0, 8);
  const std::string sql_uri =
      args.pg + (args.pg.find('?') == std::string::npos ? "?" : "&") + "warehouse=" + dir.path() + "/warehouse";
  constexpr int kMax = 8;

  // 1. The bare swap: tables whose pointer moves between synthetic names (no documents).
  auto sql = OpenMany(sql_uri, name + "swap", kMax);
  Prepare(*sql[0], kMax);
  std::vector<std::string> first(kMax), current(kMax);
  for (int c = 0; c < kMax; ++c) first[c] = current[c] = sql[0]->LoadTable(TableFor(c))->metadata_location;
  int64_t round = 0;  // names stay unique across the 1- and 8-client runs
  auto swap_rate = [&](int clients) {
    ++round;
    return Rate(clients, args.seconds, [&](int c, int64_t i) {
      std::string next = first[c] + "." + std::to_string(round) + "." + std::to_string(i);
      auto* store = dynamic_cast<PointerStore*>(sql[c].get());
      auto done = store->SwapPointer({TableFor(c), current[c], next});
      if (!done) {
        std::cerr << "rest_bench: " << done.error().ToString() << "\n";
        return false;
      }
      current[c] = next;
      return true;
    });
  };
  double swap1 = swap_rate(1), swap8 = swap_rate(8);

  // 1b. The I/O floor of a commit beyond the swap: its next metadata document created durably
  // (create-if-absent, file and folder fsync'd), here 16 KiB, about this bench's document size.
  LocalFileIO files;
  const std::string document(16 * 1024, 'x');
  auto floor_rate = [&](int clients) {
    ++round;
    return Rate(clients, args.seconds, [&](int c, int64_t i) {
      std::string path = dir.path() + "/floor/c" + std::to_string(c) + "-" + std::to_string(round) + "-" +
                         std::to_string(i) + ".metadata.json";
      auto done = files.CreateIfAbsent(path, document);
      if (!done) std::cerr << "rest_bench: " << done.error().ToString() << "\n";
      return done.has_value();
    });
  };
  double floor1 = floor_rate(1), floor8 = floor_rate(8);

  // 2. Full SQL-catalog commits (metadata read + write + swap).
  auto direct = OpenMany(sql_uri, name, kMax);
  Prepare(*direct[0], kMax);
  double sql1 = CommitRate(direct, 1, args.seconds), sql8 = CommitRate(direct, 8, args.seconds);

  // 3. Through the server.
  std::string error;
  auto server = testing_env::ServeProcess::Start(
      args.floe, {"--catalog", sql_uri, "--catalog-name", name, "serve", "--threads", "16"}, &error);
  if (!server) {
    std::cerr << "rest_bench: " << error << "\n";
    return 1;
  }
  auto rest = OpenMany(server->url(), name, kMax);
  double rest1 = CommitRate(rest, 1, args.seconds), rest8 = CommitRate(rest, 8, args.seconds);
  auto load_rate = [&](int clients) {
    return Rate(clients, args.seconds, [&](int c, int64_t) { return rest[c]->LoadTable(TableFor(c)).has_value(); });
  };
  double load1 = load_rate(1), load8 = load_rate(8);
  std::string wrk = RunWrk(server->url() + "/v1/namespaces/bench/tables/t0");

  std::printf("| operation | 1 client | 8 clients |\n|---|---:|---:|\n");
  std::printf("| bare PostgreSQL swap (conditional UPDATE) | %.0f/s | %.0f/s |\n", swap1, swap8);
  std::printf("| durable create-if-absent of a 16 KiB document | %.0f/s | %.0f/s |\n", floor1, floor8);
  std::printf("| SQL catalog commit on PostgreSQL (in process) | %.0f/s | %.0f/s |\n", sql1, sql8);
  std::printf("| commit through floe serve (REST client) | %.0f/s | %.0f/s |\n", rest1, rest8);
  std::printf("| load table through floe serve (REST client) | %.0f/s | %.0f/s |\n", load1, load8);
  std::printf("\nREST commits / bare swap: %.2f (1 client), %.2f (8 clients)\n", rest1 / swap1, rest8 / swap8);
  if (!wrk.empty()) std::printf("\nwrk -t2 -c16 -d5s GET .../tables/t0:\n%s\n", wrk.c_str());
  return 0;
}

}  // namespace
}  // namespace floe

int main(int argc, char** argv) {
  floe::Args args;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--floe") args.floe = argv[i + 1];
    else if (flag == "--pg") args.pg = argv[i + 1];
    else if (flag == "--seconds") args.seconds = std::stod(argv[i + 1]);
  }
  if (args.pg.empty()) {
    if (const char* env = std::getenv("FLOE_TEST_PG_URI")) args.pg = env;
  }
  if (args.floe.empty() || args.pg.empty()) {
    std::cerr << "usage: rest_bench --floe PATH/TO/floe --pg postgresql://... [--seconds 3]\n";
    return 2;
  }
  return floe::Main(args);
}
