// Printing expressions: Iceberg's message form (ToString) and a SQL-like form (ToSql) that the
// parser reads back.
#include <cctype>
#include <cmath>

#include "expr/expression.h"
#include "util/strings.h"

namespace floe {
namespace {

const char* ArithSymbol(ArithOp op) {
  switch (op) {
    case ArithOp::kAdd: return "+";
    case ArithOp::kSub: return "-";
    case ArithOp::kMul: return "*";
    case ArithOp::kDiv: return "/";
    case ArithOp::kMod: return "%";
  }
  return "?";
}

bool IsNumeric(TypeId id) {
  return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kFloat || id == TypeId::kDouble ||
         id == TypeId::kDecimal;
}

// Iceberg prints strings in double quotes and numbers bare.
std::string IcebergLiteral(const Literal& v) {
  if (!v.type() || v.is_null()) return "null";
  TypeId id = v.type()->id();
  if (IsNumeric(id) || id == TypeId::kBoolean) return v.ToString();
  if (id == TypeId::kBinary || id == TypeId::kFixed) return "X'" + Hex(v.AsBytes(), HexCase::kUpper) + "'";
  return "\"" + v.ToString() + "\"";
}

std::string QuoteSql(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    out.push_back(c);
    if (c == '\'') out.push_back('\'');
  }
  return out + "'";
}

}  // namespace

std::string LiteralToSql(const Literal& v) {
  if (!v.type() || v.is_null()) return "NULL";
  TypeId id = v.type()->id();
  switch (id) {
    case TypeId::kBoolean: return v.AsBool() ? "TRUE" : "FALSE";
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kDecimal: return v.ToString();
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double d = id == TypeId::kFloat ? v.AsFloat() : v.AsDouble();
      if (!std::isfinite(d)) return QuoteSql(v.ToString());  // 'NaN', 'Infinity': the binder converts them
      return v.ToString();
    }
    case TypeId::kBinary:
    case TypeId::kFixed: return "X'" + Hex(v.AsBytes(), HexCase::kUpper) + "'";
    default: return QuoteSql(v.ToString());
  }
}

namespace {

bool IsSqlKeyword(std::string_view word) {
  static const char* kWords[] = {"and", "or", "not", "in", "is", "null", "like", "between", "true", "false", "nan"};
  for (const char* k : kWords) {
    if (word.size() != std::char_traits<char>::length(k)) continue;
    bool same = true;
    for (size_t i = 0; i < word.size(); ++i)
      same = same && std::tolower(static_cast<unsigned char>(word[i])) == k[i];
    if (same) return true;
  }
  return false;
}

std::string QuoteWhole(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    out.push_back(c);
    if (c == '"') out.push_back('"');
  }
  return out + "\"";
}

// Bare when the lexer would read it back as one word (non-ASCII bytes count as letters).
std::string SqlIdentifierPart(std::string_view part) {
  auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80; };
  bool plain = !part.empty() && letter(part[0]) && !IsSqlKeyword(part);
  for (char c : part) plain = plain && (letter(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '$');
  return plain ? std::string(part) : QuoteWhole(part);
}

// Dotted names print part by part so that "a.b" reads back as the nested field a.b.
std::string SqlIdentifier(std::string_view name) {
  if (name.empty() || name.front() == '.' || name.back() == '.' || name.find("..") != std::string_view::npos)
    return QuoteWhole(name);  // empty parts would not read back part by part
  std::string out;
  size_t start = 0;
  while (true) {
    size_t dot = name.find('.', start);
    out += SqlIdentifierPart(name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) break;
    out += ".";
    start = dot + 1;
  }
  return out;
}

}  // namespace

std::string ToSql(const TermPtr& t) {
  switch (t->kind) {
    case Term::Kind::kReference: return SqlIdentifier(t->name);
    case Term::Kind::kLiteral: return LiteralToSql(t->literal);
    case Term::Kind::kArithmetic:
      return "(" + ToSql(t->left) + " " + ArithSymbol(t->arith) + " " + ToSql(t->right) + ")";
  }
  return "?";
}

namespace {

std::string JoinLiterals(const std::vector<Literal>& values, std::string (*print)(const Literal&)) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    out += print(values[i]);
  }
  return out;
}

// Escapes LIKE wildcards so that a starts-with prefix reads back as a prefix.
std::string EscapeLikePrefix(const std::string& prefix) {
  std::string out;
  for (char c : prefix) {
    if (c == '%' || c == '_' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + "%";
}

}  // namespace

std::string ToString(const TermPtr& t) {
  switch (t->kind) {
    case Term::Kind::kReference: return "ref(name=\"" + t->name + "\")";
    case Term::Kind::kLiteral: return IcebergLiteral(t->literal);
    case Term::Kind::kArithmetic:
      return "(" + ToString(t->left) + " " + ArithSymbol(t->arith) + " " + ToString(t->right) + ")";
  }
  return "?";
}

std::string ToString(const Expr& e) {
  auto binary = [&](const char* symbol) { return ToString(e->term()) + " " + symbol + " " + IcebergLiteral(e->literal()); };
  switch (e->op()) {
    case Op::kTrue: return "true";
    case Op::kFalse: return "false";
    case Op::kAnd: return "(" + ToString(e->left()) + " and " + ToString(e->right()) + ")";
    case Op::kOr: return "(" + ToString(e->left()) + " or " + ToString(e->right()) + ")";
    case Op::kNot: return "not(" + ToString(e->left()) + ")";
    case Op::kIsNull: return "is_null(" + ToString(e->term()) + ")";
    case Op::kNotNull: return "not_null(" + ToString(e->term()) + ")";
    case Op::kIsNan: return "is_nan(" + ToString(e->term()) + ")";
    case Op::kNotNan: return "not_nan(" + ToString(e->term()) + ")";
    case Op::kLt: return binary("<");
    case Op::kLtEq: return binary("<=");
    case Op::kGt: return binary(">");
    case Op::kGtEq: return binary(">=");
    case Op::kEq: return binary("==");
    case Op::kNotEq: return binary("!=");
    case Op::kIn: return ToString(e->term()) + " in (" + JoinLiterals(e->literals(), IcebergLiteral) + ")";
    case Op::kNotIn: return ToString(e->term()) + " not in (" + JoinLiterals(e->literals(), IcebergLiteral) + ")";
    case Op::kStartsWith: return binary("startsWith");
    case Op::kNotStartsWith: return binary("notStartsWith");
    case Op::kLike: return binary("like");
    case Op::kNotLike: return binary("not like");
  }
  return "?";
}

std::string ToSql(const Expr& e) {
  auto binary = [&](const char* symbol) { return ToSql(e->term()) + " " + symbol + " " + LiteralToSql(e->literal()); };
  switch (e->op()) {
    case Op::kTrue: return "TRUE";
    case Op::kFalse: return "FALSE";
    case Op::kAnd: return "(" + ToSql(e->left()) + " AND " + ToSql(e->right()) + ")";
    case Op::kOr: return "(" + ToSql(e->left()) + " OR " + ToSql(e->right()) + ")";
    case Op::kNot: return "NOT (" + ToSql(e->left()) + ")";
    case Op::kIsNull: return ToSql(e->term()) + " IS NULL";
    case Op::kNotNull: return ToSql(e->term()) + " IS NOT NULL";
    case Op::kIsNan: return ToSql(e->term()) + " IS NAN";
    case Op::kNotNan: return ToSql(e->term()) + " IS NOT NAN";
    case Op::kLt: return binary("<");
    case Op::kLtEq: return binary("<=");
    case Op::kGt: return binary(">");
    case Op::kGtEq: return binary(">=");
    case Op::kEq: return binary("=");
    case Op::kNotEq: return binary("<>");
    case Op::kIn: return ToSql(e->term()) + " IN (" + JoinLiterals(e->literals(), LiteralToSql) + ")";
    case Op::kNotIn: return ToSql(e->term()) + " NOT IN (" + JoinLiterals(e->literals(), LiteralToSql) + ")";
    case Op::kStartsWith: return ToSql(e->term()) + " LIKE " + QuoteSql(EscapeLikePrefix(e->literal().AsBytes()));
    case Op::kNotStartsWith: return ToSql(e->term()) + " NOT LIKE " + QuoteSql(EscapeLikePrefix(e->literal().AsBytes()));
    case Op::kLike: return ToSql(e->term()) + " LIKE " + QuoteSql(e->literal().AsBytes());
    case Op::kNotLike: return ToSql(e->term()) + " NOT LIKE " + QuoteSql(e->literal().AsBytes());
  }
  return "?";
}

}  // namespace floe
