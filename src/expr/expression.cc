#include "expr/expression.h"

#include <algorithm>

namespace floe {

bool Term::is_bound() const {
  switch (kind) {
    case Kind::kReference: return field_id >= 0 && type != nullptr;
    case Kind::kLiteral: return true;
    case Kind::kArithmetic: return type != nullptr && left->is_bound() && right->is_bound();
  }
  return false;
}

bool Expression::is_bound() const {
  switch (op_) {
    case Op::kTrue:
    case Op::kFalse: return true;
    case Op::kAnd:
    case Op::kOr: return left_->is_bound() && right_->is_bound();
    case Op::kNot: return left_->is_bound();
    default: return term_->is_bound();
  }
}

Expr Expression::MakeConstant(bool value) {
  auto e = std::make_shared<Expression>();
  e->op_ = value ? Op::kTrue : Op::kFalse;
  return e;
}

Expr Expression::MakeAnd(Expr left, Expr right) {
  auto e = std::make_shared<Expression>();
  e->op_ = Op::kAnd;
  e->left_ = std::move(left);
  e->right_ = std::move(right);
  return e;
}

Expr Expression::MakeOr(Expr left, Expr right) {
  auto e = std::make_shared<Expression>();
  e->op_ = Op::kOr;
  e->left_ = std::move(left);
  e->right_ = std::move(right);
  return e;
}

Expr Expression::MakeNot(Expr child) {
  auto e = std::make_shared<Expression>();
  e->op_ = Op::kNot;
  e->left_ = std::move(child);
  return e;
}

Expr Expression::MakePredicate(Op op, TermPtr term, std::vector<Literal> literals) {
  auto e = std::make_shared<Expression>();
  e->op_ = op;
  e->term_ = std::move(term);
  e->literals_ = std::move(literals);
  return e;
}

TermPtr Ref(std::string name) {
  auto t = std::make_shared<Term>();
  t->kind = Term::Kind::kReference;
  t->name = std::move(name);
  return t;
}

TermPtr BoundRef(std::string name, int field_id, TypePtr type) {
  auto t = std::make_shared<Term>();
  t->kind = Term::Kind::kReference;
  t->name = std::move(name);
  t->field_id = field_id;
  t->type = std::move(type);
  return t;
}

TermPtr LiteralTerm(Literal value) {
  auto t = std::make_shared<Term>();
  t->kind = Term::Kind::kLiteral;
  t->type = value.type();
  t->literal = std::move(value);
  return t;
}

TermPtr Arith(ArithOp op, TermPtr left, TermPtr right) {
  auto t = std::make_shared<Term>();
  t->kind = Term::Kind::kArithmetic;
  t->arith = op;
  t->left = std::move(left);
  t->right = std::move(right);
  return t;
}

Expr True() {
  static const Expr kTrueExpr = Expression::MakeConstant(true);
  return kTrueExpr;
}

Expr False() {
  static const Expr kFalseExpr = Expression::MakeConstant(false);
  return kFalseExpr;
}

Expr And(Expr left, Expr right) {
  if (left->op() == Op::kFalse || right->op() == Op::kFalse) return False();
  if (left->op() == Op::kTrue) return right;
  if (right->op() == Op::kTrue) return left;
  return Expression::MakeAnd(std::move(left), std::move(right));
}

Expr Or(Expr left, Expr right) {
  if (left->op() == Op::kTrue || right->op() == Op::kTrue) return True();
  if (left->op() == Op::kFalse) return right;
  if (right->op() == Op::kFalse) return left;
  return Expression::MakeOr(std::move(left), std::move(right));
}

Expr Not(Expr child) {
  if (child->op() == Op::kTrue) return False();
  if (child->op() == Op::kFalse) return True();
  if (child->op() == Op::kNot) return child->left();
  return Expression::MakeNot(std::move(child));
}

Expr Predicate(Op op, TermPtr term, std::vector<Literal> literals) {
  return Expression::MakePredicate(op, std::move(term), std::move(literals));
}

Expr IsNull(std::string column) { return Predicate(Op::kIsNull, Ref(std::move(column))); }
Expr NotNull(std::string column) { return Predicate(Op::kNotNull, Ref(std::move(column))); }
Expr IsNan(std::string column) { return Predicate(Op::kIsNan, Ref(std::move(column))); }
Expr NotNan(std::string column) { return Predicate(Op::kNotNan, Ref(std::move(column))); }
Expr Equal(std::string c, Literal v) { return Predicate(Op::kEq, Ref(std::move(c)), {std::move(v)}); }
Expr NotEqual(std::string c, Literal v) { return Predicate(Op::kNotEq, Ref(std::move(c)), {std::move(v)}); }
Expr LessThan(std::string c, Literal v) { return Predicate(Op::kLt, Ref(std::move(c)), {std::move(v)}); }
Expr LessThanOrEqual(std::string c, Literal v) { return Predicate(Op::kLtEq, Ref(std::move(c)), {std::move(v)}); }
Expr GreaterThan(std::string c, Literal v) { return Predicate(Op::kGt, Ref(std::move(c)), {std::move(v)}); }
Expr GreaterThanOrEqual(std::string c, Literal v) { return Predicate(Op::kGtEq, Ref(std::move(c)), {std::move(v)}); }
Expr In(std::string c, std::vector<Literal> v) { return Predicate(Op::kIn, Ref(std::move(c)), std::move(v)); }
Expr NotIn(std::string c, std::vector<Literal> v) { return Predicate(Op::kNotIn, Ref(std::move(c)), std::move(v)); }
Expr StartsWith(std::string c, std::string p) {
  return Predicate(Op::kStartsWith, Ref(std::move(c)), {Literal::String(std::move(p))});
}
Expr NotStartsWith(std::string c, std::string p) {
  return Predicate(Op::kNotStartsWith, Ref(std::move(c)), {Literal::String(std::move(p))});
}

Op NegateOp(Op op) {
  switch (op) {
    case Op::kTrue: return Op::kFalse;
    case Op::kFalse: return Op::kTrue;
    case Op::kAnd: return Op::kOr;
    case Op::kOr: return Op::kAnd;
    case Op::kNot: return Op::kNot;
    case Op::kIsNull: return Op::kNotNull;
    case Op::kNotNull: return Op::kIsNull;
    case Op::kIsNan: return Op::kNotNan;
    case Op::kNotNan: return Op::kIsNan;
    case Op::kLt: return Op::kGtEq;
    case Op::kLtEq: return Op::kGt;
    case Op::kGt: return Op::kLtEq;
    case Op::kGtEq: return Op::kLt;
    case Op::kEq: return Op::kNotEq;
    case Op::kNotEq: return Op::kEq;
    case Op::kIn: return Op::kNotIn;
    case Op::kNotIn: return Op::kIn;
    case Op::kStartsWith: return Op::kNotStartsWith;
    case Op::kNotStartsWith: return Op::kStartsWith;
    case Op::kLike: return Op::kNotLike;
    case Op::kNotLike: return Op::kLike;
  }
  return op;
}

Op FlipOp(Op op) {
  switch (op) {
    case Op::kLt: return Op::kGt;
    case Op::kLtEq: return Op::kGtEq;
    case Op::kGt: return Op::kLt;
    case Op::kGtEq: return Op::kLtEq;
    default: return op;
  }
}

const char* OpName(Op op) {
  switch (op) {
    case Op::kTrue: return "true";
    case Op::kFalse: return "false";
    case Op::kAnd: return "and";
    case Op::kOr: return "or";
    case Op::kNot: return "not";
    case Op::kIsNull: return "is_null";
    case Op::kNotNull: return "not_null";
    case Op::kIsNan: return "is_nan";
    case Op::kNotNan: return "not_nan";
    case Op::kLt: return "lt";
    case Op::kLtEq: return "lt_eq";
    case Op::kGt: return "gt";
    case Op::kGtEq: return "gt_eq";
    case Op::kEq: return "eq";
    case Op::kNotEq: return "not_eq";
    case Op::kIn: return "in";
    case Op::kNotIn: return "not_in";
    case Op::kStartsWith: return "starts_with";
    case Op::kNotStartsWith: return "not_starts_with";
    case Op::kLike: return "like";
    case Op::kNotLike: return "not_like";
  }
  return "?";
}

namespace {

Expr Push(const Expr& e, bool negate) {
  switch (e->op()) {
    case Op::kTrue:
    case Op::kFalse: return (e->op() == Op::kTrue) != negate ? True() : False();
    case Op::kNot: return Push(e->left(), !negate);
    case Op::kAnd:
    case Op::kOr: {
      Expr l = Push(e->left(), negate), r = Push(e->right(), negate);
      bool is_and = (e->op() == Op::kAnd) != negate;
      if (!negate && l == e->left() && r == e->right()) return e;
      return is_and ? And(std::move(l), std::move(r)) : Or(std::move(l), std::move(r));
    }
    default:
      if (!negate) return e;
      return Predicate(NegateOp(e->op()), e->term(), e->literals());
  }
}

void CollectIds(const TermPtr& t, std::vector<int>* out) {
  if (!t) return;
  if (t->kind == Term::Kind::kReference && t->field_id >= 0) out->push_back(t->field_id);
  if (t->kind == Term::Kind::kArithmetic) {
    CollectIds(t->left, out);
    CollectIds(t->right, out);
  }
}

void CollectIds(const Expr& e, std::vector<int>* out) {
  if (e->left()) CollectIds(e->left(), out);
  if (e->right()) CollectIds(e->right(), out);
  if (e->is_predicate()) CollectIds(e->term(), out);
}

}  // namespace

Expr RewriteNot(const Expr& expr) { return ContainsNot(expr) ? Push(expr, false) : expr; }

bool ContainsNot(const Expr& e) {
  if (e->op() == Op::kNot) return true;
  if (e->op() == Op::kAnd || e->op() == Op::kOr) return ContainsNot(e->left()) || ContainsNot(e->right());
  return false;
}

std::vector<int> ReferencedFieldIds(const Expr& expr) {
  std::vector<int> ids;
  CollectIds(expr, &ids);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace floe
