#include "expr/binder.h"

#include <cmath>

#include "expr/decimal_arithmetic.h"
#include "expr/value_ops.h"

namespace floe {
namespace {

bool IsArithmeticType(TypeId id) {
  return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kFloat || id == TypeId::kDouble;
}

std::string Describe(const TermPtr& bound) {
  if (bound->is_reference()) return bound->type->ToString() + " column '" + bound->name + "'";
  return bound->type->ToString() + " expression " + ToSql(bound);
}

bool HasReference(const Term& t) {
  if (t.kind == Term::Kind::kReference) return true;
  return t.kind == Term::Kind::kArithmetic && (HasReference(*t.left) || HasReference(*t.right));
}

class Binder {
 public:
  Binder(const Schema& schema, bool case_sensitive) : schema_(schema), case_sensitive_(case_sensitive) {}

  Result<TermPtr> BindTerm(const TermPtr& t) {
    switch (t->kind) {
      case Term::Kind::kReference: return BindReference(t->name);
      case Term::Kind::kLiteral: {
        if (!t->literal.type() || t->literal.is_null())
          return InvalidArgument("NULL cannot be used in arithmetic; use IS NULL");
        return t;
      }
      case Term::Kind::kArithmetic: {
        FLOE_ASSIGN_OR_RETURN(TermPtr l, BindTerm(t->left));
        FLOE_ASSIGN_OR_RETURN(TermPtr r, BindTerm(t->right));
        if (IsDecimalValue(*l) || IsDecimalValue(*r)) return BindDecimalArithmetic(t, l, r);
        bool floating = false;
        for (const TermPtr& side : {l, r}) {
          TypeId id = side->type->id();
          bool literal_decimal = side->kind == Term::Kind::kLiteral && id == TypeId::kDecimal;
          if (!IsArithmeticType(id) && !literal_decimal)
            return InvalidArgument("arithmetic needs int, long, float or double values, not " +
                                   (side->kind == Term::Kind::kLiteral ? "the value " + LiteralToSql(side->literal)
                                                                       : Describe(side)));
          floating = floating || id == TypeId::kFloat || id == TypeId::kDouble || literal_decimal;
        }
        TypePtr result = floating ? Type::Double() : Type::Long();
        auto widen = [&](const TermPtr& side) -> Result<TermPtr> {
          if (side->kind != Term::Kind::kLiteral) return side;
          auto v = ConvertForComparison(side->literal, result);
          if (!v) return InvalidArgument("cannot use " + LiteralToSql(side->literal) + " in " + ToSql(t));
          return LiteralTerm(std::move(*v));
        };
        FLOE_ASSIGN_OR_RETURN(l, widen(l));
        FLOE_ASSIGN_OR_RETURN(r, widen(r));
        auto bound = std::make_shared<Term>(*t);
        bound->left = std::move(l);
        bound->right = std::move(r);
        bound->type = std::move(result);
        return TermPtr(bound);
      }
    }
    return InvalidArgument("unknown term");
  }

  // A column (or an expression over columns) of decimal type.
  static bool IsDecimalValue(const Term& t) {
    return t.kind != Term::Kind::kLiteral && t.type && t.type->id() == TypeId::kDecimal;
  }

  // Arithmetic with a decimal column, by SQL's decimal rules (decimal_arithmetic.h): the other
  // side is a decimal or a whole number (a float or double is refused: exact values would be
  // lost on the way).
  Result<TermPtr> BindDecimalArithmetic(const TermPtr& t, TermPtr l, TermPtr r) {
    for (TermPtr* side : {&l, &r}) {
      TypeId id = (*side)->type->id();
      if (id == TypeId::kFloat || id == TypeId::kDouble)
        return InvalidArgument("arithmetic mixing a decimal with " + Describe(*side) +
                               " is not supported; use decimal values (1.5 is a decimal)");
      if (id != TypeId::kDecimal && id != TypeId::kInt && id != TypeId::kLong)
        return InvalidArgument("decimal arithmetic needs decimal or whole-number values, not " +
                               ((*side)->kind == Term::Kind::kLiteral ? "the value " + LiteralToSql((*side)->literal)
                                                                      : Describe(*side)));
      if ((*side)->kind == Term::Kind::kLiteral && id != TypeId::kDecimal) {
        // A whole-number literal counts with just its digits: amount * 2 is decimal(p + 2, s).
        int64_t v = (*side)->literal.AsInt64();
        int digits = 1;
        for (uint64_t m = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); m >= 10; m /= 10) ++digits;
        *side = LiteralTerm(Literal::Decimal(v, digits, 0));
      }
    }
    FLOE_ASSIGN_OR_RETURN(TypePtr result, DecimalResultType(t->arith, l->type, r->type));
    auto bound = std::make_shared<Term>(*t);
    bound->left = std::move(l);
    bound->right = std::move(r);
    bound->type = std::move(result);
    return TermPtr(bound);
  }

  Result<TermPtr> BindReference(const std::string& name) {
    const NestedField* field = schema_.FindField(name, case_sensitive_);
    if (!field) return InvalidArgument("column '" + name + "' not found");
    std::string full = schema_.FindColumnName(field->id);
    // Rows hold values of fields nested in structs, but not of fields inside lists or maps.
    for (size_t dot = full.find('.'); dot != std::string::npos; dot = full.find('.', dot + 1)) {
      const NestedField* parent = schema_.FindField(full.substr(0, dot));
      if (parent && (parent->type->id() == TypeId::kList || parent->type->id() == TypeId::kMap))
        return InvalidArgument("cannot filter on column '" + full + "': it is inside a list or map");
    }
    return BoundRef(full, field->id, field->type);
  }

  Result<Expr> BindPredicate(const Expr& e) {
    FLOE_ASSIGN_OR_RETURN(TermPtr term, BindTerm(e->term()));
    if (!HasReference(*term))
      return InvalidArgument("predicate " + ToSql(e) + " needs a column, not only values");
    TypeId id = term->type->id();
    Op op = e->op();
    switch (op) {
      case Op::kIsNull:
      case Op::kNotNull: return Predicate(op, term);
      case Op::kIsNan:
      case Op::kNotNan:
        if (id != TypeId::kFloat && id != TypeId::kDouble)
          return InvalidArgument(std::string(OpName(op)) + " needs a float or double column, not " + Describe(term));
        return Predicate(op, term);
      default: break;
    }
    if (!term->type->is_primitive()) return InvalidArgument("cannot compare " + Describe(term) + " with a value");
    if (op == Op::kStartsWith || op == Op::kNotStartsWith || op == Op::kLike || op == Op::kNotLike) {
      const char* what = (op == Op::kLike || op == Op::kNotLike) ? "LIKE" : "starts with";
      if (id != TypeId::kString) return InvalidArgument(std::string(what) + " needs a string column, not " + Describe(term));
      if (e->literals().size() != 1 || !e->literal().type() || e->literal().type()->id() != TypeId::kString)
        return InvalidArgument(std::string(what) + " on " + Describe(term) + " needs a string value");
      return Predicate(op, term, {e->literal()});
    }
    if ((op == Op::kIn || op == Op::kNotIn) && e->literals().empty()) return op == Op::kIn ? False() : True();
    if (op != Op::kIn && op != Op::kNotIn && e->literals().size() != 1)
      return InvalidArgument("comparison " + std::string(OpName(op)) + " needs exactly one value");
    std::vector<Literal> converted;
    converted.reserve(e->literals().size());
    for (const Literal& lit : e->literals()) {
      if (!lit.type() || lit.is_null())
        return InvalidArgument("cannot compare " + Describe(term) + " with NULL; use IS NULL or IS NOT NULL");
      auto v = ConvertForComparison(lit, term->type);
      if (!v) return InvalidArgument("cannot compare " + Describe(term) + " with " + LiteralToSql(lit));
      if (IsNaN(*v))
        return InvalidArgument("cannot compare " + Describe(term) + " with NaN; use IS NAN or IS NOT NAN");
      converted.push_back(std::move(*v));
    }
    return Predicate(op, term, std::move(converted));
  }

  Result<Expr> BindExpr(const Expr& e) {
    switch (e->op()) {
      case Op::kTrue:
      case Op::kFalse: return e;
      case Op::kAnd:
      case Op::kOr: {
        FLOE_ASSIGN_OR_RETURN(Expr l, BindExpr(e->left()));
        FLOE_ASSIGN_OR_RETURN(Expr r, BindExpr(e->right()));
        return e->op() == Op::kAnd ? And(std::move(l), std::move(r)) : Or(std::move(l), std::move(r));
      }
      case Op::kNot: {
        FLOE_ASSIGN_OR_RETURN(Expr c, BindExpr(e->left()));
        return Not(std::move(c));
      }
      default: return BindPredicate(e);
    }
  }

 private:
  const Schema& schema_;
  bool case_sensitive_;
};

}  // namespace

Result<Expr> Bind(const Expr& expr, const Schema& schema, bool case_sensitive) {
  if (!expr) return InvalidArgument("no expression to bind");
  return Binder(schema, case_sensitive).BindExpr(expr);
}

}  // namespace floe
