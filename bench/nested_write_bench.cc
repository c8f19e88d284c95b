// Parquet write speed of nested columns, next to the same values flat: N rows of
//   id long, tags list<string> (0-7 of 50 words), pts list<struct<x int, ys list<long>>>
// written with zstd, then the same element values as flat columns (one row per element), so
// that the cost of the levels shows against the cost of the values. Prints one JSON line.
//
//   nested_write_bench [rows]
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "bench_clock.h"
#include "parquet/parquet_writer.h"

using namespace floe;
using namespace floe::parquet;
using floe::bench::CpuSeconds;
using floe::bench::WallSeconds;

namespace {

NestedField F(int id, std::string name, TypePtr type, bool required = false) {
  return NestedField{id, std::move(name), std::move(type), required, ""};
}

void PutString(Column& c, const std::string& v) {
  c.bytes += v;
  c.offsets.push_back(static_cast<uint32_t>(c.bytes.size()));
  ++c.length;
}

struct Timing {
  double wall = 0, cpu = 0;
  int64_t bytes = 0;
};

Timing WriteFile(const Schema& schema, const ColumnBatch& batch, const std::string& path) {
  ::unlink(path.c_str());
  Timing t;
  double w0 = WallSeconds(), c0 = CpuSeconds();
  auto sink = FileSink::Create(path);
  auto writer = ParquetWriter::Open(sink->get(), schema, {{"write.parquet.compression-codec", "zstd"}});
  if (!writer) std::fprintf(stderr, "%s\n", writer.error().ToString().c_str()), std::exit(1);
  auto st = (*writer)->Write(batch);
  if (!st) std::fprintf(stderr, "%s\n", st.error().ToString().c_str()), std::exit(1);
  auto m = (*writer)->Close();
  if (!m) std::fprintf(stderr, "%s\n", m.error().ToString().c_str()), std::exit(1);
  t.wall = WallSeconds() - w0;
  t.cpu = CpuSeconds() - c0;
  t.bytes = m->file_size_in_bytes;
  ::unlink(path.c_str());
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t rows = argc > 1 ? std::stoull(argv[1]) : 2000000;
  const TypePtr pt = Type::Struct({F(5, "x", Type::Int()), F(6, "ys", Type::List(F(7, "element", Type::Long(), true)))});
  Schema nested(0, {F(1, "id", Type::Long(), true), F(2, "tags", Type::List(F(3, "element", Type::String()))),
                    F(4, "pts", Type::List(F(8, "element", pt)))});
  ColumnBatch b(nested);
  Column& id = b.columns[0];
  Column& tags = b.columns[1];
  Column& pts = b.columns[2];
  tags.children.assign(1, Column(Type::String()));
  tags.offsets.assign(1, 0);
  pts.children.assign(1, Column(pt));
  pts.offsets.assign(1, 0);
  Column& elem = pts.children[0];
  Column& ys = elem.children[1];
  ys.children.assign(1, Column(Type::Long()));
  ys.offsets.assign(1, 0);
  // The flat twin: every tag, x and y value as a row of its own.
  Schema flat(0, {F(1, "tag", Type::String()), F(2, "x", Type::Int()), F(3, "y", Type::Long())});
  ColumnBatch fb(flat);
  uint64_t x = 88172645463325252ull;
  size_t entries = 0;
  for (uint64_t r = 0; r < rows; ++r) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    id.longs.push_back(static_cast<int64_t>(r));
    ++id.length;
    for (uint64_t k = 0; k < x % 8; ++k) {
      const std::string word = "word" + std::to_string((x >> (k * 4)) % 50);
      PutString(tags.children[0], word);
      PutString(fb.columns[0], word);
    }
    tags.offsets.push_back(static_cast<uint32_t>(tags.children[0].length));
    ++tags.length;
    for (uint64_t k = 0; k < (x >> 8) % 4; ++k) {
      elem.children[0].ints.push_back(static_cast<int32_t>(r + k));
      ++elem.children[0].length;
      for (uint64_t j = 0; j < (x >> (12 + k)) % 3; ++j) {
        ys.children[0].longs.push_back(static_cast<int64_t>(r * 3 + j));
        ++ys.children[0].length;
      }
      ys.offsets.push_back(static_cast<uint32_t>(ys.children[0].length));
      ++ys.length;
      ++elem.length;
    }
    pts.offsets.push_back(static_cast<uint32_t>(elem.length));
    ++pts.length;
  }
  b.num_rows = rows;
  entries = tags.children[0].length + elem.length + ys.children[0].length;
  // Flat columns of one length: the longest of the three value lists, the others cycled.
  const size_t n = std::max({tags.children[0].length, elem.length, ys.children[0].length});
  for (size_t i = fb.columns[0].length; i < n; ++i) PutString(fb.columns[0], std::string(tags.children[0].BytesAt(i % tags.children[0].length)));
  for (size_t i = 0; i < n; ++i) fb.columns[1].ints.push_back(elem.children[0].ints[i % elem.length]);
  for (size_t i = 0; i < n; ++i) fb.columns[2].longs.push_back(ys.children[0].longs[i % ys.children[0].length]);
  fb.columns[1].length = fb.columns[2].length = n;
  fb.num_rows = n;

  const std::string path = "/tmp/floe_nested_write_bench_" + std::to_string(getpid()) + ".parquet";
  Timing nt = WriteFile(nested, b, path);
  Timing ft = WriteFile(flat, fb, path);
  std::printf(
      "{\"rows\":%llu,\"leaf_values\":%zu,\"nested_write_s\":%.4f,\"nested_write_cpu_s\":%.4f,\"nested_bytes\":%lld,"
      "\"flat_rows\":%zu,\"flat_write_s\":%.4f,\"flat_write_cpu_s\":%.4f,\"flat_bytes\":%lld}\n",
      static_cast<unsigned long long>(rows), entries, nt.wall, nt.cpu, static_cast<long long>(nt.bytes), n, ft.wall,
      ft.cpu, static_cast<long long>(ft.bytes));
  return 0;
}
