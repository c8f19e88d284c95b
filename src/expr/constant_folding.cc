#include "expr/constant_folding.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "expr/value_ops.h"

namespace floe {
namespace {

double ToDouble(const Literal& v) {
  if (v.type()->id() == TypeId::kDecimal) return std::strtod(v.ToString().c_str(), nullptr);
  if (v.type()->id() == TypeId::kDouble) return v.AsDouble();
  if (v.type()->id() == TypeId::kFloat) return v.AsFloat();
  return static_cast<double>(v.AsInt64());
}

}  // namespace

bool IsNumberLiteral(const Literal& v) {
  if (!v.type() || v.is_null()) return false;
  TypeId id = v.type()->id();
  return id == TypeId::kLong || id == TypeId::kInt || id == TypeId::kDouble || id == TypeId::kFloat ||
         id == TypeId::kDecimal;
}

Result<Literal> ParseNumberLiteral(std::string_view s) {
  bool has_point = s.find('.') != std::string_view::npos;
  bool has_exponent = s.find_first_of("eE") != std::string_view::npos;
  if (!has_point && !has_exponent) {
    int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec == std::errc() && p == s.data() + s.size()) return Literal::Long(v);
  }
  if (!has_exponent) {
    // Exact decimal: the digits and the scale as written.
    std::string digits;
    int scale = 0;
    bool after_point = false;
    for (char c : s) {
      if (c == '.') {
        after_point = true;
        continue;
      }
      digits.push_back(c);
      if (after_point) ++scale;
    }
    size_t first = digits.find_first_not_of('0');
    std::string significant = first == std::string::npos ? "0" : digits.substr(first);
    if (significant.size() <= 38) {
      __int128 unscaled = 0;
      for (char c : significant) unscaled = unscaled * 10 + (c - '0');
      int precision = std::max<int>(static_cast<int>(significant.size()), std::max(scale, 1));
      if (precision <= 38) return Literal::Decimal(unscaled, precision, scale);
    }
  }
  std::string text(s);
  char* end = nullptr;
  double d = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(d))
    return InvalidArgument("number '" + text + "' is out of range");
  return Literal::Double(d);
}

Result<Literal> FoldArithmetic(ArithOp op, const Literal& x, const Literal& y) {
  if (!IsNumberLiteral(x) || !IsNumberLiteral(y))
    return InvalidArgument("arithmetic needs numbers, not " + LiteralToSql(IsNumberLiteral(x) ? y : x));
  if (x.type()->id() == TypeId::kLong && y.type()->id() == TypeId::kLong) {
    auto v = ArithLong(op, x.AsLong(), y.AsLong());
    if (!v) return InvalidArgument("division by zero");
    return Literal::Long(*v);
  }
  auto v = ArithDouble(op, ToDouble(x), ToDouble(y));
  if (!v) return InvalidArgument("division by zero");
  if (!std::isfinite(*v)) return InvalidArgument("arithmetic overflow");
  return Literal::Double(*v);
}

Result<Literal> NegateConstant(const Literal& v) {
  if (!IsNumberLiteral(v)) return InvalidArgument("cannot negate " + LiteralToSql(v));
  switch (v.type()->id()) {
    case TypeId::kLong:
      // -(-9223372036854775808) does not fit a long: widen to a decimal.
      if (v.AsLong() == std::numeric_limits<int64_t>::min())
        return Literal::Decimal(-static_cast<__int128>(v.AsLong()), 19, 0);
      return Literal::Long(-v.AsLong());
    case TypeId::kDouble: return Literal::Double(-v.AsDouble());
    case TypeId::kDecimal: return Literal(v.type(), -v.AsDecimal());
    default: return Literal::Double(-ToDouble(v));
  }
}

Result<bool> CompareConstants(Op op, const Literal& x, const Literal& y) {
  int c = 0;
  if (IsNumberLiteral(x) && IsNumberLiteral(y)) {
    double dx = ToDouble(x), dy = ToDouble(y);
    c = dx < dy ? -1 : (dy < dx ? 1 : 0);
  } else if (x.type() && y.type() && !x.is_null() && !y.is_null() && x.type()->Equals(*y.type())) {
    c = CompareValues(x, y);
  } else {
    return InvalidArgument("cannot compare " + LiteralToSql(x) + " with " + LiteralToSql(y));
  }
  switch (op) {
    case Op::kEq: return c == 0;
    case Op::kNotEq: return c != 0;
    case Op::kLt: return c < 0;
    case Op::kLtEq: return c <= 0;
    case Op::kGt: return c > 0;
    case Op::kGtEq: return c >= 0;
    default: return InvalidArgument(std::string("cannot fold ") + OpName(op));
  }
}

}  // namespace floe
