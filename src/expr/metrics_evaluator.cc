#include "expr/metrics_evaluator.h"

#include <optional>

#include "expr/value_ops.h"

namespace floe {

void FileMetrics::SetBounds(int field_id, const Literal& lower, const Literal& upper) {
  if (auto b = lower.ToBinary()) lower_bounds[field_id] = *b;
  if (auto b = upper.ToBinary()) upper_bounds[field_id] = *b;
}

namespace {

std::optional<int64_t> Find(const FlatMap<int, int64_t>& m, int id) {
  auto it = m.find(id);
  if (it == m.end() || it->second < 0) return std::nullopt;
  return it->second;
}

bool IsFloatingType(const TypePtr& t) { return t->id() == TypeId::kFloat || t->id() == TypeId::kDouble; }

// What the metrics say about one column.
struct ColumnFacts {
  std::optional<int64_t> values, nulls, nans;
  std::optional<Literal> lower, upper;
  bool floating = false;

  // Every value is null: no comparison, IN or LIKE can be true.
  bool AllNull() const { return values && nulls && *nulls == *values; }
  // Every value is null or NaN: no ordered comparison can be true.
  bool AllNullOrNaN() const {
    if (AllNull()) return true;
    return floating && values && nans && *nans + nulls.value_or(0) == *values && nulls.has_value();
  }
  bool AllNaN() const { return floating && values && nans && *nans == *values; }
  bool NoNulls() const { return nulls && *nulls == 0; }
  bool NoNaNs() const { return !floating || (nans && *nans == 0); }
};

std::optional<Literal> DecodeBound(const FlatMap<int, std::string>& bounds, int id, const TypePtr& type) {
  auto it = bounds.find(id);
  if (it == bounds.end()) return std::nullopt;
  auto v = Literal::FromBinary(type, it->second);
  if (!v || v->is_null() || IsNaN(*v)) return std::nullopt;  // a NaN bound says nothing usable
  return *v;
}

// The first n bytes of a string bound, for prefix comparisons.
Literal Prefix(const Literal& v, size_t n) {
  const std::string& s = v.AsBytes();
  return Literal(v.type(), s.substr(0, std::min(n, s.size())));
}

class MetricsEvaluator {
 public:
  MetricsEvaluator(const FileMetrics& m, bool strict) : m_(m), strict_(strict) {}

  bool Eval(const Expr& e) {
    switch (e->op()) {
      case Op::kTrue: return true;
      case Op::kFalse: return false;
      case Op::kAnd: return Eval(e->left()) && Eval(e->right());
      case Op::kOr: return Eval(e->left()) || Eval(e->right());
      case Op::kNot: return !strict_;  // not reached: NOT is rewritten first
      default: {
        if (!e->term()->is_reference()) return !strict_;
        ColumnFacts f = Facts(*e->term());
        return strict_ ? Strict(*e, f) : Inclusive(*e, f);
      }
    }
  }

 private:
  ColumnFacts Facts(const Term& ref) {
    ColumnFacts f;
    int id = ref.field_id;
    f.floating = IsFloatingType(ref.type);
    f.values = Find(m_.value_counts, id);
    f.nulls = Find(m_.null_value_counts, id);
    f.nans = Find(m_.nan_value_counts, id);
    if (ref.type->is_primitive()) {
      f.lower = DecodeBound(m_.lower_bounds, id, ref.type);
      f.upper = DecodeBound(m_.upper_bounds, id, ref.type);
    }
    return f;
  }

  static bool Inclusive(const Expression& e, const ColumnFacts& f) {
    const auto& lits = e.literals();
    auto below_lower = [&](const Literal& v) { return f.lower && CompareValues(v, *f.lower) < 0; };
    auto above_upper = [&](const Literal& v) { return f.upper && CompareValues(v, *f.upper) > 0; };
    auto single_value = [&]() -> const Literal* {  // every non-null, non-NaN value equals this
      if (f.lower && f.upper && CompareValues(*f.lower, *f.upper) == 0) return &*f.lower;
      return nullptr;
    };
    switch (e.op()) {
      case Op::kIsNull: return !f.NoNulls();
      case Op::kNotNull: return !f.AllNull();
      case Op::kIsNan: return f.floating && !(f.nans && *f.nans == 0) && !f.AllNull();
      case Op::kNotNan: return !f.AllNaN();
      case Op::kLt: return !f.AllNullOrNaN() && !(f.lower && CompareValues(*f.lower, lits[0]) >= 0);
      case Op::kLtEq: return !f.AllNullOrNaN() && !(f.lower && CompareValues(*f.lower, lits[0]) > 0);
      // NaN sorts above every number, so NaN rows satisfy > and >=; bounds leave NaN out.
      case Op::kGt: return !f.AllNull() && (!f.NoNaNs() || !(f.upper && CompareValues(*f.upper, lits[0]) <= 0));
      case Op::kGtEq: return !f.AllNull() && (!f.NoNaNs() || !(f.upper && CompareValues(*f.upper, lits[0]) < 0));
      case Op::kEq: return !f.AllNullOrNaN() && !below_lower(lits[0]) && !above_upper(lits[0]);
      case Op::kIn: {
        if (f.AllNullOrNaN()) return false;
        for (const auto& v : lits)
          if (!below_lower(v) && !above_upper(v)) return true;
        return false;
      }
      case Op::kNotEq:
      case Op::kNotIn: {
        if (f.AllNull()) return false;
        // NaN != v is true, so only a file without NaNs whose values all equal one excluded
        // literal cannot match.
        const Literal* only = single_value();
        if (!only || !f.NoNaNs()) return true;
        for (const auto& v : lits)
          if (CompareValues(*only, v) == 0) return false;
        return true;
      }
      case Op::kStartsWith: return !f.AllNull() && PrefixMightMatch(f, lits[0].AsBytes());
      case Op::kNotStartsWith: {
        if (f.AllNull()) return false;
        const std::string& p = lits[0].AsBytes();
        bool all_start = f.lower && f.upper && std::string_view(f.lower->AsBytes()).starts_with(p) &&
                         std::string_view(f.upper->AsBytes()).starts_with(p);
        return !all_start;
      }
      case Op::kLike: {
        if (f.AllNull()) return false;
        // Every match starts with the pattern's literal prefix.
        std::string prefix;
        for (size_t i = 0; i < lits[0].AsBytes().size(); ++i) {
          char c = lits[0].AsBytes()[i];
          if (c == '%' || c == '_') break;
          if (c == '\\' && i + 1 < lits[0].AsBytes().size()) c = lits[0].AsBytes()[++i];
          prefix.push_back(c);
        }
        return PrefixMightMatch(f, prefix);
      }
      case Op::kNotLike: return !f.AllNull();
      default: return true;
    }
  }

  static bool PrefixMightMatch(const ColumnFacts& f, const std::string& p) {
    Literal prefix = Literal::String(p);
    // Strings starting with p sort between p and p followed by 0xff...: compare bound prefixes.
    if (f.lower && CompareValues(Prefix(*f.lower, p.size()), prefix) > 0) return false;
    if (f.upper && CompareValues(Prefix(*f.upper, p.size()), prefix) < 0) return false;
    return true;
  }

  static bool Strict(const Expression& e, const ColumnFacts& f) {
    const auto& lits = e.literals();
    // <, <=, = and IN need every value present and not NaN.
    bool plain = f.NoNulls() && f.NoNaNs();
    auto outside = [&](const Literal& v) {
      return (f.lower && CompareValues(v, *f.lower) < 0) || (f.upper && CompareValues(v, *f.upper) > 0);
    };
    switch (e.op()) {
      case Op::kIsNull: return f.AllNull();
      case Op::kNotNull: return f.NoNulls();
      case Op::kIsNan: return f.AllNaN();
      case Op::kNotNan: return f.AllNull() || (f.floating && f.nans && *f.nans == 0) || !f.floating;
      case Op::kLt: return plain && f.upper && CompareValues(*f.upper, lits[0]) < 0;
      case Op::kLtEq: return plain && f.upper && CompareValues(*f.upper, lits[0]) <= 0;
      // NaN rows satisfy > and >=: only nulls and numbers below the literal spoil them.
      case Op::kGt: return f.NoNulls() && (f.AllNaN() || (f.lower && CompareValues(*f.lower, lits[0]) > 0));
      case Op::kGtEq: return f.NoNulls() && (f.AllNaN() || (f.lower && CompareValues(*f.lower, lits[0]) >= 0));
      case Op::kEq:
      case Op::kIn: {
        if (!plain || !f.lower || !f.upper || CompareValues(*f.lower, *f.upper) != 0) return false;
        for (const auto& v : lits)
          if (CompareValues(*f.lower, v) == 0) return true;
        return false;
      }
      case Op::kNotEq:
      case Op::kNotIn: {
        // NaN != v holds, so only nulls and values inside the bounds can spoil it.
        if (!f.NoNulls() || !f.lower || !f.upper) return false;
        for (const auto& v : lits)
          if (!outside(v)) return false;
        return true;
      }
      case Op::kStartsWith: {
        const std::string& p = lits[0].AsBytes();
        return f.NoNulls() && f.lower && f.upper && std::string_view(f.lower->AsBytes()).starts_with(p) &&
               std::string_view(f.upper->AsBytes()).starts_with(p);
      }
      case Op::kNotStartsWith: {
        const std::string& p = lits[0].AsBytes();
        Literal prefix = Literal::String(p);
        if (!f.NoNulls()) return false;
        return (f.lower && CompareValues(Prefix(*f.lower, p.size()), prefix) > 0) ||
               (f.upper && CompareValues(Prefix(*f.upper, p.size()), prefix) < 0);
      }
      default: return false;
    }
  }

  const FileMetrics& m_;
  bool strict_;
};

}  // namespace

bool InclusiveMetrics(const Expr& bound, const FileMetrics& metrics) {
  if (metrics.record_count == 0) return false;
  return MetricsEvaluator(metrics, false).Eval(RewriteNot(bound));
}

bool StrictMetrics(const Expr& bound, const FileMetrics& metrics) {
  if (metrics.record_count == 0) return true;
  return MetricsEvaluator(metrics, true).Eval(RewriteNot(bound));
}

}  // namespace floe
