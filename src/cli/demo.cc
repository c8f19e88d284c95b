// floe demo: the commit story in one run, on the embedded default catalog.
//
//   1. a 1,000,000-row orders table partitioned by country;
//   2. writer A deletes `country = 'DE' AND order_id % 2 = 0` (copy-on-write) while writer B,
//      another process, appends two even German orders half way through A's work:
//        serializable -> A is refused, naming B's file; snapshot -> both land, B's rows survive;
//   3. two appends from the same stale snapshot both land;
//   4. an orchestrator re-runs a batch: its idempotency key makes the re-run a no-op.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "floe/catalog.h"
#include "floe/filter.h"
#include "floe/table.h"

extern char** environ;

namespace floe::cli {
namespace {

constexpr int64_t kRows = 1000000;
const char* kCountries[] = {"DE", "FR", "US"};

void Say(const std::string& text) { std::cout << text << std::endl; }
void Heading(const std::string& text) { std::cout << "\n== " << text << " ==" << std::endl; }

std::string SelfPath() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "floe";
  buf[n] = '\0';
  return buf;
}

// Runs `floe ARGS...` as another process (writer B) and waits for it.
int RunFloe(const std::vector<std::string>& args) {
  std::vector<std::string> all = {SelfPath()};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid;
  if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return -1;
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Orders first .. first + count - 1: a country in turn, an amount, a time in January 2026.
Rows Orders(int64_t first, int64_t count) {
  Rows rows;
  rows.columns = {"order_id", "country", "amount_cents", "ts"};
  rows.rows.reserve(static_cast<size_t>(count));
  char ts[32];
  for (int64_t i = first; i < first + count; ++i) {
    const int64_t second = i % (86400 * 30);
    std::snprintf(ts, sizeof ts, "2026-01-%02lldT%02lld:%02lld:%02lld", static_cast<long long>(1 + second / 86400),
                  static_cast<long long>(second % 86400 / 3600), static_cast<long long>(second % 3600 / 60),
                  static_cast<long long>(second % 60));
    rows.rows.push_back({i, std::string(kCountries[i % 3]), (i * 7919) % 100000, std::string(ts)});
  }
  return rows;
}

Result<int64_t> Count(const Table& table, const std::string& where) {
  int64_t count = 0;
  FLOE_RETURN_IF_ERROR(table.ScanBatches({.where = where, .columns = {"order_id"}}, [&](Rows&& batch) -> Result<bool> {
    count += static_cast<int64_t>(batch.size());
    return true;
  }));
  return count;
}

Result<std::vector<int64_t>> OrderIds(const Table& table, const std::string& where) {
  FLOE_ASSIGN_OR_RETURN(Rows rows, table.Scan({.where = where, .columns = {"order_id"}}));
  std::vector<int64_t> ids;
  for (const auto& row : rows.rows) ids.push_back(std::get<int64_t>(row[0]));
  std::sort(ids.begin(), ids.end());
  return ids;
}

Result<int64_t> MainSnapshot(const Table& table) {
  FLOE_ASSIGN_OR_RETURN(std::vector<RefInfo> refs, table.Refs());
  for (const RefInfo& ref : refs) {
    if (ref.name == "main") return ref.snapshot_id;
  }
  return NotFound("table " + table.name() + " has no main branch");
}

std::string IdList(const std::vector<int64_t>& ids) {
  std::string out;
  for (int64_t id : ids) out += (out.empty() ? "" : ", ") + std::to_string(id);
  return "[" + out + "]";
}

Status WriteBFile(const std::string& path, int64_t a, int64_t b) {
  std::ofstream out(path, std::ios::trunc);
  out << "order_id,country,amount_cents,ts\n"
      << a << ",DE,4200,2026-01-15T12:00:00\n"
      << b << ",DE,4300,2026-01-15T12:00:01\n";
  if (!out) return IOError("cannot write " + path);
  return Ok();
}

// Writer A's delete with writer B appending half way through; returns A's result.
Result<CommitInfo> DeleteWithBHalfWay(Table& table, const std::string& catalog_uri, const std::string& b_file) {
  const std::string where = "country = 'DE' AND order_id % 2 = 0";
  FLOE_ASSIGN_OR_RETURN(Filter filter, Filter::Parse(where));
  WriteOptions options;
  options.before_commit = [&] {
    Say("  A has read the German files and written their rewritten versions; A's commit is next.");
    Say("  B (another process) now runs: floe append " + table.name() + " " + b_file);
    int status = RunFloe({"--catalog", catalog_uri, "append", table.name(), b_file});
    Say("  B exited with status " + std::to_string(status) + ".");
  };
  Say("  A runs: DELETE FROM " + table.name() + " WHERE " + where + "  (copy-on-write)");
  return table.Delete(filter, options);
}

int RunDemo(CliContext& ctx) {
  const int64_t start = NowMicros();
  auto connection = ctx.connection();
  if (!connection) return ctx.Fail(connection.error());
  Connection& catalog = **connection;
  std::string uri = ctx.catalog_uri;
  if (uri.empty()) {
    const char* env = std::getenv("FLOE_CATALOG");
    uri = env ? env : "sqlite://" + std::filesystem::absolute("warehouse/catalog.db").string();
  }
  const std::string name = "demo.orders";
  auto fail = [&](const Error& e) { return ctx.Fail(e); };

  Heading("1. A 1,000,000-row orders table, partitioned by country");
  if (auto st = catalog.CreateNamespace("demo"); !st && st.error().kind != ErrorKind::kAlreadyExists) {
    return fail(st.error());
  }
  if (catalog.LoadTable(name)) {
    Say("  (dropping the demo.orders of an earlier run)");
    if (auto st = catalog.DropTable(name, true); !st) return fail(st.error());
  }
  auto created = catalog.CreateTable(
      name, {.schema = "order_id long not null, country string, amount_cents long, ts timestamp", .partition_by = "country"});
  if (!created) return fail(created.error());
  Table& table = *created;
  int64_t t0 = NowMicros();
  int64_t next = 0;
  auto loaded = table.AppendBatches([&](Rows* batch) -> Result<bool> {
    if (next >= kRows) return false;
    int64_t n = std::min<int64_t>(250000, kRows - next);
    *batch = Orders(next, n);
    next += n;
    return true;
  });
  if (!loaded) return fail(loaded.error());
  char line[256];
  std::snprintf(line, sizeof line, "  appended %lld rows in %lld files in %.2f s (snapshot %lld)",
                static_cast<long long>(loaded->rows_added), static_cast<long long>(loaded->files_added),
                (NowMicros() - t0) / 1e6, static_cast<long long>(loaded->snapshot_id));
  Say(line);
  auto de_even = Count(table, "country = 'DE' AND order_id % 2 = 0");
  if (!de_even) return fail(de_even.error());
  Say("  even German orders: " + std::to_string(*de_even));

  Heading("2a. Serializable (the default): A's delete races B's append");
  std::filesystem::create_directories("demo-input");
  const std::string b1 = "demo-input/b-first.csv";
  if (auto st = WriteBFile(b1, 1000002, 1000004); !st) return fail(st.error());
  auto a1 = DeleteWithBHalfWay(table, uri, b1);
  bool serializable_refused = !a1.has_value() && a1.error().kind == ErrorKind::kValidationFailed;
  if (a1) {
    Say("  UNEXPECTED: A committed under serializable isolation");
  } else {
    Say("  A was refused (exit status 3 from the command line):");
    Say("    " + a1.error().message);
  }
  auto ids = OrderIds(table, "country = 'DE' AND order_id % 2 = 0 AND order_id > 999999");
  if (!ids) return fail(ids.error());
  auto de_even_after = Count(table, "country = 'DE' AND order_id % 2 = 0");
  if (!de_even_after) return fail(de_even_after.error());
  Say("  rows now: " + std::to_string(*de_even_after) + " even German orders (A deleted nothing); B's orders " +
      IdList(*ids) + " are there.");

  Heading("2b. Snapshot isolation: the same race, both commit");
  if (auto r = table.SetProperties({{"write.delete.isolation-level", "snapshot"}}); !r) return fail(r.error());
  Say("  set write.delete.isolation-level = snapshot");
  const std::string b2 = "demo-input/b-second.csv";
  if (auto st = WriteBFile(b2, 1000006, 1000008); !st) return fail(st.error());
  auto a2 = DeleteWithBHalfWay(table, uri, b2);
  if (!a2) return fail(a2.error());
  Say("  A committed: " + std::to_string(a2->rows_deleted) + " rows deleted, " + std::to_string(a2->files_removed) +
      " files rewritten; " + a2->summary);
  ids = OrderIds(table, "country = 'DE' AND order_id % 2 = 0");
  if (!ids) return fail(ids.error());
  bool snapshot_ok = *ids == std::vector<int64_t>{1000006, 1000008};
  Say("  even German orders left: " + IdList(*ids) +
      " -- B's two new rows survive; everything that existed when A started is gone.");

  Heading("3. Two appends from the same stale snapshot");
  auto other = Connection::Open(uri);  // Y's own connection: it commits as another process would
  if (!other) return fail(other.error());
  auto y_table = other->GetTable(name);
  if (!y_table) return fail(y_table.error());
  auto stale = MainSnapshot(table);
  if (!stale) return fail(stale.error());
  Say("  X and Y both start from snapshot " + std::to_string(*stale));
  const Rows x_rows = Orders(2000000, 3);
  const Rows y_rows = Orders(3000000, 3);
  WriteOptions x_options;
  int64_t y_snapshot = 0;
  x_options.before_swap = [&](int attempt) {
    if (attempt != 1) return;
    auto y = y_table->Append(y_rows);
    if (y) y_snapshot = y->snapshot_id;
    Say("  Y swapped first: snapshot " + std::to_string(y_snapshot));
  };
  auto x = table.Append(x_rows, x_options);
  if (!x) return fail(x.error());
  Say("  X lost the swap, rebuilt only its manifest list on top of Y and landed: " + x->summary);
  auto both = Count(table, "order_id >= 2000000");
  if (!both) return fail(both.error());
  bool appends_ok = *both == 6 && x->attempts == 2;
  Say("  rows of X and Y present: " + std::to_string(*both) + " of 6");

  Heading("4. An orchestrator re-runs a batch with an idempotency key");
  const Rows batch = Orders(4000000, 5);
  WriteOptions keyed;
  keyed.idempotency_key = "orders-2026-01-02";
  auto first = table.Append(batch, keyed);
  if (!first) return fail(first.error());
  Say("  first run:  committed snapshot " + std::to_string(first->snapshot_id) + " with key orders-2026-01-02");
  auto snapshots_before = table.Snapshots();
  if (!snapshots_before) return fail(snapshots_before.error());
  auto again = table.Append(batch, keyed);
  if (!again) return fail(again.error());
  auto snapshots_after = table.Snapshots();
  if (!snapshots_after) return fail(snapshots_after.error());
  Say(std::string("  second run: ") + (again->idempotent_replay ? "no-op, " : "COMMITTED AGAIN, ") +
      "returned snapshot " + std::to_string(again->snapshot_id) + "; snapshots before/after: " +
      std::to_string(snapshots_before->size()) + "/" + std::to_string(snapshots_after->size()));
  auto batch_rows = Count(table, "order_id >= 4000000");
  if (!batch_rows) return fail(batch_rows.error());
  bool idempotent_ok =
      again->idempotent_replay && *batch_rows == 5 && snapshots_before->size() == snapshots_after->size();
  Say("  the batch's rows are in the table once: " + std::to_string(*batch_rows) + " of 5");

  Heading("Summary");
  Say(std::string("  serializable delete refused, naming B's file:  ") + (serializable_refused ? "yes" : "NO"));
  Say(std::string("  snapshot isolation: both commit, B's rows kept: ") + (snapshot_ok ? "yes" : "NO"));
  Say(std::string("  two stale appends both land:                   ") + (appends_ok ? "yes" : "NO"));
  Say(std::string("  idempotent re-run is a no-op:                  ") + (idempotent_ok ? "yes" : "NO"));
  std::snprintf(line, sizeof line, "  (%.1f s in all; look around with: floe snapshots demo.orders, floe scan "
                "demo.orders --limit 10)", (NowMicros() - start) / 1e6);
  Say(line);
  return serializable_refused && snapshot_ok && appends_ok && idempotent_ok ? kExitOk : kExitError;
}

}  // namespace

void RegisterDemoCommand(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* demo = app.add_subcommand("demo", "run the commit demo in ./warehouse (writers racing, isolation, idempotency)");
  OnRun(demo, exit_status, [&ctx] { return RunDemo(ctx); });
}

}  // namespace floe::cli
