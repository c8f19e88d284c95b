// Manifest write and read throughput, floe against avsc (npm) doing the same work in the same run.
//
// usage: avro_bench [ENTRIES=100000] [RUNS=5]
// For each codec (deflate, null): floe writes ENTRIES manifest entries to an Avro manifest in
// memory and reads them back into ManifestEntry values; then tests/js/avro_bench.mjs makes
// avsc write the same records with the same schema and codec, and read floe's file back into
// objects. Medians of RUNS runs; a markdown table for bench/RESULTS.md on stdout.
#include <unistd.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include <nlohmann/json.hpp>

#include "avro/manifest_reader.h"
#include "avro/manifest_writer.h"

using namespace floe;

namespace {

// A typical table: ten columns, partitioned by day(ts) and country, every data file with counts
// and bounds for every column (what Spark and floe's writers record).
struct Workload {
  Schema schema;
  PartitionSpec spec;
  std::vector<ManifestEntry> entries;
};

Workload MakeWorkload(int n) {
  Workload w;
  w.schema = Schema(0, {{1, "order_id", Type::Long(), true, ""},
                        {2, "ts", Type::TimestampTz(), true, ""},
                        {3, "country", Type::String(), false, ""},
                        {4, "amount", Type::Decimal(12, 2), false, ""},
                        {5, "customer", Type::String(), false, ""},
                        {6, "qty", Type::Int(), false, ""},
                        {7, "price", Type::Double(), false, ""},
                        {8, "status", Type::String(), false, ""},
                        {9, "shipped", Type::Date(), false, ""},
                        {10, "note", Type::String(), false, ""}});
  w.spec = PartitionSpec(0, {{2, 1000, "ts_day", Transform::Day()}, {3, 1001, "country", Transform::Identity()}});
  std::mt19937_64 rng(1);
  const char* countries[] = {"DE", "FR", "US", "JP", "BR"};
  const char* statuses[] = {"pending", "shipped", "returned"};
  auto le = [](auto v) { return std::string(reinterpret_cast<const char*>(&v), sizeof v); };
  for (int i = 0; i < n; ++i) {
    ManifestEntry e;
    e.status = EntryStatus::kAdded;
    DataFile& f = e.file;
    int day = 20400 + i % 28;
    f.file_path = "s3://warehouse/sales/orders/data/ts_day=2025-11-" + std::to_string(1 + i % 28) + "/country=" +
                  countries[i % 5] + "/00000-" + std::to_string(i) + "-3f2b9c1e-8d4a-4e7b-9a61-0c5d2e8f7a13-00001.parquet";
    f.partition = {Literal::Date(day), Literal::String(countries[i % 5])};
    f.record_count = static_cast<int64_t>(100000 + rng() % 900000);
    f.file_size_in_bytes = static_cast<int64_t>(f.record_count * 12 + rng() % 100000);
    for (int c = 1; c <= 10; ++c) {
      f.column_sizes[c] = static_cast<int64_t>(f.record_count * (1 + c % 4) + rng() % 10000);
      f.value_counts[c] = f.record_count;
      f.null_value_counts[c] = c <= 2 ? 0 : static_cast<int64_t>(rng() % 100);
    }
    // Bounds as writers record them: each column's min and max in the single-value binary form.
    int64_t first_id = int64_t{i} * 1000000;
    int64_t day_micros = int64_t{day} * 86400000000;
    f.lower_bounds = {{1, le(first_id)}, {2, le(day_micros + static_cast<int64_t>(rng() % 1000000))},
                      {3, countries[i % 5]}, {4, std::string("\x00", 1)}, {5, "cust-" + std::to_string(rng() % 1000)},
                      {6, le(int32_t{1})}, {7, le(0.5)}, {8, "pending"}, {9, le(int32_t{day})}, {10, "a note about the ord"}};
    f.upper_bounds = {{1, le(first_id + f.record_count)}, {2, le(day_micros + 86399999999)}, {3, countries[i % 5]},
                      {4, std::string("\x0f\x42\x3f", 3)}, {5, "cust-" + std::to_string(9000 + rng() % 1000)},
                      {6, le(int32_t{50})}, {7, le(9999.99)}, {8, statuses[1 + i % 2]}, {9, le(int32_t{day + 7})},
                      {10, "zero defects, left "}};
    f.nan_value_counts[7] = 0;
    f.split_offsets = {4, static_cast<int64_t>(f.file_size_in_bytes / 2)};
    f.sort_order_id = 0;
    w.entries.push_back(std::move(e));
  }
  return w;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double CpuMs() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// Wall and CPU milliseconds of fn(): the machine is shared, so CPU time is the steadier figure.
template <typename Fn>
std::pair<double, double> TimeMs(Fn fn) {
  double c0 = CpuMs();
  auto t0 = std::chrono::steady_clock::now();
  fn();
  double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return {wall, CpuMs() - c0};
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100000;
  int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  Workload w = MakeWorkload(n);
  // Bench targets get no source-dir definition; this file sits in <source>/bench.
  std::string js = (std::filesystem::path(__FILE__).parent_path().parent_path() / "tests/js").string();

  std::printf("| codec | engine | write ms (wall) | write ms (CPU) | write entries/s (CPU) | read ms (wall) | "
              "read ms (CPU) | read entries/s (CPU) | file bytes |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const char* codec : {"deflate", "null"}) {
    ManifestWriterOptions options;
    options.schema = w.schema;
    options.spec = w.spec;
    options.codec = codec;
    options.manifest_path = "bench.avro";
    std::string bytes;
    std::vector<double> write_ms, read_ms, write_cpu, read_cpu;
    for (int r = 0; r < runs; ++r) {
      auto [ww, wc] = TimeMs([&] {
        auto out = WriteManifest(options, w.entries);
        if (!out) {
          std::cerr << out.error().ToString() << "\n";
          std::exit(1);
        }
        bytes = std::move(out->bytes);
      });
      auto [rw, rc] = TimeMs([&] {
        auto back = ReadManifest(bytes, "bench.avro");
        if (!back || back->entries.size() != w.entries.size()) {
          std::cerr << "read failed\n";
          std::exit(1);
        }
      });
      write_ms.push_back(ww), write_cpu.push_back(wc), read_ms.push_back(rw), read_cpu.push_back(rc);
    }
    double wm = Median(write_ms), rm = Median(read_ms), wc = Median(write_cpu), rc = Median(read_cpu);
    std::printf("| %s | floe | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %zu |\n", codec, wm, wc, n / wc * 1000, rm, rc,
                n / rc * 1000, bytes.size());
    std::fflush(stdout);

    std::string path = (std::filesystem::temp_directory_path() / ("floe_avro_bench_" + std::to_string(getpid()) + "_" + codec + ".avro")).string();
    std::ofstream(path, std::ios::binary) << bytes;
    std::string cmd = "cd '" + js + "' && node avro_bench.mjs '" + path + "' " + std::to_string(runs) + " 2>&1";
    std::string out;
    if (FILE* p = popen(cmd.c_str(), "r")) {
      char buf[4096];
      size_t k;
      while ((k = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, k);
      pclose(p);
    }
    std::filesystem::remove(path);
    auto j = nlohmann::json::parse(out, nullptr, false);
    if (j.is_discarded() || !j.contains("write_ms")) {
      std::printf("| %s | avsc | (not run: %s) | | | | | | |\n", codec, out.substr(0, 120).c_str());
      continue;
    }
    double aw = Median(j["write_ms"].get<std::vector<double>>());
    double ar = Median(j["read_ms"].get<std::vector<double>>());
    double awc = Median(j["write_cpu_ms"].get<std::vector<double>>());
    double arc = Median(j["read_cpu_ms"].get<std::vector<double>>());
    std::printf("| %s | avsc | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %lld |\n", codec, aw, awc, n / awc * 1000, ar,
                arc, n / arc * 1000, static_cast<long long>(j["bytes"].get<int64_t>()));
    std::fflush(stdout);
  }
  return 0;
}
