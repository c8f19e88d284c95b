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

#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "cli/legacy_catalog.h"
#include "expr/parser.h"
#include "scan/table_scan.h"
#include "rows/row_writes.h"
#include "types/partition_spec.h"
#include "types/schema_text.h"
#include "util/clock.h"

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

Result<ColumnBatch> Orders(const Schema& schema, int64_t first, int64_t count) {
  ColumnBatch batch(schema);
  for (auto& c : batch.columns) c.Reserve(static_cast<size_t>(count));
  const int64_t day0 = 20454LL * 86400 * 1000000;  // 2026-01-01T00:00:00
  for (int64_t i = first; i < first + count; ++i) {
    batch.columns[0].longs.push_back(i);
    const char* country = kCountries[i % 3];
    batch.columns[1].bytes += country;
    batch.columns[1].offsets.push_back(static_cast<uint32_t>(batch.columns[1].bytes.size()));
    batch.columns[2].longs.push_back((i * 7919) % 100000);
    batch.columns[3].longs.push_back(day0 + (i % (86400 * 30)) * 1000000);
  }
  for (auto& c : batch.columns) c.length = static_cast<size_t>(count);
  batch.num_rows = static_cast<size_t>(count);
  return batch;
}

Result<int64_t> Count(Catalog& catalog, const TableIdentifier& id, const std::string& where) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable t, catalog.LoadTable(id));
  ScanOptions options;
  options.filter_text = where;
  FLOE_ASSIGN_OR_RETURN(ColumnBatch rows, ReadTable(*catalog.io(), t.metadata, options));
  return static_cast<int64_t>(rows.num_rows);
}

Result<std::vector<int64_t>> OrderIds(Catalog& catalog, const TableIdentifier& id, const std::string& where) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable t, catalog.LoadTable(id));
  ScanOptions options;
  options.filter_text = where;
  options.columns = {"order_id"};
  FLOE_ASSIGN_OR_RETURN(ColumnBatch rows, ReadTable(*catalog.io(), t.metadata, options));
  std::vector<int64_t> ids(rows.columns[0].longs.begin(), rows.columns[0].longs.end());
  std::sort(ids.begin(), ids.end());
  return ids;
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
Result<RowWriteResult> DeleteWithBHalfWay(Catalog& catalog, const TableIdentifier& id, const std::string& catalog_uri,
                                          const std::string& b_file) {
  const std::string where = "country = 'DE' AND order_id % 2 = 0";
  FLOE_ASSIGN_OR_RETURN(Expr filter, ParseFilter(where));
  RowWriteOptions options;
  options.after_files_written = [&] {
    Say("  A has read the German files and written their rewritten versions; A's commit is next.");
    Say("  B (another process) now runs: floe append " + id.ToString() + " " + b_file);
    int status = RunFloe({"--catalog", catalog_uri, "append", id.ToString(), b_file});
    Say("  B exited with status " + std::to_string(status) + ".");
  };
  Say("  A runs: DELETE FROM " + id.ToString() + " WHERE " + where + "  (copy-on-write)");
  return DeleteWhere(catalog, id, filter, options);
}

int RunDemo(CliContext& ctx) {
  const int64_t start = MonotonicMicros();
  auto catalog_result = LegacyCatalog(ctx);
  if (!catalog_result) return ctx.Fail(catalog_result.error());
  Catalog& catalog = **catalog_result;
  std::string uri = ctx.catalog_uri;
  if (uri.empty()) {
    const char* env = std::getenv("FLOE_CATALOG");
    uri = env ? env : "sqlite://" + std::filesystem::absolute("warehouse/catalog.db").string();
  }
  const TableIdentifier id{{"demo"}, "orders"};
  auto fail = [&](const Error& e) { return ctx.Fail(e); };

  Heading("1. A 1,000,000-row orders table, partitioned by country");
  if (auto exists = catalog.NamespaceExists({"demo"}); exists && !*exists) {
    if (auto st = catalog.CreateNamespace({"demo"}, {}); !st) return fail(st.error());
  }
  if (auto exists = catalog.TableExists(id); exists && *exists) {
    Say("  (dropping the demo.orders of an earlier run)");
    if (auto st = catalog.DropTable(id, true); !st) return fail(st.error());
  }
  auto schema = ParseSchemaText("order_id long not null, country string, amount_cents long, ts timestamp");
  CreateTableRequest request;
  request.schema = *schema;
  request.spec = PartitionSpec(0, *ParsePartitionFields("country", *schema, PartitionSpec::kFirstFieldId));
  auto created = catalog.CreateTable(id, request);
  if (!created) return fail(created.error());
  const Schema& table_schema = created->metadata.CurrentSchema();
  int64_t t0 = MonotonicMicros();
  int64_t next = 0;
  auto loaded = AppendRows(catalog, id, [&](ColumnBatch* batch) -> Result<bool> {
    if (next >= kRows) return false;
    int64_t n = std::min<int64_t>(250000, kRows - next);
    FLOE_ASSIGN_OR_RETURN(*batch, Orders(table_schema, next, n));
    next += n;
    return true;
  });
  if (!loaded) return fail(loaded.error());
  char line[256];
  std::snprintf(line, sizeof line, "  appended %lld rows in %lld files in %.2f s (snapshot %lld)",
                static_cast<long long>(loaded->rows_added), static_cast<long long>(loaded->files_added),
                (MonotonicMicros() - t0) / 1e6, static_cast<long long>(loaded->commit.snapshot_id));
  Say(line);
  auto de_even = Count(catalog, id, "country = 'DE' AND order_id % 2 = 0");
  if (!de_even) return fail(de_even.error());
  Say("  even German orders: " + std::to_string(*de_even));

  Heading("2a. Serializable (the default): A's delete races B's append");
  std::filesystem::create_directories("demo-input");
  const std::string b1 = "demo-input/b-first.csv";
  if (auto st = WriteBFile(b1, 1000002, 1000004); !st) return fail(st.error());
  auto a1 = DeleteWithBHalfWay(catalog, id, uri, b1);
  bool serializable_refused = !a1.has_value() && a1.error().kind == ErrorKind::kValidationFailed;
  if (a1) {
    Say("  UNEXPECTED: A committed under serializable isolation");
  } else {
    Say("  A was refused (exit status 3 from the command line):");
    Say("    " + a1.error().message);
  }
  auto ids = OrderIds(catalog, id, "country = 'DE' AND order_id % 2 = 0 AND order_id > 999999");
  if (!ids) return fail(ids.error());
  auto de_even_after = Count(catalog, id, "country = 'DE' AND order_id % 2 = 0");
  if (!de_even_after) return fail(de_even_after.error());
  Say("  rows now: " + std::to_string(*de_even_after) + " even German orders (A deleted nothing); B's orders " +
      IdList(*ids) + " are there.");

  Heading("2b. Snapshot isolation: the same race, both commit");
  TableCommit set_isolation{id, {}, {SetProperties{{{"write.delete.isolation-level", "snapshot"}}}}};
  if (auto r = catalog.CommitTable(set_isolation); !r) return fail(r.error());
  Say("  set write.delete.isolation-level = snapshot");
  const std::string b2 = "demo-input/b-second.csv";
  if (auto st = WriteBFile(b2, 1000006, 1000008); !st) return fail(st.error());
  auto a2 = DeleteWithBHalfWay(catalog, id, uri, b2);
  if (!a2) return fail(a2.error());
  Say("  A committed: " + std::to_string(a2->rows_deleted) + " rows deleted, " + std::to_string(a2->files_removed) +
      " files rewritten; " + a2->commit.ToString());
  ids = OrderIds(catalog, id, "country = 'DE' AND order_id % 2 = 0");
  if (!ids) return fail(ids.error());
  bool snapshot_ok = *ids == std::vector<int64_t>{1000006, 1000008};
  Say("  even German orders left: " + IdList(*ids) +
      " -- B's two new rows survive; everything that existed when A started is gone.");

  Heading("3. Two appends from the same stale snapshot");
  CatalogOptions other_options;
  other_options.commit_scheduler = catalog.commit_scheduler();
  auto other = OpenCatalog(uri, other_options);
  if (!other) return fail(other.error());
  auto stale = catalog.LoadTable(id);
  if (!stale) return fail(stale.error());
  Say("  X and Y both start from snapshot " + std::to_string(stale->metadata.CurrentSnapshot()->snapshot_id));
  auto x_rows = Orders(table_schema, 2000000, 3);
  auto y_rows = Orders(table_schema, 3000000, 3);
  RowWriteOptions x_options;
  int64_t y_snapshot = 0;
  x_options.commit.before_swap = [&](int attempt) {
    if (attempt != 1) return;
    auto y = AppendBatch(**other, id, *y_rows);
    if (y) y_snapshot = y->commit.snapshot_id;
    Say("  Y swapped first: snapshot " + std::to_string(y_snapshot));
  };
  auto x = AppendBatch(catalog, id, *x_rows, x_options);
  if (!x) return fail(x.error());
  Say("  X lost the swap, rebuilt only its manifest list on top of Y and landed: " + x->commit.ToString());
  auto both = Count(catalog, id, "order_id >= 2000000");
  if (!both) return fail(both.error());
  bool appends_ok = *both == 6 && x->commit.attempts == 2;
  Say("  rows of X and Y present: " + std::to_string(*both) + " of 6");

  Heading("4. An orchestrator re-runs a batch with an idempotency key");
  auto batch = Orders(table_schema, 4000000, 5);
  RowWriteOptions keyed;
  keyed.commit.idempotency_key = "orders-2026-01-02";
  auto first = AppendBatch(catalog, id, *batch, keyed);
  if (!first) return fail(first.error());
  Say("  first run:  committed snapshot " + std::to_string(first->commit.snapshot_id) + " with key orders-2026-01-02");
  auto snapshots_before = catalog.LoadTable(id)->metadata.snapshots.size();
  auto again = AppendBatch(catalog, id, *batch, keyed);
  if (!again) return fail(again.error());
  auto snapshots_after = catalog.LoadTable(id)->metadata.snapshots.size();
  Say(std::string("  second run: ") + (again->commit.idempotent_replay ? "no-op, " : "COMMITTED AGAIN, ") +
      "returned snapshot " + std::to_string(again->commit.snapshot_id) + "; snapshots before/after: " +
      std::to_string(snapshots_before) + "/" + std::to_string(snapshots_after));
  auto batch_rows = Count(catalog, id, "order_id >= 4000000");
  if (!batch_rows) return fail(batch_rows.error());
  bool idempotent_ok = again->commit.idempotent_replay && *batch_rows == 5 && snapshots_before == snapshots_after;
  Say("  the batch's rows are in the table once: " + std::to_string(*batch_rows) + " of 5");

  Heading("Summary");
  Say(std::string("  serializable delete refused, naming B's file:  ") + (serializable_refused ? "yes" : "NO"));
  Say(std::string("  snapshot isolation: both commit, B's rows kept: ") + (snapshot_ok ? "yes" : "NO"));
  Say(std::string("  two stale appends both land:                   ") + (appends_ok ? "yes" : "NO"));
  Say(std::string("  idempotent re-run is a no-op:                  ") + (idempotent_ok ? "yes" : "NO"));
  std::snprintf(line, sizeof line, "  (%.1f s in all; look around with: floe snapshots demo.orders, floe scan "
                "demo.orders --limit 10)", (MonotonicMicros() - start) / 1e6);
  Say(line);
  return serializable_refused && snapshot_ok && appends_ok && idempotent_ok ? kExitOk : kExitError;
}

}  // namespace

void RegisterDemoCommand(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* demo = app.add_subcommand("demo", "run the commit demo in ./warehouse (writers racing, isolation, idempotency)");
  OnRun(demo, exit_status, [&ctx] { return RunDemo(ctx); });
}

}  // namespace floe::cli
