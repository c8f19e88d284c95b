#include "expr/row_evaluator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <unordered_set>

#include "expr/column_arithmetic.h"
#include "expr/value_ops.h"

namespace floe {
namespace {

// Applies a comparison between every row's value (get(i)) and one literal (never NaN: the
// binder rejects NaN literals). Floating point: NaN sorts above every number, -0.0 == 0.0.
template <typename Get, typename V>
void CompareLoop(Op op, size_t n, Get get, V lit, uint8_t* out) {
  switch (op) {
    case Op::kLt: for (size_t i = 0; i < n; ++i) out[i] = get(i) < lit; break;
    case Op::kLtEq: for (size_t i = 0; i < n; ++i) out[i] = get(i) <= lit; break;
    case Op::kGt:
      if constexpr (std::is_floating_point_v<V>) {
        for (size_t i = 0; i < n; ++i) out[i] = get(i) > lit || get(i) != get(i);  // NaN sorts above numbers
      } else {
        for (size_t i = 0; i < n; ++i) out[i] = get(i) > lit;
      }
      break;
    case Op::kGtEq:
      if constexpr (std::is_floating_point_v<V>) {
        for (size_t i = 0; i < n; ++i) out[i] = get(i) >= lit || get(i) != get(i);
      } else {
        for (size_t i = 0; i < n; ++i) out[i] = get(i) >= lit;
      }
      break;
    case Op::kEq: for (size_t i = 0; i < n; ++i) out[i] = get(i) == lit; break;
    case Op::kNotEq: for (size_t i = 0; i < n; ++i) out[i] = get(i) != lit; break;
    default: std::fill_n(out, n, uint8_t{0}); break;
  }
}

// IN / NOT IN over values comparable with ==; NaN never equals anything, so NaN is NOT IN.
template <typename Get, typename V>
void InLoop(bool in, size_t n, Get get, std::vector<V> set, uint8_t* out) {
  if (set.size() <= 8) {
    for (size_t i = 0; i < n; ++i) {
      auto v = get(i);
      bool found = false;
      for (const V& s : set) found |= (v == s);
      out[i] = found == in;
    }
    return;
  }
  std::sort(set.begin(), set.end());
  for (size_t i = 0; i < n; ++i) {
    auto v = get(i);
    bool found = std::binary_search(set.begin(), set.end(), static_cast<V>(v)) && v == v;  // v == v: not NaN
    out[i] = found == in;
  }
}

class RowEvaluator {
 public:
  explicit RowEvaluator(const ColumnBatch& batch) : batch_(batch), n_(batch.num_rows) {}

  Status Eval(const Expr& e, uint8_t* out) {
    switch (e->op()) {
      case Op::kTrue: std::fill_n(out, n_, uint8_t{1}); return Ok();
      case Op::kFalse: std::fill_n(out, n_, uint8_t{0}); return Ok();
      case Op::kAnd:
      case Op::kOr: {
        FLOE_RETURN_IF_ERROR(Eval(e->left(), out));
        bool is_and = e->op() == Op::kAnd;
        // Skip the right side when the left already decides every row.
        bool decided = std::all_of(out, out + n_, [&](uint8_t v) { return v == (is_and ? 0 : 1); });
        if (decided) return Ok();
        std::vector<uint8_t> right(n_);
        FLOE_RETURN_IF_ERROR(Eval(e->right(), right.data()));
        if (is_and) {
          for (size_t i = 0; i < n_; ++i) out[i] &= right[i];
        } else {
          for (size_t i = 0; i < n_; ++i) out[i] |= right[i];
        }
        return Ok();
      }
      case Op::kNot: return InvalidArgument("internal: NOT must be rewritten before row evaluation");
      default: return EvalPredicate(*e, out);
    }
  }

 private:
  Result<const Column*> ColumnOf(const Term& t) { return TermColumn(batch_, t); }

  static void MaskNulls(const std::vector<uint8_t>& nulls, uint8_t* out, size_t n) {
    if (nulls.empty()) return;
    for (size_t i = 0; i < n; ++i) out[i] &= static_cast<uint8_t>(nulls[i] == 0);
  }

  Status EvalPredicate(const Expression& e, uint8_t* out) {
    const Term& t = *e.term();
    if (t.kind == Term::Kind::kArithmetic) return EvalArithmeticPredicate(e, out);
    if (t.kind != Term::Kind::kReference) return InvalidArgument("predicate " + ToString(e.term()) + " has no column");
    FLOE_ASSIGN_OR_RETURN(const Column* c, ColumnOf(t));
    Op op = e.op();
    const std::vector<uint8_t>& nulls = c->nulls;
    switch (op) {
      case Op::kIsNull:
      case Op::kNotNull:
        for (size_t i = 0; i < n_; ++i) out[i] = (!nulls.empty() && nulls[i]) == (op == Op::kIsNull);
        return Ok();
      case Op::kIsNan:
      case Op::kNotNan:
        for (size_t i = 0; i < n_; ++i) {
          bool null = !nulls.empty() && nulls[i];
          bool nan = !null && (c->type->id() == TypeId::kFloat ? std::isnan(c->floats[i]) : std::isnan(c->doubles[i]));
          out[i] = op == Op::kIsNan ? nan : !nan;
        }
        return Ok();
      default: break;
    }
    FLOE_RETURN_IF_ERROR(EvalValues(*c, op, e.literals(), out));
    MaskNulls(nulls, out, n_);
    return Ok();
  }

  // Whether a literal has the storage a column's typed loop reads it as (a column may come from
  // a file written before a type promotion, e.g. float data under a double field).
  static bool Compatible(const Column& c, const Literal& l) {
    const auto& v = l.value();
    switch (c.type->id()) {
      case TypeId::kBoolean: return std::holds_alternative<bool>(v);
      case TypeId::kFloat:
      case TypeId::kDouble:
        return std::holds_alternative<float>(v) || std::holds_alternative<double>(v) ||
               std::holds_alternative<int32_t>(v) || std::holds_alternative<int64_t>(v);
      case TypeId::kDecimal: return std::holds_alternative<__int128>(v);
      case TypeId::kString:
      case TypeId::kBinary:
      case TypeId::kFixed:
      case TypeId::kUuid: return std::holds_alternative<std::string>(v);
      default: return std::holds_alternative<int32_t>(v) || std::holds_alternative<int64_t>(v);
    }
  }

  static double AnyDouble(const Literal& l) {
    if (auto* f = std::get_if<float>(&l.value())) return *f;
    if (auto* d = std::get_if<double>(&l.value())) return *d;
    return static_cast<double>(l.AsInt64());
  }

  Status EvalValues(const Column& c, Op op, const std::vector<Literal>& lits, uint8_t* out) {
    bool in = op == Op::kIn || op == Op::kNotIn;
    for (const Literal& l : lits)
      if (l.is_null() || !Compatible(c, l))
        return InvalidArgument("cannot compare a " + c.type->ToString() + " column with " + LiteralToSql(l));
    switch (c.type->id()) {
      case TypeId::kBoolean: {
        auto get = [&](size_t i) { return c.bools[i] != 0; };
        return Typed<bool>(op, get, lits, [](const Literal& l) { return l.AsBool(); }, out);
      }
      case TypeId::kInt:
      case TypeId::kDate: {
        auto get = [&](size_t i) { return static_cast<int64_t>(c.ints[i]); };
        return Typed<int64_t>(op, get, lits, [](const Literal& l) { return l.AsInt64(); }, out);
      }
      case TypeId::kLong:
      case TypeId::kTime:
      case TypeId::kTimestamp:
      case TypeId::kTimestampTz:
      case TypeId::kTimestampNs:
      case TypeId::kTimestampTzNs: {
        const int64_t* v = c.longs.data();
        auto get = [v](size_t i) { return v[i]; };
        return Typed<int64_t>(op, get, lits, [](const Literal& l) { return l.AsInt64(); }, out);
      }
      case TypeId::kFloat: {
        // Compared in double: exact for float values and float or double literals alike.
        const float* v = c.floats.data();
        auto get = [v](size_t i) { return static_cast<double>(v[i]); };
        return Typed<double>(op, get, lits, AnyDouble, out);
      }
      case TypeId::kDouble: {
        const double* v = c.doubles.data();
        auto get = [v](size_t i) { return v[i]; };
        return Typed<double>(op, get, lits, AnyDouble, out);
      }
      case TypeId::kDecimal: {
        const __int128* v = c.decimals.data();
        auto get = [v](size_t i) { return v[i]; };
        return Typed<__int128>(op, get, lits, [](const Literal& l) { return l.AsDecimal(); }, out);
      }
      case TypeId::kString:
      case TypeId::kBinary:
      case TypeId::kFixed:
      case TypeId::kUuid: {
        const char* data = c.bytes.data();
        const uint32_t* off = c.offsets.data();
        auto get = [data, off](size_t i) { return std::string_view(data + off[i], off[i + 1] - off[i]); };
        if (op == Op::kStartsWith || op == Op::kNotStartsWith) {
          std::string_view p = lits.front().AsBytes();
          bool want = op == Op::kStartsWith;
          for (size_t i = 0; i < n_; ++i) out[i] = get(i).starts_with(p) == want;
          return Ok();
        }
        if (op == Op::kLike || op == Op::kNotLike) {
          std::string_view p = lits.front().AsBytes();
          bool want = op == Op::kLike;
          for (size_t i = 0; i < n_; ++i) out[i] = LikeMatch(get(i), p) == want;
          return Ok();
        }
        if (op == Op::kEq || op == Op::kNotEq) {
          // Length first, then the bytes; short literals (country codes, ids) skip memcmp calls.
          std::string_view lit = lits.front().AsBytes();
          const size_t len = lit.size();
          const uint8_t want = op == Op::kEq;
          for (size_t i = 0; i < n_; ++i) {
            uint32_t start = off[i];
            bool same = off[i + 1] - start == len;
            if (same) {
              if (len <= 16) {
                for (size_t k = 0; k < len; ++k) same &= data[start + k] == lit[k];
              } else {
                same = std::memcmp(data + start, lit.data(), len) == 0;
              }
            }
            out[i] = same == want;
          }
          return Ok();
        }
        if (in && lits.size() > 8) {
          std::unordered_set<std::string_view> set;
          for (const auto& l : lits) set.insert(l.AsBytes());
          for (size_t i = 0; i < n_; ++i) out[i] = set.contains(get(i)) == (op == Op::kIn);
          return Ok();
        }
        return Typed<std::string_view>(op, get, lits, [](const Literal& l) { return std::string_view(l.AsBytes()); }, out);
      }
      default: return InvalidArgument("cannot compare values of type " + c.type->ToString());
    }
  }

  template <typename V, typename Get, typename Conv>
  Status Typed(Op op, Get get, const std::vector<Literal>& lits, Conv conv, uint8_t* out) {
    if (op == Op::kIn || op == Op::kNotIn) {
      std::vector<V> set;
      for (const auto& l : lits) set.push_back(conv(l));
      InLoop<Get, V>(op == Op::kIn, n_, get, std::move(set), out);
      return Ok();
    }
    if (op == Op::kStartsWith || op == Op::kNotStartsWith || op == Op::kLike || op == Op::kNotLike)
      return InvalidArgument(std::string(OpName(op)) + " needs a string column");
    CompareLoop(op, n_, get, conv(lits.front()), out);
    return Ok();
  }


  static bool HasDecimal(const Term& t) {
    if (t.type && t.type->id() == TypeId::kDecimal) return true;
    return t.kind == Term::Kind::kArithmetic && (HasDecimal(*t.left) || HasDecimal(*t.right));
  }

  Status CollectColumns(const Term& t, std::vector<std::pair<int, const Column*>>* out) {
    if (t.kind == Term::Kind::kReference) {
      FLOE_ASSIGN_OR_RETURN(const Column* c, ColumnOf(t));
      out->emplace_back(t.field_id, c);
    } else if (t.kind == Term::Kind::kArithmetic) {
      FLOE_RETURN_IF_ERROR(CollectColumns(*t.left, out));
      FLOE_RETURN_IF_ERROR(CollectColumns(*t.right, out));
    }
    return Ok();
  }

  // Decimal arithmetic is exact (decimal_arithmetic.h), row by row: slower than the columnar
  // long and double paths, but a decimal never passes through a double.
  Status EvalDecimalPredicate(const Expression& e, uint8_t* out) {
    std::vector<std::pair<int, const Column*>> columns;
    FLOE_RETURN_IF_ERROR(CollectColumns(*e.term(), &columns));
    std::vector<Literal> values(columns.size());
    auto lookup = [&](int field_id) -> const Literal* {
      for (size_t c = 0; c < columns.size(); ++c)
        if (columns[c].first == field_id) return &values[c];
      return nullptr;
    };
    for (size_t i = 0; i < n_; ++i) {
      for (size_t c = 0; c < columns.size(); ++c) values[c] = columns[c].second->Get(i);
      out[i] = EvaluatePredicate(e.op(), EvaluateTerm(e.term(), lookup), e.literals()) == Truth::kTrue;
    }
    return Ok();
  }

  Status EvalArithmeticPredicate(const Expression& e, uint8_t* out) {
    if (HasDecimal(*e.term())) return EvalDecimalPredicate(e, out);
    bool floating = e.term()->type && e.term()->type->id() == TypeId::kDouble;
    TermValues v;
    FLOE_RETURN_IF_ERROR(ComputeTerm(e.term(), floating, batch_, &v));
    Op op = e.op();
    switch (op) {
      case Op::kIsNull:
      case Op::kNotNull:
        for (size_t i = 0; i < n_; ++i) out[i] = v.IsNull(i) == (op == Op::kIsNull);
        return Ok();
      case Op::kIsNan:
      case Op::kNotNan:
        for (size_t i = 0; i < n_; ++i) {
          bool nan = floating && !v.IsNull(i) && std::isnan(v.DoubleAt(i));
          out[i] = op == Op::kIsNan ? nan : !nan;
        }
        return Ok();
      default: break;
    }
    if (v.scalar) {  // a term without columns: the binder rejects these, but stay safe
      std::fill_n(out, n_, uint8_t{0});
      return Ok();
    }
    if (floating) {
      const double* d = v.doubles;
      auto get = [d](size_t i) { return d[i]; };
      FLOE_RETURN_IF_ERROR(Typed<double>(op, get, e.literals(), AnyDouble, out));
    } else {
      for (const Literal& x : e.literals())
        if (!std::holds_alternative<int32_t>(x.value()) && !std::holds_alternative<int64_t>(x.value()))
          return InvalidArgument("cannot compare long expression " + ToSql(e.term()) + " with " + LiteralToSql(x));
      const int64_t* l = v.longs;
      auto get = [l](size_t i) { return l[i]; };
      FLOE_RETURN_IF_ERROR(Typed<int64_t>(op, get, e.literals(), [](const Literal& x) { return x.AsInt64(); }, out));
    }
    if (v.nulls)
      for (size_t i = 0; i < n_; ++i) out[i] &= static_cast<uint8_t>(v.nulls[i] == 0);
    return Ok();
  }

  const ColumnBatch& batch_;
  size_t n_;
};

const Column* FindIn(const Type& type, const std::vector<Column>& columns, int field_id) {
  const auto& fields = type.fields();
  for (size_t i = 0; i < fields.size() && i < columns.size(); ++i) {
    if (fields[i].id == field_id) return &columns[i];
    if (fields[i].type->id() == TypeId::kStruct) {
      if (const Column* c = FindIn(*fields[i].type, columns[i].children, field_id)) return c;
    }
  }
  return nullptr;
}

}  // namespace

const Column* FindColumn(const ColumnBatch& batch, int field_id) {
  for (size_t i = 0; i < batch.fields.size() && i < batch.columns.size(); ++i) {
    if (batch.fields[i].id == field_id) return &batch.columns[i];
    if (batch.fields[i].type->id() == TypeId::kStruct) {
      if (const Column* c = FindIn(*batch.fields[i].type, batch.columns[i].children, field_id)) return c;
    }
  }
  return nullptr;
}

Status EvaluateRows(const Expr& bound, const ColumnBatch& batch, std::vector<uint8_t>* selection) {
  if (!bound || !bound->is_bound()) return InvalidArgument("EvaluateRows needs a bound expression");
  selection->resize(batch.num_rows);
  RowEvaluator evaluator(batch);
  return evaluator.Eval(RewriteNot(bound), selection->data());
}

Result<std::vector<uint8_t>> EvaluateRows(const Expr& bound, const ColumnBatch& batch) {
  std::vector<uint8_t> out;
  FLOE_RETURN_IF_ERROR(EvaluateRows(bound, batch, &out));
  return out;
}

}  // namespace floe
