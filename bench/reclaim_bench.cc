// Reclaiming what killed writers left (issue 19, item 3), printed as Markdown for
// bench/RESULTS.md: a table of N committed data files (default 100,000) and K writers (default
// 100) that each recorded their intent, created two data files and a manifest, and died. Then
// the listing sweep (remove-orphan-files) and the listing-free one (--from-intents), each
// timed and counted in storage requests, on the same table (the leftovers are made again
// between the two). The SQL catalog keeps intents in its database; the storage catalog keeps
// them as objects under metadata/floe-intents/, so there every intent request is a storage
// request too.
//
// Committed data files are a few bytes each (neither sweep opens a data file, only manifests).
// Storage requests are counted by a FaultInjectingFileIO without rules; a listing is one call
// on local disk, and on S3 it would be one LIST request per 1,000 keys returned: that column
// is computed from the files the listing returned.
//
// With "s3", the storage catalog with its warehouse on the S3 server of FLOE_TEST_S3_ENDPOINT
// (`bash scripts/s3.sh start`, then export the line of build/s3.env): there every FileIO call
// is a request, and a listing one LIST per 1,000 keys.
//
// Usage: reclaim_bench [files=100000] [writers=100] [sqlite|storage|both|s3]
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "catalog/catalog.h"
#include "catalog/intent_store.h"
#include "io/fault_injecting_file_io.h"
#include "io/local_file_io.h"
#include "io/s3_test_env.h"
#include "maint/intent_reclamation.h"
#include "maint/orphan_files.h"
#include "txn/commit_loop.h"
#include "txn/operations.h"
#include "types/schema_text.h"
#include "util/clock.h"
#include "util/uuid.h"
#include "bench_must.h"

using namespace floe;

namespace {

const TableIdentifier kTable{{"bench"}, "orders"};

using bench::Die;
using bench::Must;

// An object of one byte (the bench's data files and leftovers: only their names matter).
void Touch(FileIO& io, const std::string& path) { Must(io.CreateIfAbsent(path, "x")); }

// `files` committed data files in commits of 1,000 (one manifest each).
void FillTable(Catalog& catalog, int files) {
  auto table = Must(catalog.LoadTable(kTable));
  const std::string data = table.metadata.location + "/data/";
  for (int done = 0; done < files;) {
    std::vector<DataFile> batch;
    for (int i = 0; i < 1000 && done < files; ++i, ++done) {
      DataFile f;
      f.file_path = data + RandomUuidString() + ".parquet";
      f.file_format = FileFormat::kParquet;
      f.record_count = 1;
      f.file_size_in_bytes = 1;
      Touch(*catalog.io(), f.file_path);
      batch.push_back(std::move(f));
    }
    FilesOperation op(FastAppend(std::move(batch)));
    Must(CommitOperation(catalog, kTable, op));
  }
}

// What `writers` killed writers leave: each recorded its names (as a writer does, through its
// FileNamer), created two data files and a manifest, and never committed nor cleared.
void KilledWriters(Catalog& catalog, int writers) {
  auto table = Must(catalog.LoadTable(kTable));
  for (int w = 0; w < writers; ++w) {
    auto names = NewWriteNamer(catalog, kTable, table.metadata);
    for (int i = 0; i < 2; ++i) Touch(*catalog.io(), Must(names->NewPath(table.metadata.location + "/data", "", ".parquet")));
    Touch(*catalog.io(), Must(names->NewPath(table.metadata.location + "/metadata", "", "-m0.avro")));
    names.release();  // a killed writer clears nothing (leaked on purpose: it "died")
  }
}

struct Run {
  double ms = 0;
  int64_t deleted = 0;
  int64_t listings = 0, listed = 0, reads = 0, deletes = 0, creates = 0, intent_requests = 0;
};

int64_t Requests(const FaultInjectingFileIO& io, FileOp op) { return io.Calls(op); }

template <typename F>
Run Measure(Catalog& catalog, FaultInjectingFileIO& io, F sweep) {
  IntentStore* store = IntentStoreOf(catalog);
  const int64_t intents0 = store->intent_requests();
  const int64_t l0 = Requests(io, FileOp::kListPrefix), r0 = Requests(io, FileOp::kReadAll) +
                                                                 Requests(io, FileOp::kNewInputFile),
                d0 = Requests(io, FileOp::kDelete), c0 = Requests(io, FileOp::kCreateIfAbsent);
  const int64_t start = MonotonicMicros();
  OrphanOptions options;
  options.older_than_ms = NowMillis();
  OrphanResult result = Must(sweep(options));
  Run run;
  run.ms = (MonotonicMicros() - start) / 1000.0;
  run.deleted = static_cast<int64_t>(result.orphans.size());
  run.listings = Requests(io, FileOp::kListPrefix) - l0;
  run.listed = result.files_listed;
  run.reads = Requests(io, FileOp::kReadAll) + Requests(io, FileOp::kNewInputFile) - r0;
  run.deletes = Requests(io, FileOp::kDelete) - d0;
  run.creates = Requests(io, FileOp::kCreateIfAbsent) - c0;
  run.intent_requests = store->intent_requests() - intents0;
  return run;
}

void Bench(const std::string& kind, int files, int writers) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("floe-reclaim-" + RandomUuidString().substr(0, 8))).string();
  std::filesystem::create_directories(dir);
  std::shared_ptr<FileIO> storage = std::make_shared<LocalFileIO>();
  std::string uri = kind == "sqlite" ? "sqlite://" + dir + "/catalog.db?warehouse=" + dir + "/warehouse"
                                     : "file://" + dir + "/warehouse";
  if (kind == "s3") {
    // The storage catalog with its warehouse on the S3 server of FLOE_TEST_S3_ENDPOINT (moto).
    storage = TestS3FileIO();
    if (!storage) Die(std::string("s3: ") + kNoS3Message);
    uri = TestS3Prefix("reclaim-bench") + "?" + TestS3UriParams();
  }
  auto io = std::make_shared<FaultInjectingFileIO>(storage);
  CatalogOptions options;
  options.io = io;
  auto catalog = Must(OpenCatalog(uri, options));
  Must(catalog->CreateNamespace({"bench"}, {}));
  CreateTableRequest request;
  request.schema = Must(ParseSchemaText("order_id long not null"));
  Must(catalog->CreateTable(kTable, request));
  const int64_t t0 = MonotonicMicros();
  FillTable(*catalog, files);
  std::fprintf(stderr, "reclaim_bench: %s table of %d files made in %.0f s\n", kind.c_str(), files,
               (MonotonicMicros() - t0) / 1e6);

  KilledWriters(*catalog, writers);
  Run by_intents = Measure(*catalog, *io, [&](const OrphanOptions& o) { return ReclaimFromIntents(*catalog, kTable, o); });
  KilledWriters(*catalog, writers);
  Run by_listing = Measure(*catalog, *io, [&](const OrphanOptions& o) { return RemoveOrphanFiles(*catalog, kTable, o); });
  // The listing sweep leaves the intents of the second round (they name deleted files): the
  // next --from-intents run clears them without deleting anything that exists.

  auto row = [&](const char* how, const Run& r) {
    const int64_t s3_lists = r.listings == 0 ? 0 : std::max<int64_t>(r.listings, (r.listed + 999) / 1000);
    std::printf("| %s | %s | %.0f | %lld | %lld | %lld | %lld | %lld | %lld |\n", kind.c_str(), how, r.ms,
                static_cast<long long>(r.deleted), static_cast<long long>(r.listed), static_cast<long long>(s3_lists),
                static_cast<long long>(r.reads), static_cast<long long>(r.deletes),
                static_cast<long long>(r.intent_requests));
  };
  row("listing (remove-orphan-files)", by_listing);
  row("intents (--from-intents)", by_intents);
  std::fflush(stdout);
  catalog.reset();
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace

int main(int argc, char** argv) {
  const int files = argc > 1 ? std::atoi(argv[1]) : 100000;
  const int writers = argc > 2 ? std::atoi(argv[2]) : 100;
  const std::string which = argc > 3 ? argv[3] : "both";
  std::printf("### Reclaiming what %d killed writers left in a table of %d files (%s)\n\n", writers, files,
              which == "s3" ? "storage catalog on S3" : "local disk");
  std::printf("| catalog | sweep | ms | files deleted | files listed | LIST requests on S3 (1,000 keys each) | "
              "file reads | file deletes | intent requests |\n|---|---|---|---|---|---|---|---|---|\n");
  if (which == "sqlite" || which == "both") Bench("sqlite", files, writers);
  if (which == "storage" || which == "both") Bench("storage", files, writers);
  if (which == "s3") Bench("s3", files, writers);
  return 0;
}
