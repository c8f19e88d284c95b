// A merge-on-read delete on a format 3 table that loses its race to another delete of other rows
// of the same data files (issue 37): what its retry costs now (read the winner's vectors, merge,
// write one Puffin file, rebuild metadata) against what a redo costs (plan, read every row of
// the files again, write the vectors, commit: measured as the same delete run alone).
//
// The table: ROWS rows in 4 data files (partitioned by country). A deletes 1% of the rows (a run
// of order ids, so rows of every file); B, inside A's commit (after A wrote its vectors, before
// its swap), deletes another 1%. Printed: A's read-and-write phase, its retry after B landed,
// and the same delete run alone on an identical table. Median of RUNS.
//
// Usage: deletion_vector_merge_bench [ROWS=2000000] [RUNS=3]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "expr/parser.h"
#include "rows/row_writes.h"
#include "types/partition_spec.h"
#include "types/schema_text.h"
#include "util/uuid.h"
#include "bench_must.h"

using namespace floe;

namespace {

const TableIdentifier kTable{{"bench"}, "orders"};
const char* kCountries[] = {"DE", "FR", "PL", "IT"};

using bench::Must;
using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

struct Table {
  std::string dir, uri;
  explicit Table(int64_t rows) {
    dir = (std::filesystem::temp_directory_path() / ("floe-dvmerge-" + RandomUuidString().substr(0, 12))).string();
    std::filesystem::create_directories(dir);
    uri = "sqlite://" + dir + "/catalog.db";
    auto catalog = Must(OpenCatalog(uri));
    (void)catalog->CreateNamespace({"bench"}, {});
    CreateTableRequest request;
    request.schema = Must(ParseSchemaText("order_id long not null, country string, amount_cents long"));
    request.spec =
        PartitionSpec(0, Must(ParsePartitionFields("country", request.schema, PartitionSpec::kFirstFieldId)));
    request.format_version = 3;
    request.properties["write.delete.mode"] = "merge-on-read";
    request.properties["write.delete.isolation-level"] = "snapshot";
    // Short backoff, so that the retry's own work shows, not its wait.
    request.properties["commit.retry.min-wait-ms"] = "1";
    request.properties["commit.retry.max-wait-ms"] = "5";
    Must(catalog->CreateTable(kTable, request));
    ColumnBatch batch(request.schema);
    for (int64_t i = 0; i < rows; ++i)
      Must(batch.AppendRow({Literal::Long(i), Literal::String(kCountries[i % 4]), Literal::Long(i % 1000)}));
    Must(AppendBatch(*catalog, kTable, batch));
  }
  ~Table() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

Expr Percent(int64_t rows, int k) {
  const int64_t from = k * rows / 100, to = (k + 1) * rows / 100;
  return Must(ParseFilter("order_id >= " + std::to_string(from) + " AND order_id < " + std::to_string(to)));
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t rows = argc > 1 ? std::stoll(argv[1]) : 2000000;
  const int runs = argc > 2 ? std::stoi(argv[2]) : 3;
  std::vector<double> first_ms, retry_ms, alone_ms;
  int merges = 0, rebases = 0;
  for (int run = 0; run < runs; ++run) {
    {
      Table table(rows);
      auto a = Must(OpenCatalog(table.uri));
      auto b = Must(OpenCatalog(table.uri));
      RowWriteOptions options;
      Clock::time_point started = Clock::now(), b_landed;
      bool hooked = false;
      options.commit.before_swap = [&](int) {
        if (hooked) return;
        hooked = true;
        first_ms.push_back(MsSince(started));
        Must(DeleteWhere(*b, kTable, Percent(rows, 50)));
        b_landed = Clock::now();
      };
      RowWriteResult r = Must(DeleteWhere(*a, kTable, Percent(rows, 10), options));
      retry_ms.push_back(MsSince(b_landed));
      merges += r.vector_merges;
      rebases += r.rebases;
    }
    {
      Table table(rows);
      auto a = Must(OpenCatalog(table.uri));
      Must(DeleteWhere(*a, kTable, Percent(rows, 50)));  // the same state the retry saw
      const auto t = Clock::now();
      Must(DeleteWhere(*a, kTable, Percent(rows, 10)));
      alone_ms.push_back(MsSince(t));
    }
  }
  std::printf("%lld rows in 4 data files, delete of 1%% losing to another 1%% delete, median of %d runs\n",
              static_cast<long long>(rows), runs);
  std::printf("| phase | ms |\n|---|---|\n");
  std::printf("| A's first try until its swap (plan, read, write vectors) | %.1f |\n", Median(first_ms));
  std::printf("| A's retry after B landed (merged %d times, redone %d times over all runs) | %.1f |\n", merges,
              rebases, Median(retry_ms));
  std::printf("| the same delete alone on B's state (what a redo costs) | %.1f |\n", Median(alone_ms));
  return 0;
}
