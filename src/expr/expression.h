// Filter expressions: Iceberg's boolean expression model plus arithmetic terms.
//
// An expression is an immutable tree of shared nodes (Expr). Leaves are predicates over a
// Term: a column reference, or arithmetic over columns and literals. A freshly built or parsed
// expression is unbound (references carry names); Bind() (binder.h) resolves names to field
// ids against a schema and converts literals to the column's type. Evaluators take only
// bound expressions.
//
// Null semantics are SQL's three-valued logic: a comparison, IN, LIKE or starts-with with a
// null operand is unknown, which is not a match; NOT of unknown stays unknown. IS NULL and
// IS NAN are never unknown (is_nan(null) is false). Floating-point values are totally ordered
// as in Iceberg's and Spark's evaluators: NaN sorts above every number (so `x > 5` holds for
// NaN, `x < 5` and `x = 5` do not), and -0.0 == 0.0. A total order keeps every predicate's
// negation exact, which RewriteNot relies on. Binding rejects NaN literals (use IS NAN).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "types/literal.h"
#include "types/type.h"

namespace floe {

enum class Op : uint8_t {
  kTrue,
  kFalse,
  kAnd,
  kOr,
  kNot,
  kIsNull,
  kNotNull,
  kIsNan,
  kNotNan,
  kLt,
  kLtEq,
  kGt,
  kGtEq,
  kEq,
  kNotEq,
  kIn,
  kNotIn,
  kStartsWith,
  kNotStartsWith,
  kLike,     // SQL LIKE with % and _ (backslash escapes); row-evaluated only
  kNotLike,
};

enum class ArithOp : uint8_t { kAdd, kSub, kMul, kDiv, kMod };

struct Term;
using TermPtr = std::shared_ptr<const Term>;

// A value-producing leaf of a predicate.
struct Term {
  enum class Kind : uint8_t { kReference, kLiteral, kArithmetic };
  Kind kind = Kind::kReference;

  // kReference: the name as written (unbound) or the schema's full dotted name (bound).
  std::string name;
  int field_id = -1;  // -1 while unbound
  TypePtr type;       // bound: the value type (reference: the field's; arithmetic: long or double)

  Literal literal;  // kLiteral

  ArithOp arith = ArithOp::kAdd;  // kArithmetic: left <arith> right
  TermPtr left, right;

  bool is_reference() const { return kind == Kind::kReference; }
  bool is_bound() const;  // every reference below has a field id
};

class Expression;
using Expr = std::shared_ptr<const Expression>;

class Expression {
 public:
  Op op() const { return op_; }
  // kAnd / kOr: both children; kNot: left() is the child.
  const Expr& left() const { return left_; }
  const Expr& right() const { return right_; }
  // Predicates: the term and the literals (none for is_null/is_nan, one for comparisons,
  // starts-with and like, any number for in / not in).
  const TermPtr& term() const { return term_; }
  const std::vector<Literal>& literals() const { return literals_; }
  const Literal& literal() const { return literals_.front(); }

  bool is_predicate() const { return op_ >= Op::kIsNull; }
  bool is_bound() const;

  // Building blocks; prefer the free factory functions below.
  static Expr MakeConstant(bool value);
  static Expr MakeAnd(Expr left, Expr right);
  static Expr MakeOr(Expr left, Expr right);
  static Expr MakeNot(Expr child);
  static Expr MakePredicate(Op op, TermPtr term, std::vector<Literal> literals = {});

 private:
  Op op_ = Op::kTrue;
  Expr left_, right_;
  TermPtr term_;
  std::vector<Literal> literals_;
};

// Terms.
TermPtr Ref(std::string name);
TermPtr BoundRef(std::string name, int field_id, TypePtr type);
TermPtr LiteralTerm(Literal value);
TermPtr Arith(ArithOp op, TermPtr left, TermPtr right);

// Expressions. And/Or simplify constants (And(true, x) = x, And(false, x) = false, ...).
Expr True();
Expr False();
Expr And(Expr left, Expr right);
Expr Or(Expr left, Expr right);
Expr Not(Expr child);
Expr Predicate(Op op, TermPtr term, std::vector<Literal> literals = {});
Expr IsNull(std::string column);
Expr NotNull(std::string column);
Expr IsNan(std::string column);
Expr NotNan(std::string column);
Expr Equal(std::string column, Literal value);
Expr NotEqual(std::string column, Literal value);
Expr LessThan(std::string column, Literal value);
Expr LessThanOrEqual(std::string column, Literal value);
Expr GreaterThan(std::string column, Literal value);
Expr GreaterThanOrEqual(std::string column, Literal value);
Expr In(std::string column, std::vector<Literal> values);
Expr NotIn(std::string column, std::vector<Literal> values);
Expr StartsWith(std::string column, std::string prefix);
Expr NotStartsWith(std::string column, std::string prefix);

// The predicate operation that is true exactly when `op` is false for a non-null operand
// (kLt -> kGtEq, kIn -> kNotIn, kIsNull -> kNotNull, ...).
Op NegateOp(Op op);
// The operation with its operands swapped: 5 < x is x > 5.
Op FlipOp(Op op);
const char* OpName(Op op);  // "lt", "in", "starts_with", ... for messages

// Pushes every NOT down to the predicates (De Morgan, negated operations). Exact under
// three-valued logic, so evaluators work on NOT-free trees where "matches" means TRUE.
Expr RewriteNot(const Expr& expr);
bool ContainsNot(const Expr& expr);

// The field ids a bound expression references, sorted and unique.
std::vector<int> ReferencedFieldIds(const Expr& expr);

// Iceberg's message form: ref(name="country") == "DE", (a and b), not_null(ref(name="x")).
std::string ToString(const Expr& expr);
std::string ToString(const TermPtr& term);
// A SQL-like text that ParseFilter reads back to an equivalent expression.
std::string ToSql(const Expr& expr);
std::string ToSql(const TermPtr& term);
std::string LiteralToSql(const Literal& value);  // 'DE', 12, 1.5, TRUE, X'0A'

}  // namespace floe
