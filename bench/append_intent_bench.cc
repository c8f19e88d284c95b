// What write intents cost an append: the same small appends (AppendBatch of a few rows, one data
// file each) to two tables of one catalog, one recording intents and one with
// floe.write-intents.enabled=false, interleaved in rounds so both see the same machine load.
// Reports each table's append latency (p50, mean, p99 in ms) and the intent requests made
// (each a durable catalog write: an fsync'd SQLite transaction, or an object created or deleted).
// With "s3", the storage catalog with its warehouse on the S3 server of FLOE_TEST_S3_ENDPOINT
// (`bash scripts/s3.sh start`, then export build/s3.env): it also reports the S3 requests each
// append made, by kind.
//
// With "add-files" as the fourth argument each append commits a data file written beforehand
// (untimed, by a DataWriter given no namer, as add-files and library callers commit files of
// their own): the commit's own write intent then names only its manifests, manifest list and
// (SQL) metadata document.
//
// Usage: append_intent_bench [appends_per_round=50] [rounds=6] [sqlite|storage|both|s3] [rows|add-files]
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/intent_store.h"
#include "io/s3_test_env.h"
#include "commit/commit_operation.h"
#include "commit/files_operation.h"
#include "commit/operations.h"
#include "rows/row_writes.h"
#include "types/schema_text.h"
#include "util/clock.h"
#include "util/uuid.h"
#include "write/data_writer.h"
#include "bench_must.h"

using namespace floe;

namespace {

using bench::Must;

struct Side {
  TableIdentifier id;
  std::vector<double> ms;
  int64_t intent_requests = 0;
  S3RequestCounts s3;  // requests of its appends, on S3
};

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * v.size()))];
}

void Bench(const std::string& kind, int per_round, int rounds, bool add_files) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("floe-append-intents-" + RandomUuidString().substr(0, 8))).string();
  std::filesystem::create_directories(dir);
  std::string uri = kind == "sqlite" ? "sqlite://" + dir + "/catalog.db?warehouse=" + dir + "/warehouse"
                                     : "file://" + dir + "/warehouse";
  CatalogOptions catalog_options;
  std::shared_ptr<S3FileIO> s3;
  if (kind == "s3") {
    s3 = TestS3FileIO();
    if (!s3) bench::Die(std::string("s3: ") + kNoS3Message);
    uri = TestS3Prefix("append-intent-bench") + "?" + TestS3UriParams();
    catalog_options.io = s3;
  }
  auto catalog = Must(OpenCatalog(uri, catalog_options));
  IntentStore* store = IntentStoreOf(*catalog);
  if (!store) bench::Die(kind + " catalog keeps no intents");
  Must(catalog->CreateNamespace({"bench"}, {}));
  const Schema schema = Must(ParseSchemaText("order_id long not null, note string"));
  Side with{{{"bench"}, "with_intents"}, {}, 0, {}}, without{{{"bench"}, "without_intents"}, {}, 0, {}};
  for (Side* side : {&with, &without}) {
    CreateTableRequest request;
    request.schema = schema;
    if (side == &without) request.properties[kWriteIntentsEnabled] = "false";
    Must(catalog->CreateTable(side->id, request));
  }
  ColumnBatch rows(schema);
  for (int64_t i = 0; i < 10; ++i) Must(rows.AppendRow({Literal::Long(i), Literal::String("x")}));
  RowWriteOptions options;
  options.merge_append = false;  // the same manifest work at every history length
  for (int round = 0; round < rounds; ++round) {
    // Alternate which goes first, so neither always follows the other's checkpoint.
    std::vector<Side*> order = round % 2 == 0 ? std::vector<Side*>{&with, &without} : std::vector<Side*>{&without, &with};
    for (Side* side : order) {
      const int64_t requests0 = store->intent_requests();
      for (int i = 0; i < per_round; ++i) {
        std::optional<FilesOperation> files;
        if (add_files) {
          const LoadedTable table = Must(catalog->LoadTable(side->id));  // the writer keeps a reference
          DataWriter writer(*catalog->io(), table.metadata);
          Must(writer.Write(rows));
          files.emplace(FastAppend(Must(writer.Finish())));
        }
        const S3RequestCounts s3_0 = s3 ? s3->RequestCounts() : S3RequestCounts{};
        const int64_t t = MonotonicMicros();
        if (files) {
          Must(CommitOperation(*catalog, side->id, *files));
        } else {
          Must(AppendBatch(*catalog, side->id, rows, options));
        }
        side->ms.push_back((MonotonicMicros() - t) / 1000.0);
        if (s3) side->s3 += s3->RequestCounts() - s3_0;
      }
      side->intent_requests += store->intent_requests() - requests0;
    }
  }
  for (Side* side : {&with, &without}) {
    double sum = 0;
    for (double m : side->ms) sum += m;
    std::printf("| %s | %s | %zu | %.2f | %.2f | %.2f | %.2f |\n", kind.c_str(),
                side == &with ? "recorded" : "off (floe.write-intents.enabled=false)", side->ms.size(),
                Percentile(side->ms, 0.5), sum / side->ms.size(), Percentile(side->ms, 0.99),
                static_cast<double>(side->intent_requests) / side->ms.size());
  }
  if (s3) {
    std::printf("\nS3 requests per append:\n\n| intents | total | PUT | GET | HEAD | LIST | POST (DeleteObjects) | DELETE |\n"
                "|---|---|---|---|---|---|---|---|\n");
    for (Side* side : {&with, &without}) {
      const double n = static_cast<double>(side->ms.size());
      const S3RequestCounts& c = side->s3;
      std::printf("| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", side == &with ? "recorded" : "off",
                  c.Total() / n, c.put / n, c.get / n, c.head / n, c.list / n, c.post / n, c.del / n);
    }
  }
  std::fflush(stdout);
  const S3RequestCounts before_close = s3 ? s3->RequestCounts() : S3RequestCounts{};
  catalog.reset();
  if (s3) {
    // What closing the catalog sent (work it deferred), once for all the appends above.
    std::printf("\nS3 requests when the catalog closed: %lld\n",
                static_cast<long long>((s3->RequestCounts() - before_close).Total()));
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace

int main(int argc, char** argv) {
  const int per_round = argc > 1 ? std::atoi(argv[1]) : 50;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 6;
  const std::string which = argc > 3 ? argv[3] : "both";
  const bool add_files = argc > 4 && std::string(argv[4]) == "add-files";
  std::printf("### %s with and without write intents (%d rounds of %d each, %s)\n\n",
              add_files ? "Latency of commits of data files written beforehand" : "Append latency", rounds, per_round,
              which == "s3" ? "storage catalog on S3" : "local disk");
  std::printf("| catalog | intents | appends | p50 ms | mean ms | p99 ms | intent requests per append |\n"
              "|---|---|---|---|---|---|---|\n");
  if (which == "sqlite" || which == "both") Bench("sqlite", per_round, rounds, add_files);
  if (which == "storage" || which == "both") Bench("storage", per_round, rounds, add_files);
  if (which == "s3") Bench("s3", per_round, rounds, add_files);
  return 0;
}
