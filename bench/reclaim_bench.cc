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
// On local disk, storage requests are counted by a FaultInjectingFileIO without rules; a listing
// is one call there, and on S3 it would be one LIST request per 1,000 keys returned: that
// column is computed from the files the listing returned.
//
// With "s3", the storage catalog with its warehouse on the S3 server of FLOE_TEST_S3_ENDPOINT
// (`bash scripts/s3.sh start`, then export the line of build/s3.env): there every FileIO call
// is a request, and a listing one LIST per 1,000 keys; the S3 requests sent are counted by
// kind. moto answers one request at a time (~40 a second here), so the committed data files'
// objects (1,000 per commit) are made by the test server's bulk seed in one request per commit
// (scripts/s3_server.py --bulk-seed): the same objects a PUT makes, made in seconds instead of
// most of an hour. Everything else (manifests, manifest lists, metadata, the killed writers'
// intents and files) is written by floe as in the other modes. "all" runs sqlite, storage and
// s3 one after the other.
//
// Usage: reclaim_bench [files=100000] [writers=100] [sqlite|storage|both|s3|all]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/intent_store.h"
#include "io/fault_injecting_file_io.h"
#include "io/local_file_io.h"
#include "io/s3_bulk_seed_for_tests.h"
#include "io/s3_client.h"
#include "io/s3_test_env.h"
#include "maint/intent_reclamation.h"
#include "maint/orphan_files.h"
#include "commit/commit_operation.h"
#include "commit/operations.h"
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

// The paths of `count` new data files of one byte under `data` (a folder URI ending in "/"):
// created one by one through the FileIO, or on S3 with `seed_endpoint` by one bulk-seed request.
std::vector<std::string> NewDataObjects(FileIO& io, const std::string& data, int count, const char* seed_endpoint) {
  std::vector<std::string> paths;
  if (seed_endpoint == nullptr) {
    for (int i = 0; i < count; ++i) {
      paths.push_back(data + RandomUuidString() + ".parquet");
      Touch(io, paths.back());
    }
    return paths;
  }
  const S3Location folder = Must(ParseS3Location(data));
  const std::string prefix = folder.key + RandomUuidString() + "-";
  Must(S3BulkSeed(seed_endpoint, folder.bucket, prefix, count, ".parquet", "x"));
  for (int i = 0; i < count; ++i) {
    paths.push_back(folder.scheme + "://" + folder.bucket + "/" + S3BulkSeedKey(prefix, i, ".parquet"));
  }
  return paths;
}

// `files` committed data files in commits of 1,000 (one manifest each).
void FillTable(Catalog& catalog, int files, const char* seed_endpoint) {
  auto table = Must(catalog.LoadTable(kTable));
  const std::string data = table.metadata.location + "/data/";
  for (int done = 0; done < files;) {
    std::vector<DataFile> batch;
    for (std::string& path : NewDataObjects(*catalog.io(), data, std::min(1000, files - done), seed_endpoint)) {
      DataFile f;
      f.file_path = std::move(path);
      f.file_format = FileFormat::kParquet;
      f.record_count = 1;
      f.file_size_in_bytes = 1;
      batch.push_back(std::move(f));
      ++done;
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
  S3RequestCounts s3;  // the requests sent, on S3
};

// FileIO calls of one kind (none counted on S3, whose requests are counted by kind instead).
int64_t Requests(const FaultInjectingFileIO* io, FileOp op) { return io ? io->Calls(op) : 0; }

template <typename F>
Run Measure(Catalog& catalog, const FaultInjectingFileIO* io, const S3FileIO* s3, F sweep) {
  IntentStore* store = IntentStoreOf(catalog);
  const S3RequestCounts s3_0 = s3 ? s3->RequestCounts() : S3RequestCounts{};
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
  if (s3) run.s3 = s3->RequestCounts() - s3_0;
  return run;
}

// What one request costs on the test server with the table's objects in its bucket, median of 3:
// a LIST page of 1,000 keys of data/ and a GET of a small object. moto keeps a bucket's keys in a
// dictionary and, for every LIST page, walks and sorts all of them: its page costs grow with the
// bucket, where S3's do not, so a listing on moto costs more than on S3 (printed for that reason).
void MotoRequestTimes(Catalog& catalog, int files) {
  auto table = Must(catalog.LoadTable(kTable));
  const S3Location data = Must(ParseS3Location(table.metadata.location + "/data/"));
  const S3Location document = Must(ParseS3Location(table.metadata_location));
  S3Client client(*TestS3Config());
  auto median_ms = [&](const S3Request& request) {
    std::vector<double> ms;
    for (int i = 0; i < 3; ++i) {
      const int64_t start = MonotonicMicros();
      S3Response response = Must(client.Send(request, request.method + " " + request.bucket + "/" + request.key));
      if (response.status != 200) Die("moto answered " + std::to_string(response.status) + ": " + response.body);
      ms.push_back((MonotonicMicros() - start) / 1000.0);
    }
    std::sort(ms.begin(), ms.end());
    return ms[1];
  };
  S3Request list_page;
  list_page.method = "GET";
  list_page.bucket = data.bucket;
  list_page.query = {{"list-type", "2"}, {"prefix", data.key}};
  S3Request get;
  get.method = "GET";
  get.bucket = document.bucket;
  get.key = document.key;
  const double list_ms = median_ms(list_page);
  const double get_ms = median_ms(get);
  std::printf("\nmoto with the table's %d data objects in its bucket, median of 3: one LIST page of 1,000 keys "
              "%.0f ms, one GET of the metadata document %.0f ms.\n",
              files, list_ms, get_ms);
  std::fflush(stdout);
}

void Bench(const std::string& kind, int files, int writers) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("floe-reclaim-" + RandomUuidString().substr(0, 8))).string();
  std::filesystem::create_directories(dir);
  std::shared_ptr<FileIO> storage = std::make_shared<LocalFileIO>();
  std::shared_ptr<S3FileIO> s3;
  const char* seed_endpoint = nullptr;
  std::string uri = kind == "sqlite" ? "sqlite://" + dir + "/catalog.db?warehouse=" + dir + "/warehouse"
                                     : "file://" + dir + "/warehouse";
  if (kind == "s3") {
    // The storage catalog with its warehouse on the S3 server of FLOE_TEST_S3_ENDPOINT (moto).
    storage = s3 = TestS3FileIO();
    if (!storage) Die(std::string("s3: ") + kNoS3Message);
    seed_endpoint = std::getenv("FLOE_TEST_S3_ENDPOINT");
    uri = TestS3Prefix("reclaim-bench") + "?" + TestS3UriParams();
  }
  // On local disk a FaultInjectingFileIO without rules counts the FileIO calls. Not on S3: it
  // turns a DeleteFiles into one Delete per file, where the S3 FileIO sends one DeleteObjects per
  // 1,000 keys; there the S3 FileIO's own counts are the requests.
  std::shared_ptr<FaultInjectingFileIO> io = s3 ? nullptr : std::make_shared<FaultInjectingFileIO>(storage);
  CatalogOptions options;
  options.io = io ? std::shared_ptr<FileIO>(io) : storage;
  auto catalog = Must(OpenCatalog(uri, options));
  Must(catalog->CreateNamespace({"bench"}, {}));
  CreateTableRequest request;
  request.schema = Must(ParseSchemaText("order_id long not null"));
  Must(catalog->CreateTable(kTable, request));
  const int64_t t0 = MonotonicMicros();
  FillTable(*catalog, files, seed_endpoint);
  std::fprintf(stderr, "reclaim_bench: %s table of %d files made in %.0f s%s\n", kind.c_str(), files,
               (MonotonicMicros() - t0) / 1e6, seed_endpoint ? " (data objects by bulk seed)" : "");

  KilledWriters(*catalog, writers);
  Run by_intents = Measure(*catalog, io.get(), s3.get(), [&](const OrphanOptions& o) { return ReclaimFromIntents(*catalog, kTable, o); });
  KilledWriters(*catalog, writers);
  Run by_listing = Measure(*catalog, io.get(), s3.get(), [&](const OrphanOptions& o) { return RemoveOrphanFiles(*catalog, kTable, o); });
  // The listing sweep leaves the intents of the second round (they name deleted files): the
  // next --from-intents run clears them without deleting anything that exists.

  auto row = [&](const char* how, const Run& r) {
    const int64_t s3_lists = s3               ? r.s3.list
                             : r.listings == 0 ? 0
                                               : std::max<int64_t>(r.listings, (r.listed + 999) / 1000);
    std::string reads = std::to_string(r.reads), deletes = std::to_string(r.deletes), sent;
    if (s3) {
      reads = deletes = "-";
      sent = std::to_string(r.s3.Total()) + " (" + std::to_string(r.s3.list) + " LIST, " + std::to_string(r.s3.get) +
             " GET, " + std::to_string(r.s3.head) + " HEAD, " + std::to_string(r.s3.put) + " PUT, " +
             std::to_string(r.s3.post) + " POST, " + std::to_string(r.s3.del) + " DELETE)";
    }
    std::printf("| %s | %s | %.0f | %lld | %lld | %lld | %s | %s | %lld | %s |\n", kind.c_str(), how, r.ms,
                static_cast<long long>(r.deleted), static_cast<long long>(r.listed), static_cast<long long>(s3_lists),
                reads.c_str(), deletes.c_str(), static_cast<long long>(r.intent_requests), sent.c_str());
  };
  row("listing (remove-orphan-files)", by_listing);
  row("intents (--from-intents)", by_intents);
  std::fflush(stdout);
  if (s3) MotoRequestTimes(*catalog, files);
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
              which == "s3" ? "storage catalog on S3" : which == "all" ? "local disk and S3" : "local disk");
  std::printf("| catalog | sweep | ms | files deleted | files listed | LIST requests on S3 (1,000 keys each) | "
              "file reads | file deletes | intent requests | S3 requests sent |\n"
              "|---|---|---|---|---|---|---|---|---|---|\n");
  const bool all = which == "all";
  if (which == "sqlite" || which == "both" || all) Bench("sqlite", files, writers);
  if (which == "storage" || which == "both" || all) Bench("storage", files, writers);
  if (which == "s3" || all) Bench("s3", files, writers);
  return 0;
}
