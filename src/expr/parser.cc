// A recursive-descent parser over the tokens of lexer.h. Precedence, loosest first:
// OR, AND, NOT, comparison (= <> < IS IN LIKE BETWEEN), + -, * / %, unary -, primary.
// Sub-expressions are either conditions (boolean) or values (terms); each level checks
// which one it needs so that errors point at the offending token.
#include "expr/parser.h"

#include <algorithm>
#include <cctype>

#include "expr/constant_folding.h"
#include "expr/lexer.h"
#include "expr/value_ops.h"

namespace floe {
namespace {

// Deep nesting would exhaust the stack in the recursive parser and evaluators.
constexpr int kMaxDepth = 200;

// A parsed sub-expression: a condition, or a value term (a literal term for constants).
struct Operand {
  Expr cond;
  TermPtr term;
  size_t pos = 0;
  int depth = 0;  // nesting depth of arithmetic terms

  bool is_literal() const { return term && term->kind == Term::Kind::kLiteral; }
};

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  Result<Expr> ParseAll() {
    FLOE_ASSIGN_OR_RETURN(Operand top, ParseOr());
    if (Peek().kind != Token::Kind::kEnd)
      return InvalidArgument("unexpected " + Describe(Peek()) + AtPosition(Peek().pos));
    return AsCondition(top);
  }

 private:
  const Token& Peek(size_t ahead = 0) const { return tokens_[std::min(next_ + ahead, tokens_.size() - 1)]; }
  const Token& Take() {
    const Token& t = tokens_[next_];
    if (next_ + 1 < tokens_.size()) ++next_;
    return t;
  }
  bool TakeKeyword(std::string_view k) {
    if (!Peek().IsKeyword(k)) return false;
    Take();
    return true;
  }

  Result<Expr> AsCondition(const Operand& o) {
    if (o.cond) return o.cond;
    if (o.term && o.term->is_reference()) return Predicate(Op::kEq, o.term, {Literal::Boolean(true)});
    if (o.is_literal() && o.term->literal.type() && o.term->literal.type()->id() == TypeId::kBoolean &&
        !o.term->literal.is_null())
      return o.term->literal.AsBool() ? True() : False();
    return InvalidArgument("expected a condition" + AtPosition(o.pos));
  }

  Result<TermPtr> AsValue(const Operand& o, const std::string& context) {
    if (o.term) return o.term;
    return InvalidArgument("expected a value" + context + AtPosition(o.pos));
  }

  // Joins a chain of conditions as a balanced tree so long AND/OR lists stay shallow.
  static Expr Balanced(std::vector<Expr>& parts, size_t lo, size_t hi, bool is_and) {
    if (hi - lo == 1) return parts[lo];
    size_t mid = lo + (hi - lo) / 2;
    Expr l = Balanced(parts, lo, mid, is_and), r = Balanced(parts, mid, hi, is_and);
    return is_and ? Expression::MakeAnd(std::move(l), std::move(r)) : Expression::MakeOr(std::move(l), std::move(r));
  }

  Result<Operand> ParseChain(bool is_and) {
    const char* keyword = is_and ? "AND" : "OR";
    FLOE_ASSIGN_OR_RETURN(Operand first, is_and ? ParseNot() : ParseChain(true));
    if (!Peek().IsKeyword(keyword)) return first;
    std::vector<Expr> parts;
    FLOE_ASSIGN_OR_RETURN(Expr c, AsCondition(first));
    parts.push_back(std::move(c));
    while (Peek().IsKeyword(keyword)) {
      const Token& op = Take();
      if (Peek().kind == Token::Kind::kEnd || Peek().IsSymbol(")"))
        return InvalidArgument("expected a condition after " + std::string(keyword) + AtPosition(Peek().pos));
      (void)op;
      FLOE_ASSIGN_OR_RETURN(Operand next, is_and ? ParseNot() : ParseChain(true));
      FLOE_ASSIGN_OR_RETURN(Expr nc, AsCondition(next));
      parts.push_back(std::move(nc));
    }
    Operand out;
    out.pos = first.pos;
    out.cond = Balanced(parts, 0, parts.size(), is_and);
    return out;
  }

  Result<Operand> ParseOr() { return ParseChain(false); }

  Result<Operand> ParseNot() {
    if (!Peek().IsKeyword("NOT")) return ParseComparison();
    const Token& not_token = Take();
    size_t pos = not_token.pos;
    if (++depth_ > kMaxDepth) return InvalidArgument("expression nested too deeply" + AtPosition(pos));
    if (Peek().kind == Token::Kind::kEnd) return InvalidArgument("expected a condition after NOT" + AtPosition(Peek().pos));
    FLOE_ASSIGN_OR_RETURN(Operand inner, ParseNot());
    --depth_;
    FLOE_ASSIGN_OR_RETURN(Expr c, AsCondition(inner));
    Operand out;
    out.pos = pos;
    out.cond = Not(std::move(c));
    return out;
  }

  static bool IsComparison(const Token& t) {
    if (t.kind != Token::Kind::kSymbol) return false;
    return t.text == "=" || t.text == "==" || t.text == "!=" || t.text == "<>" || t.text == "<" || t.text == "<=" ||
           t.text == ">" || t.text == ">=";
  }

  static Op ComparisonOp(const std::string& s) {
    if (s == "=" || s == "==") return Op::kEq;
    if (s == "!=" || s == "<>") return Op::kNotEq;
    if (s == "<") return Op::kLt;
    if (s == "<=") return Op::kLtEq;
    if (s == ">") return Op::kGt;
    return Op::kGtEq;
  }

  // A value operand after an operator (level 1: a sum, 2: a product, 3: a unary operand);
  // the operator is named in the error message.
  Result<Operand> ParseValueAfter(const Token& op_token, int level) {
    std::string after = " after " + Describe(op_token);
    if (Peek().kind == Token::Kind::kEnd || Peek().IsSymbol(")") || Peek().IsSymbol(",") ||
        (Peek().kind == Token::Kind::kKeyword && (Peek().text == "AND" || Peek().text == "OR")))
      return InvalidArgument("expected a value" + after + AtPosition(Peek().pos));
    Result<Operand> r = level <= 1 ? ParseAdditive() : level == 2 ? ParseArithmetic(2) : ParseUnary();
    if (!r) return r;
    if (!r->term) return InvalidArgument("expected a value" + after + AtPosition(r->pos));
    return r;
  }

  Result<Literal> LiteralOf(const Operand& o, const char* what) {
    if (!o.is_literal()) return InvalidArgument(std::string(what) + " must be a value, not a column" + AtPosition(o.pos));
    return o.term->literal;
  }

  Result<Operand> ParseComparison() {
    FLOE_ASSIGN_OR_RETURN(Operand left, ParseAdditive());
    const Token& t = Peek();
    Operand out;
    out.pos = left.pos;
    if (IsComparison(t)) {
      Token op_token = Take();
      FLOE_ASSIGN_OR_RETURN(Operand right, ParseValueAfter(op_token, 0));
      FLOE_ASSIGN_OR_RETURN(TermPtr lt, AsValue(left, " before " + Describe(op_token)));
      Op op = ComparisonOp(op_token.text);
      bool left_lit = left.is_literal(), right_lit = right.is_literal();
      for (const Operand* side : {&left, &right}) {
        if (side->is_literal() && side->term->literal.is_null())
          return InvalidArgument("cannot compare with NULL; use IS NULL or IS NOT NULL" + AtPosition(side->pos));
      }
      if (!left_lit && right_lit) {
        out.cond = Predicate(op, lt, {right.term->literal});
      } else if (left_lit && !right_lit) {
        out.cond = Predicate(FlipOp(op), right.term, {left.term->literal});
      } else if (left_lit && right_lit) {
        FLOE_ASSIGN_OR_RETURN(out.cond, FoldComparison(op, left, right, op_token));
      } else {
        return InvalidArgument("comparing two columns is not supported" + AtPosition(op_token.pos));
      }
      return out;
    }
    bool negated = false;
    if (t.IsKeyword("IS")) {
      const Token& is_token = Take();
      negated = TakeKeyword("NOT");
      FLOE_ASSIGN_OR_RETURN(TermPtr term, AsValue(left, " before IS"));
      if (left.is_literal()) return InvalidArgument("IS needs a column" + AtPosition(left.pos));
      if (TakeKeyword("NULL")) {
        out.cond = Predicate(negated ? Op::kNotNull : Op::kIsNull, term);
      } else if (TakeKeyword("NAN")) {
        out.cond = Predicate(negated ? Op::kNotNan : Op::kIsNan, term);
      } else {
        return InvalidArgument("expected NULL or NAN after " + std::string(negated ? "IS NOT" : "IS") + AtPosition(Peek().pos));
      }
      (void)is_token;
      return out;
    }
    if (t.IsKeyword("NOT") &&
        (Peek(1).IsKeyword("IN") || Peek(1).IsKeyword("LIKE") || Peek(1).IsKeyword("BETWEEN"))) {
      Take();
      negated = true;
    }
    const Token& kw = Peek();
    if (kw.IsKeyword("IN") || kw.IsKeyword("LIKE") || kw.IsKeyword("BETWEEN")) {
      Token kw_token = Take();
      FLOE_ASSIGN_OR_RETURN(TermPtr term, AsValue(left, " before " + kw_token.text));
      if (left.is_literal()) return InvalidArgument(kw_token.text + " needs a column" + AtPosition(left.pos));
      if (kw_token.text == "IN") return ParseInList(term, negated, left.pos);
      if (kw_token.text == "LIKE") {
        const Token& pattern = Peek();
        if (pattern.kind != Token::Kind::kString)
          return InvalidArgument("expected a quoted pattern after LIKE" + AtPosition(pattern.pos));
        std::string p = Take().text;
        if (auto exact = LikeExactText(p)) {
          out.cond = Predicate(negated ? Op::kNotEq : Op::kEq, term, {Literal::String(*exact)});
        } else if (auto prefix = LikePrefix(p)) {
          out.cond = Predicate(negated ? Op::kNotStartsWith : Op::kStartsWith, term, {Literal::String(*prefix)});
        } else {
          out.cond = Predicate(negated ? Op::kNotLike : Op::kLike, term, {Literal::String(p)});
        }
        return out;
      }
      // BETWEEN lo AND hi
      FLOE_ASSIGN_OR_RETURN(Operand lo, ParseValueAfter(kw_token, 0));
      FLOE_ASSIGN_OR_RETURN(Literal low, LiteralOf(lo, "the BETWEEN bounds"));
      if (!Peek().IsKeyword("AND")) return InvalidArgument("expected AND in BETWEEN" + AtPosition(Peek().pos));
      Token and_token = Take();
      FLOE_ASSIGN_OR_RETURN(Operand hi, ParseValueAfter(and_token, 0));
      FLOE_ASSIGN_OR_RETURN(Literal high, LiteralOf(hi, "the BETWEEN bounds"));
      if (low.is_null() || high.is_null()) return InvalidArgument("BETWEEN bounds cannot be NULL" + AtPosition(lo.pos));
      if (negated) {
        out.cond = Or(Predicate(Op::kLt, term, {low}), Predicate(Op::kGt, term, {high}));
      } else {
        out.cond = And(Predicate(Op::kGtEq, term, {low}), Predicate(Op::kLtEq, term, {high}));
      }
      return out;
    }
    return left;
  }

  Result<Operand> ParseInList(const TermPtr& term, bool negated, size_t pos) {
    if (!Peek().IsSymbol("(")) return InvalidArgument("expected '(' after IN" + AtPosition(Peek().pos));
    Token open = Take();
    std::vector<Literal> values;
    Token last = open;
    while (true) {
      FLOE_ASSIGN_OR_RETURN(Operand v, ParseValueAfter(last, 0));
      FLOE_ASSIGN_OR_RETURN(Literal lit, LiteralOf(v, "an IN list element"));
      if (lit.is_null()) return InvalidArgument("NULL is not allowed in an IN list" + AtPosition(v.pos));
      values.push_back(std::move(lit));
      if (Peek().IsSymbol(",")) {
        last = Take();
        continue;
      }
      if (Peek().IsSymbol(")")) {
        Take();
        break;
      }
      return InvalidArgument("expected ',' or ')' in the IN list" + AtPosition(Peek().pos));
    }
    Operand out;
    out.pos = pos;
    out.cond = Predicate(negated ? Op::kNotIn : Op::kIn, term, std::move(values));
    return out;
  }

  Result<Expr> FoldComparison(Op op, const Operand& a, const Operand& b, const Token& op_token) {
    auto r = CompareConstants(op, a.term->literal, b.term->literal);
    if (!r) return InvalidArgument(r.error().message + AtPosition(op_token.pos));
    return *r ? True() : False();
  }

  static bool IsArithSymbol(const Token& t, bool additive) {
    if (t.kind != Token::Kind::kSymbol) return false;
    return additive ? (t.text == "+" || t.text == "-") : (t.text == "*" || t.text == "/" || t.text == "%");
  }

  // level 1: additive (+ -), level 2: multiplicative (* / %).
  Result<Operand> ParseArithmetic(int level) {
    FLOE_ASSIGN_OR_RETURN(Operand left, level == 1 ? ParseArithmetic(2) : ParseUnary());
    while (IsArithSymbol(Peek(), level == 1)) {
      Token op_token = Take();
      FLOE_ASSIGN_OR_RETURN(Operand right, ParseValueAfter(op_token, level + 1));
      FLOE_ASSIGN_OR_RETURN(left, Combine(left, right, op_token));
    }
    return left;
  }

  Result<Operand> ParseAdditive() { return ParseArithmetic(1); }

  static ArithOp ArithOf(const std::string& s) {
    if (s == "+") return ArithOp::kAdd;
    if (s == "-") return ArithOp::kSub;
    if (s == "*") return ArithOp::kMul;
    if (s == "/") return ArithOp::kDiv;
    return ArithOp::kMod;
  }

  Result<Operand> Combine(const Operand& a, const Operand& b, const Token& op_token) {
    FLOE_ASSIGN_OR_RETURN(TermPtr l, AsValue(a, " before " + Describe(op_token)));
    FLOE_ASSIGN_OR_RETURN(TermPtr r, AsValue(b, " after " + Describe(op_token)));
    ArithOp op = ArithOf(op_token.text);
    Operand out;
    out.pos = a.pos;
    if (a.is_literal() && b.is_literal()) {
      auto v = FoldArithmetic(op, l->literal, r->literal);
      if (!v) return InvalidArgument(v.error().message + AtPosition(op_token.pos));
      out.term = LiteralTerm(std::move(*v));
      return out;
    }
    out.depth = std::max(a.depth, b.depth) + 1;
    if (out.depth > kMaxDepth) return InvalidArgument("expression nested too deeply" + AtPosition(op_token.pos));
    out.term = Arith(op, l, r);
    return out;
  }

  Result<Operand> ParseUnary() {
    if (Peek().IsSymbol("-") || Peek().IsSymbol("+")) {
      Token sign = Take();
      if (++depth_ > kMaxDepth) return InvalidArgument("expression nested too deeply" + AtPosition(sign.pos));
      FLOE_ASSIGN_OR_RETURN(Operand inner, ParseValueAfter(sign, 3));
      --depth_;
      inner.pos = sign.pos;
      if (sign.text == "+") return inner;
      if (inner.is_literal()) {
        auto neg = NegateConstant(inner.term->literal);
        if (!neg) return InvalidArgument(neg.error().message + AtPosition(sign.pos));
        inner.term = LiteralTerm(std::move(*neg));
        return inner;
      }
      Operand zero;
      zero.pos = sign.pos;
      zero.term = LiteralTerm(Literal::Long(0));
      return Combine(zero, inner, Token{Token::Kind::kSymbol, "-", "-", sign.pos});
    }
    return ParsePrimary();
  }

  Result<Operand> ParsePrimary() {
    const Token& t = Peek();
    Operand out;
    out.pos = t.pos;
    switch (t.kind) {
      case Token::Kind::kEnd: return InvalidArgument("unexpected end of text" + AtPosition(t.pos));
      case Token::Kind::kNumber: {
        auto v = ParseNumberLiteral(t.text);
        if (!v) return InvalidArgument(v.error().message + AtPosition(t.pos));
        Take();
        out.term = LiteralTerm(std::move(*v));
        return out;
      }
      case Token::Kind::kString:
        out.term = LiteralTerm(Literal::String(Take().text));
        return out;
      case Token::Kind::kHex: {
        std::string hex = Take().text, bytes;
        for (size_t i = 0; i + 1 < hex.size(); i += 2) bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
        out.term = LiteralTerm(Literal::Binary(std::move(bytes)));
        return out;
      }
      case Token::Kind::kKeyword:
        if (t.text == "TRUE" || t.text == "FALSE") {
          out.term = LiteralTerm(Literal::Boolean(Take().text == "TRUE"));
          return out;
        }
        if (t.text == "NULL") {
          Take();
          out.term = LiteralTerm(Literal());
          return out;
        }
        return InvalidArgument("unexpected " + t.text + AtPosition(t.pos));
      case Token::Kind::kIdentifier:
      case Token::Kind::kQuotedIdentifier: {
        // DATE '2026-01-01' and TIMESTAMP '...' are typed strings; the binder converts them.
        if (t.kind == Token::Kind::kIdentifier && Peek(1).kind == Token::Kind::kString) {
          std::string word = t.text;
          for (auto& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          if (word == "date" || word == "timestamp" || word == "time" || word == "uuid" || word == "decimal") {
            Take();
            out.term = LiteralTerm(Literal::String(Take().text));
            return out;
          }
        }
        std::string name = Take().text;
        while (Peek().IsSymbol(".")) {
          Token dot = Take();
          if (Peek().kind != Token::Kind::kIdentifier && Peek().kind != Token::Kind::kQuotedIdentifier &&
              Peek().kind != Token::Kind::kKeyword)
            return InvalidArgument("expected a field name after '.'" + AtPosition(Peek().pos));
          const Token& part = Take();
          name += "." + (part.kind == Token::Kind::kKeyword ? part.raw : part.text);
        }
        out.term = Ref(std::move(name));
        return out;
      }
      case Token::Kind::kSymbol:
        if (t.text == "(") {
          Token open = Take();
          if (++depth_ > kMaxDepth) return InvalidArgument("expression nested too deeply" + AtPosition(open.pos));
          if (Peek().IsSymbol(")")) return InvalidArgument("expected a condition or value after '('" + AtPosition(Peek().pos));
          FLOE_ASSIGN_OR_RETURN(Operand inner, ParseOr());
          --depth_;
          if (!Peek().IsSymbol(")"))
            return InvalidArgument("expected ')' to close the '(' at position " + std::to_string(open.pos + 1) +
                                   ", found " + Describe(Peek()) + AtPosition(Peek().pos));
          Take();
          inner.pos = open.pos;
          return inner;
        }
        return InvalidArgument("unexpected " + Describe(t) + AtPosition(t.pos));
    }
    return InvalidArgument("unexpected " + Describe(t) + AtPosition(t.pos));
  }

  std::vector<Token> tokens_;
  size_t next_ = 0;
  int depth_ = 0;
};

}  // namespace

Result<Expr> ParseFilter(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(text));
  if (tokens.size() == 1) return InvalidArgument("empty filter");
  return Parser(std::move(tokens)).ParseAll();
}

}  // namespace floe
