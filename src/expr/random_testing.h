// Test-only helpers: random small files (rows over a few typed columns, with nulls and NaN),
// their metrics computed from the rows, and random filters over them. Used by the property
// tests that check evaluators against brute force.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "expr/binder.h"
#include "expr/expression.h"
#include "expr/metrics_evaluator.h"
#include "types/column_batch.h"
#include "types/schema.h"
#include "types/temporal.h"

namespace floe::testing {

enum ColumnId { kId = 1, kSmall = 2, kName = 3, kScore = 4, kTs = 5, kDay = 6, kAmount = 7, kFlag = 8 };

inline Schema RandomSchema() {
  return Schema(0, {
                       {kId, "id", Type::Long(), false, ""},
                       {kSmall, "small", Type::Int(), false, ""},
                       {kName, "name", Type::String(), false, ""},
                       {kScore, "score", Type::Double(), false, ""},
                       {kTs, "ts", Type::Timestamp(), false, ""},
                       {kDay, "day", Type::Date(), false, ""},
                       {kAmount, "amount", Type::Decimal(9, 2), false, ""},
                       {kFlag, "flag", Type::Boolean(), false, ""},
                   });
}

class RandomData {
 public:
  explicit RandomData(uint32_t seed) : rng_(seed) {}

  int Int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool Chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) { return v[Int(0, static_cast<int>(v.size()) - 1)]; }

  std::string RandomString(int max_len) {
    static const std::vector<std::string> kChars = {"a", "b", "c", "\xc3\xa9", "%", "_"};
    std::string s;
    int len = Int(0, max_len);
    for (int i = 0; i < len; ++i) s += Chance(0.1) ? Pick(kChars) : Pick(std::vector<std::string>{"a", "b", "c", "\xc3\xa9"});
    return s;
  }

  // A non-null value of a column; small domains so that filters often hit.
  Literal Value(int column) {
    static const int64_t kDayMicros = 86400LL * 1000000;
    static const std::vector<int32_t> kBaseDays = {0, DaysFromCivil(2026, 1, 1), DaysFromCivil(1969, 12, 1)};
    switch (column) {
      case kId: return Literal::Long(Int(-20, 20));
      case kSmall: return Literal::Int(Int(-20, 20));
      case kName: return Literal::String(RandomString(4));
      case kScore: {
        static const std::vector<double> kScores = {-2.5, -1, -0.0, 0.0, 0.5, 1, 3, 7.25};
        return Literal::Double(Pick(kScores));
      }
      case kTs: {
        int64_t base = static_cast<int64_t>(Pick(kBaseDays)) * kDayMicros;
        int64_t offset = static_cast<int64_t>(Int(-40 * 24, 40 * 24)) * 3600 * 1000000 +
                         (Chance(0.5) ? 0 : static_cast<int64_t>(Int(-3599, 3599)) * 1000000 + Int(-1, 1));
        return Literal::Timestamp(base + offset);
      }
      case kDay: return Literal::Date(Pick(kBaseDays) + Int(-40, 40));
      case kAmount: return Literal::Decimal(Int(-500, 500), 9, 2);
      case kFlag: return Literal::Boolean(Chance(0.5));
    }
    return Literal();
  }

  // A cell: sometimes null, sometimes NaN for the double column.
  Literal Cell(int column) {
    if (Chance(0.15)) return Literal::Null(RandomSchema().FindField(column)->type);
    if (column == kScore && Chance(0.1)) return Literal::Double(std::nan(""));
    return Value(column);
  }

  ColumnBatch Rows(int max_rows) {
    Schema schema = RandomSchema();
    ColumnBatch batch(schema);
    int n = Int(0, max_rows);
    for (int r = 0; r < n; ++r) {
      std::vector<Literal> row;
      for (const auto& f : schema.fields()) row.push_back(Cell(f.id));
      (void)batch.AppendRow(row);
    }
    return batch;
  }

  // A literal near the column's values: one of them, or one step beside one.
  Literal Near(int column) {
    Literal v = Value(column);
    if (!Chance(0.3)) return v;
    switch (column) {
      case kId: return Literal::Long(v.AsLong() + Pick(std::vector<int64_t>{-1, 1}));
      case kTs: return Literal::Timestamp(v.AsLong() + Pick(std::vector<int64_t>{-1, 1}));
      case kDay: return Literal::Date(v.AsInt() + Pick(std::vector<int32_t>{-1, 1}));
      default: return v;
    }
  }

  Expr RandomPredicate() {
    static const std::vector<int> kColumns = {kId, kSmall, kName, kScore, kTs, kDay, kAmount, kFlag};
    int column = Pick(kColumns);
    std::string name = RandomSchema().FindField(column)->name;
    int kind = Int(0, 9);
    if (kind == 0) return Chance(0.5) ? IsNull(name) : NotNull(name);
    if (kind == 1 && column == kScore) return Chance(0.5) ? IsNan(name) : NotNan(name);
    if (kind == 2) {
      std::vector<Literal> values;
      int n = Int(1, 4);
      for (int i = 0; i < n; ++i) values.push_back(Near(column));
      return Chance(0.5) ? In(name, values) : NotIn(name, values);
    }
    if (kind == 3 && column == kName) {
      std::string prefix = RandomString(3);
      return Chance(0.5) ? StartsWith(name, prefix) : NotStartsWith(name, prefix);
    }
    if (kind == 4 && column == kName) {
      std::string pattern;
      int parts = Int(1, 4);
      for (int i = 0; i < parts; ++i) pattern += Pick(std::vector<std::string>{"a", "b", "\xc3\xa9", "%", "_", "\\%"});
      return Predicate(Chance(0.5) ? Op::kLike : Op::kNotLike, Ref(name), {Literal::String(pattern)});
    }
    if (kind == 5 && (column == kId || column == kSmall || column == kScore)) {
      // Arithmetic: metrics and projections cannot judge it.
      ArithOp op = Pick(std::vector<ArithOp>{ArithOp::kAdd, ArithOp::kSub, ArithOp::kMul, ArithOp::kDiv, ArithOp::kMod});
      int64_t k = Int(-3, 3);
      TermPtr term = Arith(op, Ref(name), LiteralTerm(Literal::Long(k)));
      if (Chance(0.3)) term = Arith(ArithOp::kAdd, term, Ref(name));
      Op cmp = Pick(std::vector<Op>{Op::kLt, Op::kLtEq, Op::kGt, Op::kGtEq, Op::kEq, Op::kNotEq});
      return Predicate(cmp, term, {Literal::Long(Int(-4, 4))});
    }
    Op cmp = Pick(std::vector<Op>{Op::kLt, Op::kLtEq, Op::kGt, Op::kGtEq, Op::kEq, Op::kNotEq});
    return Predicate(cmp, Ref(name), {Near(column)});
  }

  Expr RandomExpression(int depth) {
    if (depth == 0 || Chance(0.35)) {
      if (Chance(0.03)) return Chance(0.5) ? True() : False();
      return RandomPredicate();
    }
    switch (Int(0, 2)) {
      case 0: return Expression::MakeAnd(RandomExpression(depth - 1), RandomExpression(depth - 1));
      case 1: return Expression::MakeOr(RandomExpression(depth - 1), RandomExpression(depth - 1));
      default: return Expression::MakeNot(RandomExpression(depth - 1));
    }
  }

  std::mt19937& rng() { return rng_; }

 private:
  std::mt19937 rng_;
};

// Metrics of a batch as a writer computes them; `truncate_to` > 0 truncates string bounds to
// that many bytes (lower: a prefix; upper: rounded up, or dropped when it cannot be).
inline FileMetrics MetricsOf(const ColumnBatch& batch, RandomData* rnd, int truncate_to = 0) {
  FileMetrics m;
  m.record_count = static_cast<int64_t>(batch.num_rows);
  for (size_t c = 0; c < batch.fields.size(); ++c) {
    int id = batch.fields[c].id;
    int64_t nulls = 0, nans = 0;
    std::optional<Literal> lo, hi;
    for (size_t r = 0; r < batch.num_rows; ++r) {
      Literal v = batch.columns[c].Get(r);
      if (v.is_null()) {
        ++nulls;
        continue;
      }
      bool nan = (std::holds_alternative<double>(v.value()) && std::isnan(v.AsDouble()));
      if (nan) {
        ++nans;
        continue;
      }
      if (!lo || Literal::Compare(v, *lo) < 0) lo = v;
      if (!hi || Literal::Compare(v, *hi) > 0) hi = v;
    }
    // Each statistic is sometimes missing, as with writers that do not record it.
    if (!rnd->Chance(0.1)) m.value_counts[id] = static_cast<int64_t>(batch.num_rows);
    if (!rnd->Chance(0.1)) m.null_value_counts[id] = nulls;
    if (batch.fields[c].type->id() == TypeId::kDouble && !rnd->Chance(0.1)) m.nan_value_counts[id] = nans;
    if (lo && hi && !rnd->Chance(0.1)) {
      if (truncate_to > 0 && batch.fields[c].type->id() == TypeId::kString) {
        std::string l = lo->AsBytes(), h = hi->AsBytes();
        if (l.size() > static_cast<size_t>(truncate_to)) l.resize(truncate_to);
        bool have_upper = true;
        if (h.size() > static_cast<size_t>(truncate_to)) {
          h.resize(truncate_to);
          while (!h.empty() && static_cast<unsigned char>(h.back()) == 0xff) h.pop_back();
          if (h.empty()) {
            have_upper = false;
          } else {
            h.back() = static_cast<char>(static_cast<unsigned char>(h.back()) + 1);
          }
        }
        m.lower_bounds[id] = l;
        if (have_upper) m.upper_bounds[id] = h;
      } else {
        m.SetBounds(id, *lo, *hi);
      }
    }
  }
  return m;
}

}  // namespace floe::testing
