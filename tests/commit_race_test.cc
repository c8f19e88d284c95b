// Many real processes share one table: 8 append 100 batches each (4 and 4 on S3) with random pauses, 2 run
// copy-on-write deletes of whole batches, 1 compacts, 1 reads continuously. Afterwards:
//   - each batch is present exactly once, unless a delete that committed after it removed it;
//   - sequence numbers strictly increase along main;
//   - the metadata versions form one gap-free run, one per landed commit;
//   - every file reachable from any snapshot exists;
//   - no reader ever saw a partial commit (a batch with some but not all of its rows).
//   - what losers left behind is only objects no snapshot or metadata document refers to, none of
//     them a metadata document, and removing them all leaves the table reading the same rows.
// On a SQLite catalog on local disk, on the storage catalog on S3 (s3://BUCKET/PREFIX: a commit
// is a PUT If-None-Match) and on SQLite and PostgreSQL catalogs whose warehouse is on S3. On S3,
// half the appenders are the `floe append` command, run once per batch (a new process, catalog
// connection and S3 client each time), half forked workers of this test appending in a loop; 4
// processes append 4 batches each and the readers pause longer: the emulator serves one request
// at a time.
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "table_files/manifest_io.h"
#include "catalog/catalog.h"
#include "catalog/catalog_test_env.h"
#include "catalog/commit.h"
#include "expr/parser.h"
#include "scan/table_scan.h"
#include "floe_process.h"
#include "commit/commit_operation.h"
#include "commit/operations.h"
#include "rows/row_writes.h"
#include "types/partition_spec.h"
#include "types/schema_text.h"
#include "types/temporal.h"
#include "util/uuid.h"
#include "write/data_writer.h"
#include "table_files/metadata_location.h"

namespace floe {
namespace {

using testing_env::Backend;

constexpr int kRowsPerBatch = 10;
const char* kCountries[] = {"DE", "FR", "US"};

struct Env {
  std::string dir;
  testing_env::CatalogPlace place;
  int appenders = 8;
  int batches_per_appender = 100;
  int reader_pause_ms = 0;  // between passes of the reader and the deleters' reads
  bool floe_appenders = false;  // odd-numbered appenders run `floe append` once per batch
  TableIdentifier id{{"race"}, "orders"};
  std::string Log(const std::string& name) const { return dir + "/" + name + ".log"; }
  std::string StopFlag() const { return dir + "/stop"; }
  bool Stopped() const { return std::filesystem::exists(StopFlag()); }
};

Schema OrdersSchema() {
  return *ParseSchemaText("order_id long not null, country string, batch long, ts timestamp");
}

int64_t OrderId(int64_t batch, int i) { return batch * 100 + i; }
int64_t BatchTimestamp(int64_t batch) { return 1767225600000000LL + batch; }

ColumnBatch BatchRows(int64_t batch) {
  ColumnBatch rows(OrdersSchema());
  for (int i = 0; i < kRowsPerBatch; ++i) {
    (void)rows.AppendRow({Literal::Long(OrderId(batch, i)), Literal::String(kCountries[batch % 3]),
                          Literal::Long(batch), Literal::Timestamp(BatchTimestamp(batch))});
  }
  return rows;
}

// The same rows as BatchRows, as the CSV file `floe append` reads.
std::string BatchCsv(int64_t batch) {
  std::string out = "order_id,country,batch,ts\n";
  for (int i = 0; i < kRowsPerBatch; ++i) {
    out += std::to_string(OrderId(batch, i)) + "," + kCountries[batch % 3] + "," + std::to_string(batch) + "," +
           FormatTimestamp(BatchTimestamp(batch), 1000000, false) + "\n";
  }
  return out;
}

std::unique_ptr<Catalog> Open(const Env& env) {
  auto c = testing_env::OpenPlace(env.place);
  if (!c) {
    std::fprintf(stderr, "open catalog: %s\n", c.error().message.c_str());
    _exit(90);
  }
  return std::move(*c);
}

void Pause(std::mt19937_64& rng, int max_ms) {
  std::this_thread::sleep_for(std::chrono::microseconds(rng() % (max_ms * 1000 + 1)));
}


// Runs `floe append` for one batch; true when it exited 0 (the commit landed).
bool FloeAppend(const Env& env, int64_t batch) {
  const std::string csv = env.dir + "/batch-" + std::to_string(batch) + ".csv";
  std::ofstream(csv) << BatchCsv(batch);
  const std::string out = env.dir + "/batch-" + std::to_string(batch) + ".out";
  pid_t pid = test::SpawnProcess(FLOE_BINARY,
                                 {"--catalog", env.place.uri, "--catalog-name", env.place.name, "append",
                                  "race.orders", csv, "--idempotency-key", "batch-" + std::to_string(batch)},
                                 {out, true});
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return false;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  std::ifstream in(out);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::fprintf(stderr, "floe append of batch %lld failed: %s\n", static_cast<long long>(batch), text.c_str());
  return false;
}

// Each line: the batch id of a successful commit.
int Appender(const Env& env, int worker) {
  std::ofstream log(env.Log("append-" + std::to_string(worker)));
  std::mt19937_64 rng(worker * 7919 + getpid());
  if (env.floe_appenders && worker % 2 == 1) {
    for (int k = 0; k < env.batches_per_appender; ++k) {
      int64_t batch = (worker + 1) * 1000 + k;
      if (FloeAppend(env, batch)) log << batch << "\n" << std::flush;
      Pause(rng, 5);
    }
    return 0;
  }

  auto catalog = Open(env);
  for (int k = 0; k < env.batches_per_appender; ++k) {
    int64_t batch = (worker + 1) * 1000 + k;
    auto r = AppendBatch(*catalog, env.id, BatchRows(batch));
    if (r) {
      log << batch << "\n" << std::flush;
    } else {
      std::fprintf(stderr, "append %lld failed: %s\n", static_cast<long long>(batch), r.error().message.c_str());
    }
    Pause(rng, 5);
  }
  return 0;
}

// Each line: "<batch> <sequence number>" of a delete that removed that batch's rows.
int Deleter(const Env& env, int worker) {
  auto catalog = Open(env);
  std::mt19937_64 rng(worker * 104729 + getpid());
  std::ofstream log(env.Log("delete-" + std::to_string(worker)));
  while (!env.Stopped()) {
    Pause(rng, env.reader_pause_ms);
    auto table = catalog->LoadTable(env.id);
    if (!table) continue;
    ScanOptions options;
    options.columns = {"batch"};
    auto rows = ReadTable(*catalog->io(), table->metadata, options);
    if (!rows || rows->num_rows == 0) {
      Pause(rng, 20);
      continue;
    }
    int64_t batch = rows->columns[0].longs[rng() % rows->num_rows];
    auto filter = ParseFilter("batch = " + std::to_string(batch));
    auto r = DeleteWhere(*catalog, env.id, *filter);
    if (r && r->committed && r->rows_deleted > 0) {
      log << batch << " " << r->commit.sequence_number << "\n" << std::flush;
    }
    Pause(rng, 30);
  }
  return 0;
}

// Rewrites the live files of one partition into one file, as a compaction would.
int Compactor(const Env& env) {
  auto catalog = Open(env);
  std::mt19937_64 rng(getpid());
  std::ofstream log(env.Log("compact"));
  while (!env.Stopped()) {
    Pause(rng, 50);
    auto table = catalog->LoadTable(env.id);
    if (!table || !table->metadata.CurrentSnapshot()) continue;
    const TableMetadata& m = table->metadata;
    std::string country = kCountries[rng() % 3];
    ScanOptions options;
    options.filter_text = "country = '" + country + "'";
    auto tasks = PlanFiles(*catalog->io(), m, options);
    if (!tasks) {
      log << "failed: " << tasks.error().message << "\n" << std::flush;
      continue;
    }
    if (tasks->size() < 4) continue;
    DataWriter writer(*catalog->io(), m);
    std::vector<DataFile> inputs;
    bool ok = true;
    for (FileScanTask task : *tasks) {
      task.residual = True();
      auto rows = ReadTask(*catalog->io(), m, task, m.CurrentSchema());
      if (!rows || !writer.Write(*rows)) {
        ok = false;
        break;
      }
      inputs.push_back(task.file);
    }
    auto outputs = ok ? writer.Finish() : Result<std::vector<DataFile>>(InvalidArgument("read failed"));
    if (!outputs) {
      log << "failed: " << outputs.error().message << "\n" << std::flush;
      writer.Abort();
      continue;
    }
    FilesOperation rewrite(RewriteFiles(inputs, *outputs, {}, m.CurrentSnapshot()->snapshot_id));
    auto r = CommitOperation(*catalog, env.id, rewrite);
    if (r) {
      log << "compacted " << inputs.size() << " files\n" << std::flush;
    } else {
      log << "failed: " << r.error().message.substr(0, 200) << "\n" << std::flush;
      if (r.error().kind != ErrorKind::kCommitStateUnknown) writer.Abort();
    }
  }
  return 0;
}

// Reads the whole table again and again; each line reports a partial batch it saw.
int Reader(const Env& env) {
  auto catalog = Open(env);
  std::ofstream log(env.Log("reader"));
  int reads = 0;
  std::mt19937_64 rng(getpid());
  while (!env.Stopped()) {
    if (reads > 0) Pause(rng, env.reader_pause_ms);
    auto table = catalog->LoadTable(env.id);
    if (!table) continue;
    ScanOptions options;
    options.columns = {"order_id", "batch"};
    auto rows = ReadTable(*catalog->io(), table->metadata, options);
    if (!rows) {
      log << "read error: " << rows.error().message << "\n";
      continue;
    }
    std::map<int64_t, int> per_batch;
    std::set<int64_t> ids;
    for (size_t r = 0; r < rows->num_rows; ++r) {
      ++per_batch[rows->columns[1].longs[r]];
      if (!ids.insert(rows->columns[0].longs[r]).second) log << "duplicate order " << rows->columns[0].longs[r] << "\n";
    }
    for (const auto& [batch, count] : per_batch)
      if (count != kRowsPerBatch) log << "partial batch " << batch << ": " << count << " rows\n";
    ++reads;
  }
  log << "reads " << reads << "\n";
  return 0;
}

pid_t Spawn(const std::function<int()>& body) {
  pid_t pid = fork();
  if (pid == 0) _exit(body());
  return pid;
}

std::vector<std::string> Lines(const std::string& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

bool OnS3(Backend b) { return b == Backend::kStorageS3 || b == Backend::kSqliteS3 || b == Backend::kPostgresS3; }

// Every object a table refers to: its metadata documents (current and logged), their manifest
// lists, manifests, and data and delete files.
Result<std::set<std::string>> ReferencedObjects(FileIO& io, const std::string& current, const TableMetadata& m) {
  std::set<std::string> out = {current};
  for (const auto& entry : m.metadata_log) out.insert(entry.metadata_file);
  for (const auto& s : m.snapshots) {
    out.insert(s.manifest_list);
    auto manifests = ReadManifestList(io, m, s);
    if (!manifests) return std::unexpected(manifests.error());
    for (const auto& mf : *manifests) {
      out.insert(mf.manifest_path);
      auto entries = ReadManifestEntries(io, m, mf);
      if (!entries) return std::unexpected(entries.error());
      for (const auto& e : *entries) out.insert(e.file.file_path);
    }
  }
  return out;
}

std::multiset<int64_t> OrderIds(FileIO& io, const TableMetadata& m) {
  ScanOptions options;
  options.columns = {"order_id"};
  auto rows = ReadTable(io, m, options);
  std::multiset<int64_t> out;
  if (rows) out.insert(rows->columns[0].longs.begin(), rows->columns[0].longs.begin() + rows->num_rows);
  return out;
}

class CommitRace : public ::testing::TestWithParam<Backend> {};

TEST_P(CommitRace, EightAppendersTwoDeletersACompactorAndAReader) {
  testing_env::TempDir dir("floe-race");
  Env env;
  env.dir = dir.path();
  env.place = testing_env::MakePlace(GetParam(), dir.path());
  if (env.place.uri.empty()) {
    if (!env.place.skip_reason.starts_with("skipped")) FAIL() << env.place.skip_reason;
    GTEST_SKIP() << env.place.skip_reason;
  }
  if (OnS3(GetParam())) {
    env.appenders = 4;
    env.batches_per_appender = 4;
    env.reader_pause_ms = 100;
    env.floe_appenders = true;
  }
  std::string created_location;
  {
    auto catalog = Open(env);
    ASSERT_TRUE(catalog->CreateNamespace({"race"}, {}).has_value());
    CreateTableRequest request;
    request.schema = OrdersSchema();
    request.spec = PartitionSpec(0, *ParsePartitionFields("country", request.schema, 1000));
    // Plenty of retries with short waits: the test is about correctness under contention.
    request.properties = {{"commit.retry.num-retries", "200"},
                          {"commit.retry.min-wait-ms", "1"},
                          {"commit.retry.max-wait-ms", "100"},
                          {"write.metadata.previous-versions-max", "100000"}};  // the whole history
    auto created = catalog->CreateTable(env.id, request);
    ASSERT_TRUE(created.has_value()) << created.error().ToString();
    created_location = created->metadata_location;
  }  // closed before forking: children must not share the parent's connections

  std::vector<pid_t> appenders, others;
  for (int w = 0; w < env.appenders; ++w) appenders.push_back(Spawn([&, w] { return Appender(env, w); }));
  for (int w = 0; w < 2; ++w) others.push_back(Spawn([&, w] { return Deleter(env, w); }));
  others.push_back(Spawn([&] { return Compactor(env); }));
  others.push_back(Spawn([&] { return Reader(env); }));
  for (pid_t pid : appenders) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "appender " << pid;
  }
  std::ofstream(env.StopFlag()) << "stop\n";
  for (pid_t pid : others) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "worker " << pid;
  }

  // What the workers say happened.
  std::set<int64_t> appended;
  for (int w = 0; w < env.appenders; ++w)
    for (const auto& line : Lines(env.Log("append-" + std::to_string(w)))) appended.insert(std::stoll(line));
  std::set<int64_t> deleted;
  for (int w = 0; w < 2; ++w)
    for (const auto& line : Lines(env.Log("delete-" + std::to_string(w)))) deleted.insert(std::stoll(line));
  EXPECT_EQ(appended.size(), static_cast<size_t>(env.appenders * env.batches_per_appender)) << "every append commits";

  // What the table says.
  auto catalog = Open(env);
  auto table = catalog->LoadTable(env.id);
  ASSERT_TRUE(table.has_value());
  const TableMetadata& m = table->metadata;
  ScanOptions options;
  options.columns = {"order_id", "batch"};
  auto rows = ReadTable(*catalog->io(), m, options);
  ASSERT_TRUE(rows.has_value()) << rows.error().message;
  std::map<int64_t, int> per_batch;
  std::set<int64_t> ids;
  for (size_t r = 0; r < rows->num_rows; ++r) {
    ++per_batch[rows->columns[1].longs[r]];
    EXPECT_TRUE(ids.insert(rows->columns[0].longs[r]).second) << "duplicate row " << rows->columns[0].longs[r];
  }
  for (int64_t batch : appended) {
    int expected = deleted.count(batch) ? 0 : kRowsPerBatch;
    EXPECT_EQ(per_batch[batch], expected) << "batch " << batch << (deleted.count(batch) ? " (deleted)" : "");
  }
  for (const auto& [batch, count] : per_batch) EXPECT_TRUE(appended.count(batch)) << "unknown batch " << batch;

  // Sequence numbers strictly increase along main.
  auto chain = m.Ancestry(m.CurrentSnapshot()->snapshot_id);
  for (size_t i = 1; i < chain.size(); ++i)
    EXPECT_GT(chain[i - 1]->sequence_number, chain[i]->sequence_number);
  EXPECT_EQ(chain.size(), m.snapshots.size()) << "every snapshot is on main";

  // One version per landed commit, gap-free: the created document, then each commit's, each
  // logged by the next; no loser's document is left beside them.
  FileIO& io = *catalog->io();
  const int64_t first = ParseMetadataVersion(created_location);
  ASSERT_FALSE(m.metadata_log.empty());
  EXPECT_EQ(m.metadata_log.front().metadata_file, created_location);
  for (size_t i = 0; i < m.metadata_log.size(); ++i) {
    EXPECT_EQ(ParseMetadataVersion(m.metadata_log[i].metadata_file), first + static_cast<int64_t>(i))
        << m.metadata_log[i].metadata_file;
  }
  EXPECT_EQ(ParseMetadataVersion(table->metadata_location), first + static_cast<int64_t>(m.metadata_log.size()));
  EXPECT_GE(m.snapshots.size(), appended.size());
  auto listed = io.ListPrefix(MetadataFolder(m) + "/");
  ASSERT_TRUE(listed.has_value()) << listed.error().message;
  std::set<int64_t> versions;
  for (const auto& f : *listed) {
    if (!f.path.ends_with(".metadata.json")) continue;
    EXPECT_TRUE(versions.insert(ParseMetadataVersion(f.path)).second) << f.path;
  }
  EXPECT_EQ(versions.size(), m.metadata_log.size() + 1) << "a document beside the history";
  if (!versions.empty()) {
    EXPECT_EQ(*versions.begin(), first);
    EXPECT_EQ(*versions.rbegin(), first + static_cast<int64_t>(m.metadata_log.size()));
  }

  // Every file reachable from any snapshot exists.
  size_t checked = 0;
  for (const auto& s : m.snapshots) {
    ASSERT_TRUE(io.Exists(s.manifest_list).value_or(false)) << s.manifest_list;
    auto manifests = ReadManifestList(*catalog->io(), m, s);
    ASSERT_TRUE(manifests.has_value()) << manifests.error().message;
    for (const auto& mf : *manifests) {
      auto entries = ReadManifestEntries(*catalog->io(), m, mf);
      ASSERT_TRUE(entries.has_value()) << entries.error().message;
      for (const auto& e : *entries) {
        EXPECT_TRUE(io.Exists(e.file.file_path).value_or(false)) << e.file.file_path;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 0u);

  // What losers (and compactions' and deletes' replaced files) left: objects nothing refers to,
  // none a metadata document; removing them changes nothing a reader sees.
  auto referenced = ReferencedObjects(io, table->metadata_location, m);
  ASSERT_TRUE(referenced.has_value()) << referenced.error().message;
  auto everything = io.ListPrefix(m.location + "/");
  ASSERT_TRUE(everything.has_value()) << everything.error().message;
  std::vector<std::string> unreferenced;
  std::set<std::string> listed_paths;
  for (const auto& f : *everything) {
    listed_paths.insert(f.path);
    if (referenced->count(f.path) || f.path.ends_with("version-hint.text")) continue;
    EXPECT_FALSE(f.path.ends_with(".metadata.json")) << "a loser's metadata document: " << f.path;
    unreferenced.push_back(f.path);
  }
  for (const auto& path : *referenced) EXPECT_TRUE(listed_paths.count(path)) << "referenced but not listed: " << path;
  const auto before = OrderIds(io, m);
  ASSERT_EQ(before.size(), rows->num_rows);
  ASSERT_TRUE(io.DeleteFiles(unreferenced).has_value());
  auto reloaded = catalog->LoadTable(env.id);
  ASSERT_TRUE(reloaded.has_value()) << reloaded.error().message;
  EXPECT_EQ(OrderIds(io, reloaded->metadata), before)
      << "after removing " << unreferenced.size() << " unreferenced objects";

  // The reader never saw a partial commit, and did read.
  auto reader = Lines(env.Log("reader"));
  ASSERT_FALSE(reader.empty());
  EXPECT_TRUE(reader.back().starts_with("reads ")) << reader.back();
  EXPECT_GT(std::stoi(reader.back().substr(6)), 0);
  for (size_t i = 0; i + 1 < reader.size(); ++i) ADD_FAILURE() << "reader: " << reader[i];
  size_t compactions = 0, compaction_failures = 0;
  for (const auto& line : Lines(env.Log("compact"))) {
    if (line.starts_with("compacted")) {
      ++compactions;
    } else {
      ++compaction_failures;
      std::printf("compactor: %s\n", line.c_str());
    }
  }
  std::printf("%s: appended %zu batches, deleted %zu, compactions %zu (%zu refused or failed), reader passes %s, "
              "snapshots %zu, versions %zu, unreferenced objects %zu\n",
              testing_env::BackendName(GetParam()), appended.size(), deleted.size(), compactions, compaction_failures,
              reader.back().c_str(), m.snapshots.size(), versions.size(), unreferenced.size());
}

INSTANTIATE_TEST_SUITE_P(Backends, CommitRace,
                         ::testing::Values(Backend::kSqlite, Backend::kStorageS3, Backend::kSqliteS3,
                                           Backend::kPostgresS3),
                         [](const auto& info) { return std::string(testing_env::BackendName(info.param)); });

}  // namespace
}  // namespace floe
