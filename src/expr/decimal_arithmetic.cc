#include "expr/decimal_arithmetic.h"

#include <algorithm>

#include "types/value_text.h"

namespace floe {
namespace {

using int128 = __int128;

// n / d rounded half away from zero (d != 0).
int128 DivideRounded(int128 n, int128 d) {
  int128 q = n / d, r = n % d;
  if (r < 0) r = -r;
  int128 ad = d < 0 ? -d : d;
  if (r >= ad - r) q += (n < 0) == (d < 0) ? 1 : -1;
  return q;
}

// Precision above 38: give up scale, keeping at least min(scale, 6) fraction digits.
TypePtr Bounded(int precision, int scale) {
  if (precision <= kMaxDecimalPrecision) return Type::Decimal(std::max(precision, 1), scale);
  int whole = precision - scale;
  int min_scale = std::min(scale, 6);
  return Type::Decimal(kMaxDecimalPrecision, std::max(kMaxDecimalPrecision - whole, min_scale));
}

// The unscaled value and scale of a decimal, int or long literal.
Result<std::pair<int128, int>> Unscaled(const Literal& v) {
  switch (v.type()->id()) {
    case TypeId::kDecimal: return std::pair<int128, int>{v.AsDecimal(), v.type()->scale()};
    case TypeId::kInt:
    case TypeId::kLong: return std::pair<int128, int>{static_cast<int128>(v.AsInt64()), 0};
    default: return InvalidArgument("decimal arithmetic needs decimal or whole-number values, not " + v.ToString());
  }
}

std::unexpected<Error> Overflow(const Literal& a, const Literal& b, ArithOp op, const TypePtr& result) {
  const char* sign = op == ArithOp::kAdd ? "+" : op == ArithOp::kSub ? "-" : op == ArithOp::kMul ? "*"
                   : op == ArithOp::kDiv ? "/" : "%";
  return InvalidArgument("decimal overflow: " + a.ToString() + " " + sign + " " + b.ToString() +
                         " needs more than the " + std::to_string(result->precision()) + " digits of " +
                         result->ToString());
}

// v * 10^n, false on overflow.
bool ScaleUp(int128 v, int n, int128* out) {
  int128 r = v;
  for (int i = 0; i < n; ++i)
    if (__builtin_mul_overflow(r, 10, &r)) return false;
  *out = r;
  return true;
}

}  // namespace

Result<TypePtr> AsDecimalType(const TypePtr& type) {
  switch (type->id()) {
    case TypeId::kDecimal: return type;
    case TypeId::kInt: return Type::Decimal(10, 0);
    case TypeId::kLong: return Type::Decimal(20, 0);
    default: return InvalidArgument("decimal arithmetic needs decimal or whole-number values, not " + type->ToString());
  }
}

Result<TypePtr> DecimalResultType(ArithOp op, const TypePtr& left, const TypePtr& right) {
  FLOE_ASSIGN_OR_RETURN(TypePtr l, AsDecimalType(left));
  FLOE_ASSIGN_OR_RETURN(TypePtr r, AsDecimalType(right));
  const int p1 = l->precision(), s1 = l->scale(), p2 = r->precision(), s2 = r->scale();
  switch (op) {
    case ArithOp::kAdd:
    case ArithOp::kSub: {
      int scale = std::max(s1, s2);
      return Bounded(std::max(p1 - s1, p2 - s2) + scale + 1, scale);
    }
    case ArithOp::kMul: return Bounded(p1 + p2 + 1, s1 + s2);
    case ArithOp::kDiv: {
      int scale = std::max(6, s1 + p2 + 1);
      return Bounded(p1 - s1 + s2 + scale, scale);
    }
    case ArithOp::kMod: {
      int scale = std::max(s1, s2);
      return Bounded(std::min(p1 - s1, p2 - s2) + scale, scale);
    }
  }
  return InvalidArgument("unknown arithmetic operator");
}

Result<Literal> DecimalArithmetic(ArithOp op, const Literal& a, const Literal& b, const TypePtr& result) {
  if (a.is_null() || b.is_null()) return Literal::Null(result);
  FLOE_ASSIGN_OR_RETURN(auto x, Unscaled(a));
  FLOE_ASSIGN_OR_RETURN(auto y, Unscaled(b));
  const int scale = result->scale();
  int128 value = 0;
  switch (op) {
    case ArithOp::kAdd:
    case ArithOp::kSub:
    case ArithOp::kMod: {
      // Both at the larger operand scale (exact), then rounded to the result's.
      const int common = std::max(x.second, y.second);
      int128 u, v;
      if (!ScaleUp(x.first, common - x.second, &u) || !ScaleUp(y.first, common - y.second, &v))
        return Overflow(a, b, op, result);
      int128 exact;
      if (op == ArithOp::kMod) {
        if (v == 0) return Literal::Null(result);
        exact = u % v;
      } else if (op == ArithOp::kAdd ? __builtin_add_overflow(u, v, &exact) : __builtin_sub_overflow(u, v, &exact)) {
        return Overflow(a, b, op, result);
      }
      if (common > scale) {
        value = DivideRounded(exact, PowerOfTen(common - scale));
      } else if (!ScaleUp(exact, scale - common, &value)) {
        return Overflow(a, b, op, result);
      }
      break;
    }
    case ArithOp::kMul: {
      int128 exact;
      if (__builtin_mul_overflow(x.first, y.first, &exact)) return Overflow(a, b, op, result);
      const int exact_scale = x.second + y.second;
      if (exact_scale > scale) {
        value = DivideRounded(exact, PowerOfTen(exact_scale - scale));
      } else if (!ScaleUp(exact, scale - exact_scale, &value)) {
        return Overflow(a, b, op, result);
      }
      break;
    }
    case ArithOp::kDiv: {
      if (y.first == 0) return Literal::Null(result);
      // x / y at `scale`: x * 10^(scale - sx + sy) / y, rounded.
      const int shift = scale - x.second + y.second;
      int128 numerator = x.first, denominator = y.first;
      if (shift >= 0) {
        if (!ScaleUp(x.first, shift, &numerator)) return Overflow(a, b, op, result);
      } else if (!ScaleUp(y.first, -shift, &denominator)) {
        return Overflow(a, b, op, result);
      }
      value = DivideRounded(numerator, denominator);
      break;
    }
  }
  if (!FitsDigits(value, result->precision())) return Overflow(a, b, op, result);
  return Literal::Decimal(value, result->precision(), scale);
}

Result<Literal> FitDecimal(const Literal& v, const TypePtr& target) {
  if (v.is_null()) return Literal::Null(target);
  FLOE_ASSIGN_OR_RETURN(auto x, Unscaled(v));
  int128 value;
  if (x.second > target->scale()) {
    value = DivideRounded(x.first, PowerOfTen(x.second - target->scale()));
  } else if (!ScaleUp(x.first, target->scale() - x.second, &value)) {
    return InvalidArgument("value " + v.ToString() + " does not fit " + target->ToString());
  }
  if (!FitsDigits(value, target->precision()))
    return InvalidArgument("value " + v.ToString() + " does not fit " + target->ToString() + " (at most " +
                           std::to_string(target->precision() - target->scale()) + " digits before the point)");
  return Literal::Decimal(value, target->precision(), target->scale());
}

}  // namespace floe
