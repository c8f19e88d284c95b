// Catalog swaps per second through floe, next to the same conditional UPDATE issued raw.
//
//   build/catalog_bench [--pg postgresql://user@host:port/db] [--swaps N] [--commits N] [--rounds R]
//   (--pg defaults to $FLOE_TEST_PG_URI; without either, PostgreSQL is skipped)
//
// For SQLite (WAL, synchronous=FULL) and PostgreSQL (synchronous_commit=on), in one run:
//   raw      the sqlite3 shell running a script of N chained conditional UPDATEs per process
//            (each changes exactly one row: v<i> -> v<i+1>); pgbench -M prepared with a script
//            of the same UPDATE (RETURNING the new value into the next transaction's condition)
//   floe     SqlCatalog::SwapPointer, the swap at the end of every commit, N chained swaps
//   commit   Catalog::CommitTable (load pointer, read + apply + write the metadata document
//            create-if-absent, swap): the whole catalog side of a commit
// each with 1 writer and with 4 processes (each on its own table: they contend for SQLite's
// write lock and PostgreSQL's WAL flush, and every swap wins). Rates are medians of R rounds
// run interleaved, so the machine's drift hits raw and floe alike.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "catalog/catalog_test_env.h"
#include "catalog/sql/postgres_connection.h"
#include "catalog/sql/sql_catalog.h"
#include "catalog/sql/sqlite_connection.h"

namespace floe {
namespace {

using Clock = std::chrono::steady_clock;
constexpr const char* kCatalogName = "bench";

struct Options {
  std::string pg_uri;
  int swaps = 3000;
  int commits = 300;
  int rounds = 3;
};

double Seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

void Die(const std::string& message) {
  std::fprintf(stderr, "catalog_bench: %s\n", message.c_str());
  std::exit(1);
}

template <typename T>
T Must(Result<T> r, const char* what) {
  if (!r) Die(std::string(what) + ": " + r.error().ToString());
  return std::move(*r);
}
void Must(Status s, const char* what) {
  if (!s) Die(std::string(what) + ": " + s.error().ToString());
}

// In each of `processes` forked processes, prepare(p) runs first (opening connections) and
// returns the work to time; the work starts in all processes together. Returns the wall time
// of the work.
using Work = std::function<void()>;
double RunProcesses(int processes, const std::function<Work(int)>& prepare) {
  int start[2], ready[2];
  if (pipe(start) != 0 || pipe(ready) != 0) Die("pipe failed");
  std::vector<pid_t> pids;
  for (int p = 0; p < processes; ++p) {
    pid_t pid = fork();
    if (pid < 0) Die("fork failed");
    if (pid == 0) {
      close(start[1]);
      close(ready[0]);
      Work work = prepare(p);
      (void)!write(ready[1], "r", 1);
      char go;
      (void)!read(start[0], &go, 1);
      work();
      _exit(0);
    }
    pids.push_back(pid);
  }
  close(start[0]);
  close(ready[1]);
  for (int p = 0; p < processes; ++p) {  // every child has opened its connection
    char r;
    if (read(ready[0], &r, 1) != 1) Die("a benchmark process died while preparing");
  }
  close(ready[0]);
  auto began = Clock::now();
  close(start[1]);
  for (pid_t pid : pids) {
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) Die("a benchmark process failed");
  }
  return Seconds(began);
}

int RunShell(const std::string& command) {
  int rc = std::system(command.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::string TableName(int p) { return "t" + std::to_string(p); }

// ---- one backend ----

struct Backend {
  std::string label;    // "SQLite", "PostgreSQL"
  std::string uri;      // floe catalog URI
  std::string sqlite_path;  // SQLite only
  std::string pg_uri;       // PostgreSQL only
};

std::unique_ptr<SqlCatalog> OpenSql(const Backend& b) {
  CatalogOptions options;
  options.name = kCatalogName;
  auto catalog = Must(OpenCatalog(b.uri, options), "open catalog");
  auto* sql = dynamic_cast<SqlCatalog*>(catalog.get());
  if (!sql) Die("not a SQL catalog");
  catalog.release();
  return std::unique_ptr<SqlCatalog>(sql);
}

// Sets the rows of t0..t3 to metadata_location = 'r0' (for the raw runs).
void ResetRawRows(SqlCatalog& catalog, const Backend& b) {
  std::unique_ptr<SqlConnection> conn;
  if (!b.sqlite_path.empty()) {
    conn = Must(SqliteConnection::Open(b.sqlite_path), "open sqlite");
  } else {
    conn = Must(PostgresConnection::Open(b.pg_uri), "open postgresql");
  }
  Must(conn->Execute("UPDATE iceberg_tables SET metadata_location = 'r0' WHERE catalog_name = ? AND "
                     "table_namespace = 'b'",
                     {std::string(kCatalogName)}),
       "reset rows");
}

// The conditional UPDATE, text form, for v<i-1> -> v<i> of table tP.
std::string RawUpdate(int p, int i) {
  return "UPDATE iceberg_tables SET metadata_location = 'r" + std::to_string(i) + "', previous_metadata_location = 'r" +
         std::to_string(i - 1) + "' WHERE catalog_name = '" + kCatalogName +
         "' AND table_namespace = 'b' AND table_name = '" + TableName(p) + "' AND metadata_location = 'r" +
         std::to_string(i - 1) + "';\n";
}

double RawSqlite(const Backend& b, int processes, int swaps, const std::string& dir) {
  for (int p = 0; p < processes; ++p) {
    std::ofstream script(dir + "/raw" + std::to_string(p) + ".sql");
    // The shell's own settings for the same durability; busy_timeout is SQLite's stock wait.
    script << ".output /dev/null\nPRAGMA journal_mode=WAL;\nPRAGMA synchronous=FULL;\nPRAGMA busy_timeout=60000;\n"
              ".output\n";
    for (int i = 1; i <= swaps; ++i) script << RawUpdate(p, i);
    script << "SELECT changes();\n";
  }
  return RunProcesses(processes, [&](int p) -> Work {
    return [&, p] {
      std::string cmd = "sqlite3 -bail " + b.sqlite_path + " < " + dir + "/raw" + std::to_string(p) + ".sql > " +
                        dir + "/raw" + std::to_string(p) + ".out";
      if (RunShell(cmd) != 0) _exit(1);
      std::ifstream out(dir + "/raw" + std::to_string(p) + ".out");
      std::string last;
      out >> last;
      if (last != "1") _exit(1);  // the last UPDATE changed its row: the whole chain matched
    };
  });
}

// pgbench reports its own rate; the script is the same conditional UPDATE, its condition fed by
// the previous transaction's RETURNING (\gset), so every UPDATE matches exactly one row.
double RawPgbench(const Backend& b, int processes, int swaps, const std::string& dir) {
  std::string script_path = dir + "/swap.pgbench";
  {
    std::ofstream script(script_path);
    script << "\\set n random(1, 2000000000)\n"
              "UPDATE iceberg_tables SET metadata_location = 'p' || (:n)::text, previous_metadata_location = :cur "
              "WHERE catalog_name = '"
           << kCatalogName
           << "' AND table_namespace = 'b' AND table_name = 't' || (:client_id)::text AND metadata_location = :cur "
              "RETURNING metadata_location AS cur\n\\gset\n";
  }
  std::string out = dir + "/pgbench.out";
  std::string cmd = "pgbench -n -M prepared -f " + script_path + " -c " + std::to_string(processes) + " -j " +
                    std::to_string(processes) + " -t " + std::to_string(swaps) + " -D cur=r0 '" + b.pg_uri +
                    "' > " + out + " 2>&1";
  if (RunShell(cmd) != 0) {
    RunShell("cat " + out + " >&2");
    Die("pgbench failed");
  }
  std::ifstream in(out);
  std::string line;
  double tps = 0;
  while (std::getline(in, line)) {
    if (line.rfind("tps = ", 0) == 0) tps = std::atof(line.c_str() + 6);
  }
  if (tps <= 0) Die("no tps in pgbench output");
  return static_cast<double>(processes) * swaps / tps;  // the wall time at pgbench's rate
}

double FloeSwaps(const Backend& b, int processes, int swaps) {
  return RunProcesses(processes, [&](int p) -> Work {
    std::shared_ptr<SqlCatalog> catalog = OpenSql(b);
    return [&, p, catalog] {
      TableIdentifier id{{"b"}, TableName(p)};
      std::string current = Must(catalog->CurrentMetadataLocation(id), "current location");
      for (int i = 1; i <= swaps; ++i) {
        std::string next = "f" + std::to_string(getpid()) + "-" + std::to_string(i);
        Must(catalog->SwapPointer(PointerSwap{id, current, next}), "swap");
        current = next;
      }
    };
  });
}

// Points t0..t3 back at a real metadata document (the swap runs leave fake locations).
void RestoreTables(SqlCatalog& catalog, const std::vector<std::string>& documents) {
  for (size_t p = 0; p < documents.size(); ++p) {
    TableIdentifier id{{"b"}, TableName(static_cast<int>(p))};
    std::string current = Must(catalog.CurrentMetadataLocation(id), "current location");
    Must(catalog.SwapPointer(PointerSwap{id, current, documents[p]}), "restore pointer");
  }
}

double FloeCommits(const Backend& b, int processes, int commits) {
  return RunProcesses(processes, [&](int p) -> Work {
    std::shared_ptr<SqlCatalog> catalog = OpenSql(b);
    return [&, p, catalog] {
      TableIdentifier id{{"b"}, TableName(p)};
      for (int i = 1; i <= commits; ++i) {
        Must(catalog->CommitTable(TableCommit{id, {}, {SetProperties{{{"n", std::to_string(i)}}}}}), "commit");
      }
    };
  });
}

struct Row {
  std::string what;
  std::vector<double> rates;
  double Median() const {
    auto r = rates;
    std::sort(r.begin(), r.end());
    return r.empty() ? 0 : r[r.size() / 2];
  }
};

void RunBackend(const Backend& b, const Options& o, const std::string& dir, std::vector<std::string>* report) {
  auto catalog = OpenSql(b);
  std::vector<std::string> documents;
  Must(catalog->CreateNamespace({"b"}, {}), "create namespace");
  for (int p = 0; p < 4; ++p) {
    auto t = Must(catalog->CreateTable({{"b"}, TableName(p)}, CreateTableRequest{testing_env::SimpleSchema()}),
                  "create table");
    documents.push_back(t.metadata_location);
  }
  const bool sqlite = !b.sqlite_path.empty();
  const std::string raw_name = sqlite ? "sqlite3 shell" : "pgbench";
  std::map<std::string, Row> rows;
  for (int round = 0; round < o.rounds; ++round) {
    for (int procs : {1, 4}) {
      const std::string n = std::to_string(procs) + (procs == 1 ? " writer" : " processes");
      ResetRawRows(*catalog, b);
      double raw = sqlite ? RawSqlite(b, procs, o.swaps, dir) : RawPgbench(b, procs, o.swaps, dir);
      rows["raw " + n].rates.push_back(procs * o.swaps / raw);
      RestoreTables(*catalog, documents);
      double floe = FloeSwaps(b, procs, o.swaps);
      rows["floe " + n].rates.push_back(procs * o.swaps / floe);
      RestoreTables(*catalog, documents);
      double commit = FloeCommits(b, procs, o.commits);
      rows["commit " + n].rates.push_back(procs * o.commits / commit);
      documents.clear();
      for (int p = 0; p < 4; ++p) {
        documents.push_back(Must(catalog->CurrentMetadataLocation({{"b"}, TableName(p)}), "current"));
      }
      std::fprintf(stderr, "%s round %d, %s: raw %.0f/s, floe swap %.0f/s, floe commit %.0f/s\n", b.label.c_str(),
                   round + 1, n.c_str(), procs * o.swaps / raw, procs * o.swaps / floe, procs * o.commits / commit);
    }
  }
  for (int procs : {1, 4}) {
    const std::string n = std::to_string(procs) + (procs == 1 ? " writer" : " processes");
    double raw = rows["raw " + n].Median(), floe = rows["floe " + n].Median(), commit = rows["commit " + n].Median();
    char line[512];
    std::snprintf(line, sizeof line, "| %s | %s | %.0f | %.0f | %.2f | %.0f |", b.label.c_str(), n.c_str(), raw, floe,
                  floe / raw, commit);
    report->push_back(line);
  }
}

}  // namespace
}  // namespace floe

int main(int argc, char** argv) {
  using namespace floe;
  Options o;
  if (const char* env = std::getenv("FLOE_TEST_PG_URI")) o.pg_uri = env;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--pg") o.pg_uri = argv[i + 1];
    else if (flag == "--swaps") o.swaps = std::atoi(argv[i + 1]);
    else if (flag == "--commits") o.commits = std::atoi(argv[i + 1]);
    else if (flag == "--rounds") o.rounds = std::atoi(argv[i + 1]);
    else Die("unknown flag " + flag);
  }
  testing_env::TempDir dir("floe-catalog-bench");
  std::vector<std::string> report;
  Backend sqlite{"SQLite", "sqlite://" + dir.path() + "/catalog.db", dir.path() + "/catalog.db", ""};
  RunBackend(sqlite, o, dir.path(), &report);
  if (!o.pg_uri.empty()) {
    // A fresh database schema per run would need privileges; a unique catalog name is enough,
    // but the raw runs address rows by catalog name 'bench', so clear leftovers first.
    auto conn = PostgresConnection::Open(o.pg_uri);
    if (conn) (void)(*conn)->Execute("DELETE FROM iceberg_tables WHERE catalog_name = 'bench'");
    if (conn) (void)(*conn)->Execute("DELETE FROM iceberg_namespace_properties WHERE catalog_name = 'bench'");
    std::string sep = o.pg_uri.find('?') == std::string::npos ? "?" : "&";
    Backend pg{"PostgreSQL", o.pg_uri + sep + "warehouse=" + dir.path() + "/pgwarehouse", "", o.pg_uri};
    RunBackend(pg, o, dir.path(), &report);
  } else {
    std::fprintf(stderr, "PostgreSQL skipped: no --pg and no FLOE_TEST_PG_URI\n");
  }
  std::printf("| database | writers | raw UPDATE/s | floe swaps/s | floe/raw | floe CommitTable/s |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const auto& line : report) std::printf("%s\n", line.c_str());
  return 0;
}
