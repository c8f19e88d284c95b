// Cross-engine: DuckDB (npm @duckdb/node-api, via tests/js/read_parquet.mjs) reads every file
// floe writes, for each type and codec, and returns floe's rows; floe reads files DuckDB
// writes and returns DuckDB's rows. Values are compared in a canonical text form per type.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "node_tools.h"
#include "parquet/parquet_reader.h"
#include "parquet/parquet_writer.h"

namespace floe::parquet {
namespace {

namespace fs = std::filesystem;

using testing::ShellQuote;

std::string Script() { return testing::JsScript("read_parquet.mjs"); }

// Runs a command; returns its output, or nullopt (recording a failure) when it fails.
std::optional<std::string> RunCommand(const std::string& cmd) {
  testing::CommandOutput run = testing::RunCommand(cmd);
  if (run.exit_code != 0) {
    ADD_FAILURE() << cmd << "\n" << run.output;
    return std::nullopt;
  }
  return run.output;
}

// A leaf column of a schema with its dotted SQL path.
struct Leaf {
  std::string sql;  // "st.a"
  std::vector<int> path;  // column index, then child indexes
  TypePtr type;
};

void Leaves(const std::vector<NestedField>& fields, const std::string& prefix, std::vector<int> path, std::vector<Leaf>* out) {
  for (size_t i = 0; i < fields.size(); ++i) {
    std::vector<int> p = path;
    p.push_back(static_cast<int>(i));
    std::string name = prefix.empty() ? "\"" + fields[i].name + "\"" : prefix + ".\"" + fields[i].name + "\"";
    if (fields[i].type->id() == TypeId::kStruct) {
      Leaves(fields[i].type->fields(), name, p, out);
    } else {
      out->push_back({name, p, fields[i].type});
    }
  }
}

// DuckDB SQL rendering a column canonically (see Canonical below).
std::string CanonicalSql(const Leaf& l) {
  const std::string& x = l.sql;
  switch (l.type->id()) {
    case TypeId::kDate: return "date_diff('day', DATE '1970-01-01', " + x + ")::VARCHAR";
    case TypeId::kTime: return "(hour(" + x + ")::BIGINT * 3600000000 + minute(" + x + ")::BIGINT * 60000000 + microsecond(" + x + "))::VARCHAR";
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: return "epoch_us(" + x + ")::VARCHAR";
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: return "epoch_ns(" + x + ")::VARCHAR";
    case TypeId::kBinary:
    case TypeId::kFixed: return "hex(" + x + ")";
    default: return x + "::VARCHAR";
  }
}

std::string Hex(std::string_view b) {
  static const char* d = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : b) {
    out += d[c >> 4];
    out += d[c & 15];
  }
  return out;
}

// floe's value in the same canonical form; floats compare numerically instead.
std::string Canonical(const Column& c, size_t r) {
  switch (c.type->id()) {
    case TypeId::kBoolean: return c.bools[r] ? "true" : "false";
    case TypeId::kInt:
    case TypeId::kDate: return std::to_string(c.ints[r]);
    case TypeId::kDecimal: return c.Get(r).ToString();
    case TypeId::kString: return std::string(c.BytesAt(r));
    case TypeId::kBinary:
    case TypeId::kFixed: return Hex(c.BytesAt(r));
    case TypeId::kUuid: {
      std::string h = Hex(c.BytesAt(r));
      for (char& ch : h) ch = static_cast<char>(std::tolower(ch));
      return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20);
    }
    default: return std::to_string(c.longs[r]);
  }
}

const Column& LeafColumn(const ColumnBatch& b, const Leaf& l) {
  const Column* c = &b.columns[l.path[0]];
  for (size_t i = 1; i < l.path.size(); ++i) c = &c->children[l.path[i]];
  return *c;
}

// Compares DuckDB's rows of `sql` over `file` with floe's batch.
void CompareWithDuckDB(const std::string& file, const ColumnBatch& batch, const std::string& order_by) {
  std::vector<Leaf> leaves;
  Leaves(batch.fields, "", {}, &leaves);
  std::string sql = "SELECT ";
  for (size_t i = 0; i < leaves.size(); ++i) sql += (i ? ", " : "") + CanonicalSql(leaves[i]);
  sql += " FROM t ORDER BY " + order_by;
  auto out = RunCommand("node " + ShellQuote(Script()) + " read " + ShellQuote(file) + " " + ShellQuote(sql));
  ASSERT_TRUE(out);
  std::vector<nlohmann::json> rows;
  size_t start = 0;
  while (start < out->size()) {
    size_t end = out->find('\n', start);
    if (end == std::string::npos) end = out->size();
    if (end > start) rows.push_back(nlohmann::json::parse(out->substr(start, end - start)));
    start = end + 1;
  }
  ASSERT_EQ(rows.size(), batch.num_rows) << file;
  for (size_t r = 0; r < rows.size(); ++r) {
    for (size_t k = 0; k < leaves.size(); ++k) {
      const Column& c = LeafColumn(batch, leaves[k]);
      const auto& v = rows[r][k];
      std::string where = file + " row " + std::to_string(r) + " column " + leaves[k].sql;
      ASSERT_EQ(v.is_null(), c.IsNull(r)) << where;
      if (v.is_null()) continue;
      std::string duck = v.get<std::string>();
      TypeId t = c.type->id();
      if (t == TypeId::kFloat || t == TypeId::kDouble) {
        double mine = t == TypeId::kFloat ? c.floats[r] : c.doubles[r];
        double theirs = std::strtod(duck.c_str(), nullptr);
        if (std::isnan(mine)) {
          ASSERT_TRUE(std::isnan(theirs)) << where << ": " << duck;
        } else if (t == TypeId::kFloat) {
          ASSERT_EQ(static_cast<float>(theirs), static_cast<float>(mine)) << where << ": " << duck;
        } else {
          ASSERT_EQ(theirs, mine) << where << ": " << duck;
        }
        continue;
      }
      ASSERT_EQ(duck, Canonical(c, r)) << where;
    }
  }
}

Schema AllTypes() {
  return Schema(0, {
      {1, "id", Type::Long(), true, ""},
      {2, "b", Type::Boolean(), false, ""},
      {3, "i", Type::Int(), false, ""},
      {4, "f", Type::Float(), false, ""},
      {5, "d", Type::Double(), false, ""},
      {6, "dec9", Type::Decimal(9, 2), false, ""},
      {7, "dec18", Type::Decimal(18, 3), false, ""},
      {8, "dec38", Type::Decimal(38, 10), false, ""},
      {9, "dt", Type::Date(), false, ""},
      {10, "tm", Type::Time(), false, ""},
      {11, "ts", Type::Timestamp(), false, ""},
      {12, "tstz", Type::TimestampTz(), false, ""},
      {13, "tsns", Type::TimestampNs(), false, ""},
      {14, "s", Type::String(), false, ""},
      {15, "u", Type::Uuid(), false, ""},
      {16, "fx", Type::Fixed(3), false, ""},
      {17, "bin", Type::Binary(), false, ""},
      {18, "st", Type::Struct({{19, "a", Type::Int(), false, ""}, {20, "z", Type::String(), false, ""}}), false, ""},
  });
}

ColumnBatch AllTypesBatch(const Schema& schema, int n) {
  ColumnBatch b(schema);
  for (int r = 0; r < n; ++r) {
    uint64_t x = static_cast<uint64_t>(r) * 2654435761u;
    bool null = r % 7 == 3;
    auto put = [&](int k, Literal v) { EXPECT_TRUE(null && k > 0 ? (b.columns[k].AppendNull(), Status()) : b.columns[k].Append(v)); };
    put(0, Literal::Long(r));
    put(1, Literal::Boolean(x % 3 == 0));
    put(2, Literal::Int(static_cast<int32_t>(x % 2000) - 1000));
    put(3, Literal::Float(r % 50 == 1 ? NAN : static_cast<float>(x % 10000) / 7.0f));
    put(4, Literal::Double(static_cast<double>(x % 100000) / 3.0 - 100));
    put(5, Literal::Decimal(static_cast<__int128>(x % 100000) - 50000, 9, 2));
    put(6, Literal::Decimal(static_cast<__int128>(x % 100000000000ULL) - 50000000000LL, 18, 3));
    put(7, Literal::Decimal((static_cast<__int128>(x) * 1000000007 - 5) * (r % 2 ? 1 : -1), 38, 10));
    put(8, Literal::Date(static_cast<int32_t>(x % 40000) - 5000));
    put(9, Literal::Time(static_cast<int64_t>(x % 86400000000ULL)));
    put(10, Literal::Timestamp(static_cast<int64_t>(x % 4000000000000000ULL) - 1000000000000000LL));
    put(11, Literal::TimestampTz(static_cast<int64_t>(x % 4000000000000000ULL)));
    put(12, Literal(Type::TimestampNs(), static_cast<int64_t>(x % 4000000000000000000ULL)));
    put(13, Literal::String(r % 5 == 0 ? "ünïcödé " + std::to_string(x % 100) : "s" + std::to_string(x % 17)));
    std::string u(16, '\0');
    for (int i = 0; i < 16; ++i) u[i] = static_cast<char>((x >> (i % 8)) ^ (i * 29));
    put(14, Literal(Type::Uuid(), u));
    put(15, Literal(Type::Fixed(3), std::string{static_cast<char>(x), '\0', static_cast<char>(r)}));
    put(16, Literal::Binary(std::string(x % 6, static_cast<char>(0xf0 + r % 16))));
    Column& st = b.columns[17];
    if (r % 11 == 4) {
      st.AppendNull();
    } else {
      if (r % 3 == 0) st.children[0].AppendNull(); else EXPECT_TRUE(st.children[0].Append(Literal::Int(r)));
      EXPECT_TRUE(st.children[1].Append(Literal::String("z" + std::to_string(r % 4))));
      if (!st.nulls.empty()) st.nulls.push_back(0);
      ++st.length;
    }
  }
  b.num_rows = static_cast<size_t>(n);
  return b;
}

class DuckDB : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (auto why = testing::MissingNodeModule("@duckdb/node-api")) GTEST_SKIP() << *why;
    dir_ = fs::temp_directory_path() / ("floe_parquet_duckdb_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

TEST_P(DuckDB, ReadsWhatFloeWrites) {
  Schema schema = AllTypes();
  ColumnBatch batch = AllTypesBatch(schema, 12000);
  std::string path = (dir_ / ("floe_" + GetParam() + ".parquet")).string();
  auto sink = FileSink::Create(path);
  ASSERT_TRUE(sink);
  auto w = ParquetWriter::Open(sink->get(), schema, {{"write.parquet.compression-codec", GetParam()},
                                                     {"write.parquet.page-size-bytes", "8192"},
                                                     {"write.parquet.row-group-size-bytes", "20000"}});
  ASSERT_TRUE(w) << w.error().ToString();
  ASSERT_TRUE((*w)->Write(batch));
  auto m = (*w)->Close();
  ASSERT_TRUE(m) << m.error().ToString();
  ASSERT_GT(m->split_offsets.size(), 1u);  // several row groups
  CompareWithDuckDB(path, batch, "\"id\"");
}

TEST_P(DuckDB, FloeReadsWhatDuckDBWrites) {
  std::string path = (dir_ / ("duckdb_" + GetParam() + ".parquet")).string();
  ASSERT_TRUE(RunCommand("node " + ShellQuote(Script()) + " write " + ShellQuote(path) + " " + GetParam()));
  auto file = ParquetFile::OpenPath(path);
  ASSERT_TRUE(file) << file.error().ToString();
  auto batch = ReadParquetFile(*file);
  ASSERT_TRUE(batch) << batch.error().ToString();
  ASSERT_EQ(batch->num_rows, 1000u);
  // DuckDB's own types, as floe sees them.
  const Schema& s = (*file)->schema();
  EXPECT_EQ(s.FindField("dec38")->type->ToString(), "decimal(38,11)");
  EXPECT_EQ(s.FindField("u")->type->id(), TypeId::kUuid);
  EXPECT_EQ(s.FindField("tstz")->type->id(), TypeId::kTimestampTz);
  EXPECT_EQ(s.FindField("ts")->type->id(), TypeId::kTimestamp);
  CompareWithDuckDB(path, *batch, "\"id\"");
}

INSTANTIATE_TEST_SUITE_P(Codecs, DuckDB, ::testing::Values("zstd", "snappy", "gzip", "uncompressed"));

}  // namespace
}  // namespace floe::parquet
