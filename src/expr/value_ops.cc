#include "expr/value_ops.h"

#include <cmath>
#include <limits>

#include "expr/decimal_arithmetic.h"

namespace floe {
namespace {

bool IsFloating(const Literal& v) {
  return std::holds_alternative<float>(v.value()) || std::holds_alternative<double>(v.value());
}

double AsFloating(const Literal& v) {
  if (auto* f = std::get_if<float>(&v.value())) return *f;
  if (auto* d = std::get_if<double>(&v.value())) return *d;
  return static_cast<double>(v.AsInt64());
}

bool IsWholeNumber(const Literal& v) {
  return std::holds_alternative<int32_t>(v.value()) || std::holds_alternative<int64_t>(v.value());
}

size_t CodePointLength(std::string_view s, size_t pos) {
  unsigned char c = s[pos];
  size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 1;
  return std::min(len, s.size() - pos);
}

bool IsTimestampType(TypeId id) {
  return id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kTimestampNs ||
         id == TypeId::kTimestampTzNs;
}

}  // namespace

int CompareValues(const Literal& a, const Literal& b) {
  if (IsFloating(a) || IsFloating(b)) {
    double x = AsFloating(a), y = AsFloating(b);
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) - std::isnan(y);  // NaN above all numbers
    return x < y ? -1 : (y < x ? 1 : 0);
  }
  return Literal::Compare(a, b);
}

bool IsNaN(const Literal& v) {
  if (auto* f = std::get_if<float>(&v.value())) return std::isnan(*f);
  if (auto* d = std::get_if<double>(&v.value())) return std::isnan(*d);
  return false;
}

size_t Utf8Length(std::string_view s) {
  size_t n = 0;
  for (size_t pos = 0; pos < s.size(); pos += CodePointLength(s, pos)) ++n;
  return n;
}

bool LikeMatch(std::string_view s, std::string_view p) {
  constexpr size_t kNone = std::string_view::npos;
  size_t si = 0, pi = 0, star_p = kNone, star_s = 0;
  while (si < s.size()) {
    if (pi < p.size()) {
      char c = p[pi];
      if (c == '%') {
        star_p = ++pi;
        star_s = si;
        continue;
      }
      if (c == '_') {
        si += CodePointLength(s, si);
        ++pi;
        continue;
      }
      size_t used = 1;
      if (c == '\\' && pi + 1 < p.size()) {
        c = p[pi + 1];
        used = 2;
      }
      if (s[si] == c) {
        ++si;
        pi += used;
        continue;
      }
    }
    // Mismatch: let the last % swallow one more character and retry from there.
    if (star_p == kNone) return false;
    star_s += CodePointLength(s, star_s);
    si = star_s;
    pi = star_p;
  }
  while (pi < p.size() && p[pi] == '%') ++pi;
  return pi == p.size();
}

namespace {

// Splits a pattern into its literal prefix and the position of the first wildcard.
std::string LiteralPrefix(std::string_view p, size_t* wildcard_at) {
  std::string prefix;
  size_t i = 0;
  for (; i < p.size(); ++i) {
    char c = p[i];
    if (c == '%' || c == '_') break;
    if (c == '\\' && i + 1 < p.size()) c = p[++i];
    prefix.push_back(c);
  }
  *wildcard_at = i;
  return prefix;
}

}  // namespace

std::optional<std::string> LikeExactText(std::string_view p) {
  size_t at = 0;
  std::string prefix = LiteralPrefix(p, &at);
  if (at != p.size()) return std::nullopt;
  return prefix;
}

std::optional<std::string> LikePrefix(std::string_view p) {
  size_t at = 0;
  std::string prefix = LiteralPrefix(p, &at);
  if (at == p.size()) return std::nullopt;
  for (size_t i = at; i < p.size(); ++i)
    if (p[i] != '%') return std::nullopt;
  return prefix;
}

std::optional<int64_t> ArithLong(ArithOp op, int64_t a, int64_t b) {
  using U = uint64_t;
  switch (op) {
    case ArithOp::kAdd: return static_cast<int64_t>(static_cast<U>(a) + static_cast<U>(b));
    case ArithOp::kSub: return static_cast<int64_t>(static_cast<U>(a) - static_cast<U>(b));
    case ArithOp::kMul: return static_cast<int64_t>(static_cast<U>(a) * static_cast<U>(b));
    case ArithOp::kDiv:
      if (b == 0) return std::nullopt;
      if (b == -1) return static_cast<int64_t>(U{0} - static_cast<U>(a));  // INT64_MIN / -1 wraps
      return a / b;
    case ArithOp::kMod:
      if (b == 0) return std::nullopt;
      if (b == -1) return 0;
      return a % b;
  }
  return std::nullopt;
}

std::optional<double> ArithDouble(ArithOp op, double a, double b) {
  switch (op) {
    case ArithOp::kAdd: return a + b;
    case ArithOp::kSub: return a - b;
    case ArithOp::kMul: return a * b;
    case ArithOp::kDiv:
      if (b == 0) return std::nullopt;
      return a / b;
    case ArithOp::kMod:
      if (b == 0) return std::nullopt;
      return std::fmod(a, b);
  }
  return std::nullopt;
}

namespace {

// `unscaled` times 10^more_scale as a value of the decimal type `target`, for comparing only:
// unlike a cast it may hold more digits than the type's precision (such a value compares
// correctly against every value of the column and equals none), and past 38 digits it is
// clamped to +-10^38, beyond every decimal, so the product never overflows.
Literal ScaledForComparison(__int128 unscaled, int more_scale, const TypePtr& target) {
  const __int128 bound = PowerOfTen(kMaxDecimalPrecision);
  if (!FitsDigits(unscaled, kMaxDecimalPrecision - more_scale)) return Literal(target, unscaled > 0 ? bound : -bound);
  return Literal(target, unscaled * PowerOfTen(more_scale));
}

}  // namespace

std::optional<Literal> ConvertForComparison(const Literal& v, const TypePtr& target) {
  if (!v.type() || v.is_null()) return std::nullopt;
  TypeId from = v.type()->id(), to = target->id();
  if (v.type()->Equals(*target)) return v;
  auto cast = [&](const Literal& x) -> std::optional<Literal> {
    auto r = x.CastTo(target);
    if (!r) return std::nullopt;
    return *r;
  };
  switch (from) {
    case TypeId::kString:
      if (to == TypeId::kStruct || to == TypeId::kList || to == TypeId::kMap) return std::nullopt;
      return cast(v);
    case TypeId::kInt:
    case TypeId::kLong:
      if (to == TypeId::kInt) {
        int64_t x = v.AsInt64();
        if (x < std::numeric_limits<int32_t>::min() || x > std::numeric_limits<int32_t>::max())
          return Literal::Long(x);  // compares correctly against every int, matches none
        return Literal(target, static_cast<int32_t>(x));
      }
      if (to == TypeId::kDecimal) return ScaledForComparison(v.AsInt64(), target->scale(), target);
      if (to == TypeId::kLong || to == TypeId::kFloat || to == TypeId::kDouble || to == TypeId::kTime ||
          IsTimestampType(to))
        return cast(Literal::Long(v.AsInt64()));
      return std::nullopt;
    case TypeId::kDecimal: {
      if (to == TypeId::kFloat || to == TypeId::kDouble) return cast(Literal::String(v.ToString()));
      if (to == TypeId::kDecimal) {
        if (target->scale() >= v.type()->scale())
          return ScaledForComparison(v.AsDecimal(), target->scale() - v.type()->scale(), target);
        return cast(Literal::String(v.ToString()));  // exact only: "1.50" fits scale 1, "1.55" does not
      }
      if (to == TypeId::kInt || to == TypeId::kLong) {
        // A whole-valued decimal such as 12.0.
        const __int128 unscaled = v.AsDecimal(), scale = PowerOfTen(v.type()->scale());
        if (unscaled % scale != 0) return std::nullopt;
        __int128 whole = unscaled / scale;
        if (whole < std::numeric_limits<int64_t>::min() || whole > std::numeric_limits<int64_t>::max())
          return std::nullopt;
        return ConvertForComparison(Literal::Long(static_cast<int64_t>(whole)), target);
      }
      return std::nullopt;
    }
    case TypeId::kFloat:
    case TypeId::kDouble:
      if (to == TypeId::kFloat || to == TypeId::kDouble) return cast(v);
      if (to == TypeId::kDecimal && std::isfinite(AsFloating(v))) return cast(Literal::String(v.ToString()));
      return std::nullopt;
    case TypeId::kDate:
      if (to == TypeId::kDate || IsTimestampType(to)) return cast(v);
      return std::nullopt;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      if (IsTimestampType(to)) return cast(v);
      return std::nullopt;
    case TypeId::kBinary:
    case TypeId::kFixed:
    case TypeId::kUuid:
      if (to == TypeId::kBinary || to == TypeId::kFixed || to == TypeId::kUuid) return cast(v);
      return std::nullopt;
    default: return std::nullopt;  // boolean, time: only the same type
  }
}

Result<Literal> EvaluateTermChecked(const TermPtr& t, const std::function<const Literal*(int)>& lookup) {
  switch (t->kind) {
    case Term::Kind::kReference: {
      const Literal* v = lookup(t->field_id);
      return v ? *v : Literal::Null(t->type);
    }
    case Term::Kind::kLiteral: return t->literal;
    case Term::Kind::kArithmetic: {
      FLOE_ASSIGN_OR_RETURN(Literal a, EvaluateTermChecked(t->left, lookup));
      FLOE_ASSIGN_OR_RETURN(Literal b, EvaluateTermChecked(t->right, lookup));
      if (a.is_null() || b.is_null()) return Literal::Null(t->type);
      if (t->type->id() == TypeId::kDecimal) return DecimalArithmetic(t->arith, a, b, t->type);
      if (t->type->id() == TypeId::kDouble) {
        auto r = ArithDouble(t->arith, AsFloating(a), AsFloating(b));
        return r ? Literal::Double(*r) : Literal::Null(t->type);
      }
      if (!IsWholeNumber(a) || !IsWholeNumber(b)) return Literal::Null(t->type);
      auto r = ArithLong(t->arith, a.AsInt64(), b.AsInt64());
      return r ? Literal::Long(*r) : Literal::Null(t->type);
    }
  }
  return Literal();
}

Literal EvaluateTerm(const TermPtr& t, const std::function<const Literal*(int)>& lookup) {
  auto v = EvaluateTermChecked(t, lookup);
  return v ? std::move(*v) : Literal::Null(t->type);
}

Truth EvaluatePredicate(Op op, const Literal& v, const std::vector<Literal>& lits) {
  auto truth = [](bool b) { return b ? Truth::kTrue : Truth::kFalse; };
  bool null = v.is_null();
  switch (op) {
    case Op::kIsNull: return truth(null);
    case Op::kNotNull: return truth(!null);
    case Op::kIsNan: return truth(!null && IsNaN(v));
    case Op::kNotNan: return truth(null || !IsNaN(v));
    default: break;
  }
  if (null) return Truth::kUnknown;
  auto compare = [&](const Literal& lit) -> std::optional<int> {
    if (lit.is_null()) return std::nullopt;
    return CompareValues(v, lit);
  };
  switch (op) {
    case Op::kLt:
    case Op::kLtEq:
    case Op::kGt:
    case Op::kGtEq:
    case Op::kEq:
    case Op::kNotEq: {
      auto c = compare(lits.front());
      if (!c) return truth(op == Op::kNotEq);
      switch (op) {
        case Op::kLt: return truth(*c < 0);
        case Op::kLtEq: return truth(*c <= 0);
        case Op::kGt: return truth(*c > 0);
        case Op::kGtEq: return truth(*c >= 0);
        case Op::kEq: return truth(*c == 0);
        default: return truth(*c != 0);
      }
    }
    case Op::kIn:
    case Op::kNotIn: {
      bool found = false;
      for (const auto& lit : lits) {
        auto c = compare(lit);
        if (c && *c == 0) found = true;
      }
      return truth(found == (op == Op::kIn));
    }
    case Op::kStartsWith:
    case Op::kNotStartsWith: {
      if (!std::holds_alternative<std::string>(v.value()) || lits.empty() ||
          !std::holds_alternative<std::string>(lits.front().value()))
        return Truth::kUnknown;  // a value of the wrong kind (a caller's mismatched tuple)
      bool starts = std::string_view(v.AsBytes()).starts_with(lits.front().AsBytes());
      return truth(starts == (op == Op::kStartsWith));
    }
    case Op::kLike:
    case Op::kNotLike:
      if (!std::holds_alternative<std::string>(v.value()) || lits.empty() ||
          !std::holds_alternative<std::string>(lits.front().value()))
        return Truth::kUnknown;
      return truth(LikeMatch(v.AsBytes(), lits.front().AsBytes()) == (op == Op::kLike));
    default: return Truth::kUnknown;
  }
}

Truth EvaluateRow(const Expr& e, const std::function<const Literal*(int)>& lookup) {
  switch (e->op()) {
    case Op::kTrue: return Truth::kTrue;
    case Op::kFalse: return Truth::kFalse;
    case Op::kNot: {
      Truth t = EvaluateRow(e->left(), lookup);
      return t == Truth::kUnknown ? t : (t == Truth::kTrue ? Truth::kFalse : Truth::kTrue);
    }
    case Op::kAnd: {
      Truth l = EvaluateRow(e->left(), lookup), r = EvaluateRow(e->right(), lookup);
      if (l == Truth::kFalse || r == Truth::kFalse) return Truth::kFalse;
      if (l == Truth::kTrue && r == Truth::kTrue) return Truth::kTrue;
      return Truth::kUnknown;
    }
    case Op::kOr: {
      Truth l = EvaluateRow(e->left(), lookup), r = EvaluateRow(e->right(), lookup);
      if (l == Truth::kTrue || r == Truth::kTrue) return Truth::kTrue;
      if (l == Truth::kFalse && r == Truth::kFalse) return Truth::kFalse;
      return Truth::kUnknown;
    }
    default: return EvaluatePredicate(e->op(), EvaluateTerm(e->term(), lookup), e->literals());
  }
}

}  // namespace floe
