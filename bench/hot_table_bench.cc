// Many writers (processes, or threads of one process) appending to ONE table through `floe serve`
// or on PostgreSQL directly, with a delay proxy in front of PostgreSQL that adds round-trip
// latency to every statement.
//
// Usage:
//   hot_table_bench --floe build/floe --pg postgresql://postgres@127.0.0.1:PORT/floe_test
//                   [--seconds 5] [--latency-ms 0,20] [--clients 1,8,32] [--paths direct,group]
//                   [--servers 1,2]
// Paths (the server's FLOE_SERVE_COMMIT): direct = the catalog's commit as before (every lost
// swap is a 409 the client retries), retry = server-side retry and append rebase, group = those
// and group commit; catalog = no server: every writer opens the (delayed) PostgreSQL catalog
// itself, as CLI processes do; threads / threads-alone = no server and one process: the
// writers are threads sharing one catalog object, with the library's group commit of their
// appends on / off (CommitOptions::coalesce_appends). Every writer uses Iceberg's default
// commit.retry.* (the table sets none).
// --servers N runs N `floe serve` processes on the one catalog for the server paths, writer w
// sending to server w mod N (clients alternating: one address per writer, round-robin over the
// fleet); per-attempt success is the servers' landed commits over their swap attempts (from
// each server's /metrics: floe_commits_total{outcome="landed"} / floe_commit_attempts_total).
// Per run: landed commits/s, the 1/RTT ceiling (one commit per added round trip), client
// retries per landed commit, p50/p99 commit latency, the unluckiest writer's share of the
// mean, and commits that gave up.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include <httplib.h>

#include "contention/contention_scheduler.h"
#include "catalog/catalog.h"
#include "catalog/rest/serve_process_for_tests.h"
#include "commit/commit_operation.h"
#include "commit/files_operation.h"
#include "commit/operations.h"
#include "util/clock.h"
#include "util/uuid.h"
#include "write/data_writer.h"

using namespace floe;

namespace {

const TableIdentifier kTable{{"hot"}, "events"};
// How writers (and the bench) open the catalog: the run's catalog name, for the catalog path.
CatalogOptions catalog_options;

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "hot_table_bench: %s\n", message.c_str());
  std::exit(1);
}

std::vector<int> Ints(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) out.push_back(std::stoi(part));
  return out;
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5))];
}

// ---- the delay proxy: a child process forwarding 127.0.0.1:<listen> to 127.0.0.1:<target>,
// every chunk held for half the round trip in each direction, order kept ----

void Pump(int from, int to, std::chrono::microseconds delay) {
  struct Chunk {
    std::chrono::steady_clock::time_point due;
    std::string bytes;
  };
  std::mutex mu;
  std::condition_variable ready;
  std::deque<Chunk> queue;
  bool closed = false;
  std::thread writer([&] {
    std::unique_lock lock(mu);
    while (true) {
      ready.wait(lock, [&] { return closed || !queue.empty(); });
      if (queue.empty()) break;
      Chunk c = std::move(queue.front());
      queue.pop_front();
      lock.unlock();
      std::this_thread::sleep_until(c.due);
      for (size_t done = 0; done < c.bytes.size();) {
        ssize_t n = write(to, c.bytes.data() + done, c.bytes.size() - done);
        if (n <= 0) break;
        done += static_cast<size_t>(n);
      }
      lock.lock();
    }
    shutdown(to, SHUT_WR);
  });
  char buf[65536];
  while (true) {
    ssize_t n = read(from, buf, sizeof buf);
    std::lock_guard lock(mu);
    if (n <= 0) {
      closed = true;
      ready.notify_one();
      break;
    }
    queue.push_back({std::chrono::steady_clock::now() + delay, std::string(buf, static_cast<size_t>(n))});
    ready.notify_one();
  }
  writer.join();
}

int Listen(int* port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || listen(fd, 256) != 0) Die("proxy: bind");
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  *port = ntohs(addr.sin_port);
  return fd;
}

pid_t StartProxy(int listen_fd, int target_port, int rtt_ms) {
  pid_t pid = fork();
  if (pid != 0) return pid;
  const auto half = std::chrono::microseconds(rtt_ms * 500);
  while (true) {
    int client = accept(listen_fd, nullptr, nullptr);
    if (client < 0) continue;
    std::thread([client, target_port, half] {
      int server = socket(AF_INET, SOCK_STREAM, 0);
      sockaddr_in addr{};
      addr.sin_family = AF_INET;
      addr.sin_port = htons(static_cast<uint16_t>(target_port));
      addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      int one = 1;
      setsockopt(server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      if (connect(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
        std::thread up([&] { Pump(client, server, half); });
        Pump(server, client, half);
        up.join();
      }
      close(server);
      close(client);
    }).detach();
  }
}

// postgresql://user@127.0.0.1:PORT/db -> the same with another port.
std::string WithPort(const std::string& uri, int port, int* old_port) {
  size_t at = uri.find("@127.0.0.1:");
  if (at == std::string::npos) Die("--pg must be postgresql://user@127.0.0.1:PORT/db (scripts/pg.sh)");
  size_t start = at + 11, end = uri.find('/', start);
  *old_port = std::stoi(uri.substr(start, end - start));
  return uri.substr(0, start) + std::to_string(port) + uri.substr(end);
}

// ---- writers ----

struct RunResult {
  double rate = 0, retries_per_commit = 0, p50 = 0, p99 = 0, fewest_share = 0;
  int64_t landed = 0, gave_up = 0;
  double server_landed = 0, server_attempts = 0;  // from the servers' /metrics (server paths)
};

// Adds one server's landed commits and swap attempts (its /metrics) to `r`.
void AddServerCounts(const std::string& url, RunResult* r) {
  httplib::Client http(url);
  http.set_read_timeout(10, 0);
  auto res = http.Get("/metrics");
  if (!res || res->status != 200) Die("GET " + url + "/metrics failed");
  std::stringstream in(res->body);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.rfind(' ');
    if (space == std::string::npos) continue;
    const double value = std::stod(line.substr(space + 1));
    if (line.rfind("floe_commit_attempts_total{", 0) == 0) r->server_attempts += value;
    if (line.rfind("floe_commits_total{", 0) == 0 && line.find("outcome=\"landed\"") != std::string::npos) {
      r->server_landed += value;
    }
  }
}

// Appends one data file per commit to the table until `seconds` have passed since `dir`/go
// appeared; one line per commit in `out` (milliseconds, retries or -1 when it gave up).
void AppendLoop(Catalog& catalog, const std::string& dir, int w, double seconds, bool coalesce, std::ostream& out) {
  auto table = catalog.LoadTable(kTable);
  if (!table) Die(table.error().ToString());
  // One real data file; each commit lists a copy of its entry under a name of its own.
  DataWriter writer(*catalog.io(), table->metadata);
  ColumnBatch rows(table->metadata.CurrentSchema());
  (void)rows.AppendRow({Literal::Long(w), Literal::String("w")});
  if (!writer.Write(rows)) Die("write");
  auto files = writer.Finish();
  if (!files) Die(files.error().ToString());
  std::ofstream(dir + "/ready-" + std::to_string(w)) << "ready";
  while (!std::filesystem::exists(dir + "/go")) usleep(200);
  const int64_t start = MonotonicMicros();
  const int64_t end = start + static_cast<int64_t>(seconds * 1e6);
  CommitOptions options;
  options.coalesce_appends = coalesce;
  for (int i = 0; MonotonicMicros() < end; ++i) {
    DataFile f = files->front();
    f.file_path += ".copy-" + std::to_string(i);
    FilesOperation op(FastAppend({f}));
    const int64_t t = MonotonicMicros();
    auto r = CommitOperation(catalog, kTable, op, options);
    if (!r && r.error().kind != ErrorKind::kCommitConflict) Die(r.error().ToString());
    out << (MonotonicMicros() - t) / 1000.0 << " " << (r ? r->attempts - 1 : -1) << "\n";
  }
  out << "window " << start << " " << MonotonicMicros() << "\n";
}

[[noreturn]] void Writer(const std::string& url, const std::string& dir, int w, double seconds) {
  // url: one address, or several separated by spaces (writer w takes the (w mod n)-th).
  std::vector<std::string> urls;
  {
    std::stringstream in(url);
    for (std::string u; in >> u;) urls.push_back(u);
  }
  const std::string mine = urls[static_cast<size_t>(w) % urls.size()];
  auto catalog = OpenCatalog(mine, catalog_options);
  if (!catalog) Die(catalog.error().ToString());
  std::ofstream out(dir + "/writer-" + std::to_string(w));
  AppendLoop(**catalog, dir, w, seconds, /*coalesce=*/true, out);
  out.close();
  _exit(0);
}

void WaitUntilReady(const std::string& dir, int clients, const std::vector<pid_t>& pids) {
  for (int w = 0; w < clients; ++w) {
    // A writer that died before it was ready (e.g. refused a connection) ends the run.
    while (!std::filesystem::exists(dir + "/ready-" + std::to_string(w))) {
      if (!pids.empty() && waitpid(pids[w], nullptr, WNOHANG) == pids[w]) {
        for (pid_t pid : pids) kill(pid, SIGKILL);
        Die("writer " + std::to_string(w) + " exited before it was ready");
      }
      usleep(1000);
    }
  }
  std::ofstream(dir + "/go") << "go";
}

RunResult Summarize(const std::string& dir, int clients);

// `clients` writer processes, each with its own catalog.
RunResult Run(const std::string& url, int clients, double seconds) {
  const std::string dir = (std::filesystem::temp_directory_path() / ("floe-hot-" + RandomUuidString().substr(0, 8))).string();
  std::filesystem::create_directories(dir);
  std::vector<pid_t> pids;
  for (int w = 0; w < clients; ++w) {
    pid_t pid = fork();
    if (pid == 0) Writer(url, dir, w, seconds);
    pids.push_back(pid);
  }
  WaitUntilReady(dir, clients, pids);
  for (pid_t pid : pids) waitpid(pid, nullptr, 0);
  return Summarize(dir, clients);
}

// `clients` writer threads of one process sharing one catalog object: their appends coalesce
// (group commit in the library) unless `coalesce` is false.
RunResult RunThreads(const std::string& url, int clients, double seconds, bool coalesce) {
  const std::string dir = (std::filesystem::temp_directory_path() / ("floe-hot-" + RandomUuidString().substr(0, 8))).string();
  std::filesystem::create_directories(dir);
  auto catalog = OpenCatalog(url, catalog_options);
  if (!catalog) Die(catalog.error().ToString());
  std::vector<std::thread> threads;
  for (int w = 0; w < clients; ++w) {
    threads.emplace_back([&, w] {
      std::ofstream out(dir + "/writer-" + std::to_string(w));
      AppendLoop(**catalog, dir, w, seconds, coalesce, out);
    });
  }
  WaitUntilReady(dir, clients, {});
  for (auto& t : threads) t.join();
  return Summarize(dir, clients);
}

RunResult Summarize(const std::string& dir, int clients) {
  RunResult out;
  std::vector<double> ms;
  int64_t retries = 0, fewest = INT64_MAX, first = INT64_MAX, last = 0;
  for (int w = 0; w < clients; ++w) {
    std::ifstream in(dir + "/writer-" + std::to_string(w));
    std::string token;
    int64_t n = 0;
    while (in >> token) {
      if (token == "window") {
        int64_t s = 0, e = 0;
        in >> s >> e;
        first = std::min(first, s);
        last = std::max(last, e);
        continue;
      }
      int64_t r = 0;
      in >> r;
      if (r < 0) {
        ++out.gave_up;
        continue;
      }
      ms.push_back(std::stod(token));
      retries += r;
      ++n;
    }
    fewest = std::min(fewest, n);
  }
  std::filesystem::remove_all(dir);
  out.landed = static_cast<int64_t>(ms.size());
  out.rate = out.landed / (std::max<int64_t>(last - first, 1) / 1e6);
  out.retries_per_commit = out.landed ? static_cast<double>(retries) / out.landed : 0;
  out.p50 = Percentile(ms, 0.5);
  out.p99 = Percentile(ms, 0.99);
  const double mean = static_cast<double>(out.landed) / clients;
  out.fewest_share = mean > 0 ? fewest / mean : 0;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  catalog_options.commit_scheduler = &ContentionScheduler::Process();  // every writer of this process meets in it
  std::string floe_binary = "build/floe", pg, latencies = "0,20", client_counts = "1,8,32", paths = "direct,group";
  std::string server_counts = "1";
  double seconds = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--floe") floe_binary = argv[i + 1];
    else if (flag == "--pg") pg = argv[i + 1];
    else if (flag == "--seconds") seconds = std::stod(argv[i + 1]);
    else if (flag == "--latency-ms") latencies = argv[i + 1];
    else if (flag == "--clients") client_counts = argv[i + 1];
    else if (flag == "--paths") paths = argv[i + 1];
    else if (flag == "--servers") server_counts = argv[i + 1];
    else Die("unknown flag " + flag);
  }
  if (pg.empty()) Die("--pg is required (bash scripts/pg.sh start; . build/pg.env)");
  std::vector<std::string> path_names;
  {
    std::stringstream in(paths);
    std::string p;
    while (std::getline(in, p, ',')) path_names.push_back(p);
  }
  // Each path with each server count (a path without servers once, with 0).
  std::vector<std::pair<std::string, int>> variants;
  for (const auto& path : path_names) {
    if (path == "catalog" || path == "threads" || path == "threads-alone") {
      variants.emplace_back(path, 0);
      continue;
    }
    for (int servers : Ints(server_counts)) variants.emplace_back(path, servers);
  }
  std::printf("| catalog RTT added | path | servers | clients | commits/s | vs 1 client | 1/RTT ceiling | retries per commit "
              "| per-attempt success | p50 ms | p99 ms | fewest / mean | gave up |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int rtt : Ints(latencies)) {
    int proxy_port = 0, pg_port = 0;
    int listen_fd = Listen(&proxy_port);
    const std::string proxied = WithPort(pg, proxy_port, &pg_port);
    pid_t proxy = StartProxy(listen_fd, pg_port, rtt);
    close(listen_fd);
    for (const auto& [path, servers] : variants) {
      double single = 0;
      for (int clients : Ints(client_counts)) {
        // A fresh catalog name per run: its own table, nothing left from the run before.
        const std::string name = "hot" + RandomUuidString().substr(0, 8);
        const std::string uri = proxied + (proxied.find('?') == std::string::npos ? "?" : "&") + "warehouse=" +
                                (std::filesystem::temp_directory_path() / name).string();
        std::vector<std::unique_ptr<testing_env::ServeProcess>> fleet;
        std::string writers_uri = uri;
        const bool threads = path == "threads" || path == "threads-alone";
        const bool serverless = path == "catalog" || threads;
        catalog_options.name = serverless ? name : "default";
        if (!serverless) {
          setenv("FLOE_SERVE_COMMIT", path.c_str(), 1);
          std::string error;
          // Every writer connects from 127.0.0.1, and the server's default per-address cap (64)
          // guards against one greedy client, not a fleet on one host: raise it as an operator
          // would (each writer holds a connection or two).
          const std::string per_client = std::to_string(std::max(64, 2 * clients + 8));
          writers_uri.clear();
          for (int s = 0; s < servers; ++s) {
            auto server = testing_env::ServeProcess::Start(
                floe_binary,
                {"--catalog", uri, "--catalog-name", name, "serve", "--max-connections-per-client", per_client}, &error);
            if (!server) Die(error);
            writers_uri += (s ? " " : "") + server->url();
            fleet.push_back(std::move(server));
          }
        }
        {
          auto catalog = OpenCatalog(serverless ? writers_uri : fleet.front()->url(), catalog_options);
          if (!catalog) Die(catalog.error().ToString());
          if (auto ns = (*catalog)->CreateNamespace({"hot"}, {}); !ns) Die(ns.error().ToString());
          Schema schema(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "data", Type::String(), false, ""}});
          if (auto t = (*catalog)->CreateTable(kTable, CreateTableRequest{schema}); !t) Die(t.error().ToString());
        }
        RunResult r = threads ? RunThreads(writers_uri, clients, seconds, path == "threads")
                              : Run(writers_uri, clients, seconds);
        for (auto& server : fleet) {
          AddServerCounts(server->url(), &r);
          server->Stop();
        }
        std::filesystem::remove_all(std::filesystem::temp_directory_path() / name);
        if (clients == 1) single = r.rate;
        char ceiling[32] = "-";
        if (rtt > 0) std::snprintf(ceiling, sizeof ceiling, "%.0f", 1000.0 / rtt);
        char success[32] = "-";
        if (r.server_attempts > 0) std::snprintf(success, sizeof success, "%.2f", r.server_landed / r.server_attempts);
        std::printf("| %d ms | %s | %d | %d | %.1f | %.2f | %s | %.2f | %s | %.1f | %.1f | %.2f | %lld |\n", rtt,
                    path.c_str(), servers, clients, r.rate, single > 0 ? r.rate / single : 0.0, ceiling,
                    r.retries_per_commit, success, r.p50, r.p99, r.fewest_share, static_cast<long long>(r.gave_up));
        std::fflush(stdout);
      }
    }
    kill(proxy, SIGKILL);
    waitpid(proxy, nullptr, 0);
  }
  return 0;
}
