// Parquet write and scan benchmark (issue 5): 10,000,000 rows of
//   order_id long, country string (DE/FR/US), amount_cents long, ts timestamp
// written with zstd, then scanned for count + sum(amount_cents), and the same where
// country = 'DE'. Prints one JSON line so that a script can put floe next to DuckDB.
//
//   parquet_bench [rows] [path] [codec] [threads]
//
// The rows are a pure function of the row number i, so DuckDB can generate the same ones:
//   x = (i * 6364136223846793005 + 1442695040888963407) mod 2^64, then mixed:
//   x ^= x >> 33; x = x * 0xff51afd7ed558ccd mod 2^64; x ^= x >> 33
//   amount_cents = (x >> 33) % 100000, country = ['DE','FR','US'][(x >> 20) % 3],
//   ts = 2024-01-01T00:00:00 + i milliseconds, order_id = i.
#include <malloc.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "parquet/parquet_reader.h"
#include "bench_clock.h"
#include "parquet/parquet_writer.h"
#include "parquet/row_group_stream.h"

using namespace floe;
using namespace floe::parquet;
using floe::bench::CpuSeconds;
using floe::bench::WallSeconds;

namespace {

Schema BenchSchema() {
  return Schema(0, {{1, "order_id", Type::Long(), false, ""},
                    {2, "country", Type::String(), false, ""},
                    {3, "amount_cents", Type::Long(), false, ""},
                    {4, "ts", Type::Timestamp(), false, ""}});
}

ColumnBatch MakeRows(const Schema& schema, uint64_t begin, uint64_t end) {
  static const char* kCountries[] = {"DE", "FR", "US"};
  ColumnBatch b(schema);
  size_t n = end - begin;
  b.columns[0].longs.resize(n);
  b.columns[2].longs.resize(n);
  b.columns[3].longs.resize(n);
  Column& country = b.columns[1];
  country.offsets.reserve(n + 1);
  country.bytes.reserve(2 * n);
  for (uint64_t i = begin; i < end; ++i) {
    uint64_t x = i * 6364136223846793005ULL + 1442695040888963407ULL;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    size_t r = i - begin;
    b.columns[0].longs[r] = static_cast<int64_t>(i);
    b.columns[2].longs[r] = static_cast<int64_t>((x >> 33) % 100000);
    b.columns[3].longs[r] = 1704067200000000LL + static_cast<int64_t>(i) * 1000;
    country.bytes.append(kCountries[(x >> 20) % 3], 2);
    country.offsets.push_back(static_cast<uint32_t>(country.bytes.size()));
  }
  for (auto& c : b.columns) c.length = n;
  b.num_rows = n;
  return b;
}

struct ScanResult {
  int64_t count = 0;
  int64_t sum = 0;
};

// Runs work(&partial) on `threads` threads (each folding into its own partial result) and
// adds up the partial results; the first error wins.
template <typename Work>
Result<ScanResult> OnThreads(int threads, Work work) {
  std::vector<ScanResult> partial(threads);
  std::vector<Status> status(threads);
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back([&, t] { status[t] = work(&partial[t]); });
  status[0] = work(&partial[0]);
  for (auto& th : pool) th.join();
  ScanResult total;
  for (int t = 0; t < threads; ++t) {
    FLOE_RETURN_IF_ERROR(status[t]);
    total.count += partial[t].count;
    total.sum += partial[t].sum;
  }
  return total;
}

// Scans the file on `threads` threads the way a floe scan reads a data file: row groups
// streamed in batches (RowGroupStream), the predicate evaluated in the Parquet reader.
// Threads take whole row groups; a file with fewer row groups than threads has each row
// group split into `threads` row ranges. Each batch is folded by `fold`.
template <typename Fold>
Result<ScanResult> Scan(const std::shared_ptr<ParquetFile>& file, const Schema& projection,
                        const std::optional<ValuePredicate>& predicate, int threads, Fold fold) {
  struct Item {
    int row_group;
    int64_t begin, end;
  };
  std::vector<Item> items;
  for (int g = 0; g < file->num_row_groups(); ++g) {
    int64_t rows = file->metadata().row_groups[g].num_rows;
    int parts = file->num_row_groups() < threads ? threads : 1;
    for (int k = 0; k < parts; ++k) items.push_back({g, rows * k / parts, rows * (k + 1) / parts});
  }
  std::atomic<size_t> next{0};
  return OnThreads(threads, [&](ScanResult* result) -> Status {
    ColumnBatch batch(projection);
    for (size_t i = next++; i < items.size(); i = next++) {
      StreamOptions options;
      options.predicate = predicate;
      options.row_begin = items[i].begin;
      options.row_end = items[i].end;
      FLOE_ASSIGN_OR_RETURN(auto stream, RowGroupStream::Open(file, items[i].row_group, projection, options));
      while (true) {
        FLOE_ASSIGN_OR_RETURN(bool more, stream->Next(&batch));
        if (!more) break;
        fold(batch, result);
      }
    }
    return Ok();
  });
}

// The previous way, for comparison (FLOE_BENCH_WHOLE_ROW_GROUPS=1): each row group decoded
// whole (ReadRowGroup), the filter applied to the materialized strings.
template <typename Fold>
Result<ScanResult> ScanWhole(const std::shared_ptr<ParquetFile>& file, const Schema& projection, int threads, Fold fold) {
  int column_threads = file->num_row_groups() < threads ? threads : 1;
  if (column_threads > 1) threads = 1;
  std::atomic<int> next{0};
  return OnThreads(threads, [&](ScanResult* result) -> Status {
    for (int g = next++; g < file->num_row_groups(); g = next++) {
      FLOE_ASSIGN_OR_RETURN(ColumnBatch batch, file->ReadRowGroup(g, projection, column_threads));
      fold(batch, result);
    }
    return Ok();
  });
}

}  // namespace

int main(int argc, char** argv) {
  // Keep freed large blocks in the heap (glibc otherwise unmaps anything over 32 MiB and
  // every scan pays page faults again); set FLOE_BENCH_DEFAULT_MALLOC=1 to measure without.
  if (!std::getenv("FLOE_BENCH_DEFAULT_MALLOC")) {
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
  }
  uint64_t rows = argc > 1 ? std::stoull(argv[1]) : 10000000;
  std::string path = argc > 2 ? argv[2] : "/tmp/floe_parquet_bench_" + std::to_string(getpid()) + ".parquet";
  std::string codec = argc > 3 ? argv[3] : "zstd";
  int threads = argc > 4 ? std::stoi(argv[4]) : 2;
  Schema schema = BenchSchema();

  std::vector<ColumnBatch> batches;
  // Batches of 1M rows; FLOE_BENCH_SMALL_BATCHES=1 writes 4096-row batches instead, which the
  // writer encodes on the caller's thread alone (same file bytes): the one-thread figure.
  const uint64_t kBatch = std::getenv("FLOE_BENCH_SMALL_BATCHES") ? 4096 : 1 << 20;
  for (uint64_t b = 0; b < rows; b += kBatch) batches.push_back(MakeRows(schema, b, std::min(rows, b + kBatch)));

  ::unlink(path.c_str());
  double t0 = WallSeconds(), c0 = CpuSeconds();
  auto sink = FileSink::Create(path);
  if (!sink) return std::fprintf(stderr, "%s\n", sink.error().ToString().c_str()), 1;
  auto writer = ParquetWriter::Open(sink->get(), schema, {{"write.parquet.compression-codec", codec}});
  if (!writer) return std::fprintf(stderr, "%s\n", writer.error().ToString().c_str()), 1;
  for (const auto& b : batches) {
    auto s = (*writer)->Write(b);
    if (!s) return std::fprintf(stderr, "%s\n", s.error().ToString().c_str()), 1;
  }
  auto metrics = (*writer)->Close();
  if (!metrics) return std::fprintf(stderr, "%s\n", metrics.error().ToString().c_str()), 1;
  double write_s = WallSeconds() - t0, write_cpu_s = CpuSeconds() - c0;
  batches.clear();

  auto file = ParquetFile::OpenPath(path);
  if (!file) return std::fprintf(stderr, "%s\n", file.error().ToString().c_str()), 1;
  Schema sum_projection(0, {{3, "amount_cents", Type::Long(), false, ""}});
  Schema filter_projection(0, {{2, "country", Type::String(), false, ""}, {3, "amount_cents", Type::Long(), false, ""}});

  // Both queries fold a batch of amount_cents: the filter runs inside the reader.
  auto fold_sum = [](const ColumnBatch& b, ScanResult* r) {
    const Column& a = b.columns[0];
    int64_t s = 0;
    for (size_t i = 0; i < b.num_rows; ++i) s += a.IsNull(i) ? 0 : a.longs[i];
    r->sum += s;
    r->count += static_cast<int64_t>(b.num_rows);
  };
  std::optional<ValuePredicate> de = ValuePredicate{{2, "country", Type::String(), false, ""}, {Literal::String("DE")}};

  // Warm runs, as DuckDB's figures are: the best of five.
  double sum_s = 1e9, filter_s = 1e9, sum_cpu_s = 1e9, filter_cpu_s = 1e9;
  ScanResult sum_r, de_r;
  for (int run = 0; run < 5; ++run) {
    double a = WallSeconds(), ca = CpuSeconds();
    auto r1 = Scan(*file, sum_projection, std::nullopt, threads, fold_sum);
    double b = WallSeconds(), cb = CpuSeconds();
    auto r2 = Scan(*file, sum_projection, de, threads, fold_sum);
    double c = WallSeconds(), cc = CpuSeconds();
    sum_cpu_s = std::min(sum_cpu_s, cb - ca);
    filter_cpu_s = std::min(filter_cpu_s, cc - cb);
    if (!r1 || !r2) return std::fprintf(stderr, "%s\n", (!r1 ? r1.error() : r2.error()).ToString().c_str()), 1;
    sum_s = std::min(sum_s, b - a);
    filter_s = std::min(filter_s, c - b);
    sum_r = *r1;
    de_r = *r2;
  }

  // The whole-row-group path, on request: same answers, times as "whole_*".
  std::string whole;
  if (std::getenv("FLOE_BENCH_WHOLE_ROW_GROUPS")) {
    auto fold_de = [](const ColumnBatch& b, ScanResult* r) {
      const Column& c = b.columns[0];
      const Column& a = b.columns[1];
      int64_t s = 0, n = 0;
      for (size_t i = 0; i < b.num_rows; ++i) {
        if (c.IsNull(i) || c.offsets[i + 1] - c.offsets[i] != 2) continue;
        const char* p = c.bytes.data() + c.offsets[i];
        if (p[0] == 'D' && p[1] == 'E' && !a.IsNull(i)) {
          s += a.longs[i];
          ++n;
        }
      }
      r->sum += s;
      r->count += n;
    };
    double ws = 1e9, wf = 1e9;
    for (int run = 0; run < 5; ++run) {
      double a = WallSeconds();
      auto r1 = ScanWhole(*file, sum_projection, threads, fold_sum);
      double b = WallSeconds();
      auto r2 = ScanWhole(*file, filter_projection, threads, fold_de);
      double c = WallSeconds();
      if (!r1 || !r2) return std::fprintf(stderr, "%s\n", (!r1 ? r1.error() : r2.error()).ToString().c_str()), 1;
      if (r1->count != sum_r.count || r1->sum != sum_r.sum || r2->count != de_r.count || r2->sum != de_r.sum)
        return std::fprintf(stderr, "whole-row-group scan disagrees with the streamed scan\n"), 1;
      ws = std::min(ws, b - a);
      wf = std::min(wf, c - b);
    }
    whole = ",\"whole_scan_sum_s\":" + std::to_string(ws) + ",\"whole_scan_filter_s\":" + std::to_string(wf);
  }
  std::printf(
      "{\"engine\":\"floe\",\"rows\":%llu,\"codec\":\"%s\",\"threads\":%d,\"write_s\":%.4f,\"write_cpu_s\":%.4f,\"file_bytes\":%lld,"
      "\"row_groups\":%d,\"scan_sum_s\":%.4f,\"scan_sum_cpu_s\":%.4f,\"scan_filter_s\":%.4f,\"scan_filter_cpu_s\":%.4f,\"count\":%lld,\"sum\":%lld,"
      "\"de_count\":%lld,\"de_sum\":%lld%s}\n",
      static_cast<unsigned long long>(rows), codec.c_str(), threads, write_s, write_cpu_s, static_cast<long long>(metrics->file_size_in_bytes),
      (*file)->num_row_groups(), sum_s, sum_cpu_s, filter_s, filter_cpu_s, static_cast<long long>(sum_r.count), static_cast<long long>(sum_r.sum),
      static_cast<long long>(de_r.count), static_cast<long long>(de_r.sum), whole.c_str());
  if (argc <= 2) ::unlink(path.c_str());
  return 0;
}
