#include "expr/projection.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "expr/value_ops.h"

namespace floe {
namespace {

bool IsStringOrBinary(TypeId id) { return id == TypeId::kString || id == TypeId::kBinary; }

// Length as truncate[W] counts it: code points for strings, bytes for binary.
size_t TruncateLength(const Literal& v) {
  return v.type()->id() == TypeId::kString ? Utf8Length(v.AsBytes()) : v.AsBytes().size();
}

std::optional<Literal> ApplyTo(const Transform& t, const Literal& v) {
  auto r = t.Apply(v);
  if (!r || r->is_null()) return std::nullopt;
  return *r;
}

// v + delta (delta is +1 or -1) in the source's integer domain; nullopt on overflow.
std::optional<Literal> Step(const Literal& v, int delta) {
  if (auto* i = std::get_if<int32_t>(&v.value())) {
    int64_t x = int64_t{*i} + delta;
    if (x < std::numeric_limits<int32_t>::min() || x > std::numeric_limits<int32_t>::max()) return std::nullopt;
    return Literal(v.type(), static_cast<int32_t>(x));
  }
  if (auto* l = std::get_if<int64_t>(&v.value())) {
    if ((delta > 0 && *l == std::numeric_limits<int64_t>::max()) || (delta < 0 && *l == std::numeric_limits<int64_t>::min()))
      return std::nullopt;
    return Literal(v.type(), *l + delta);
  }
  if (auto* d = std::get_if<__int128>(&v.value())) return Literal(v.type(), *d + delta);
  return std::nullopt;
}

Expr Make(Op op, const TermPtr& ref, std::optional<Literal> v) {
  if (!v) return nullptr;
  return Predicate(op, ref, {std::move(*v)});
}

// IN / NOT IN over the transformed values, without duplicates.
Expr MakeSet(Op op, const TermPtr& ref, const Transform& t, const std::vector<Literal>& values) {
  std::vector<Literal> out;
  for (const auto& v : values) {
    auto tv = ApplyTo(t, v);
    if (!tv) return nullptr;
    out.push_back(std::move(*tv));
  }
  std::sort(out.begin(), out.end(), [](const Literal& a, const Literal& b) { return CompareValues(a, b) < 0; });
  out.erase(std::unique(out.begin(), out.end(), [](const Literal& a, const Literal& b) { return CompareValues(a, b) == 0; }),
            out.end());
  return Predicate(op, ref, std::move(out));
}

// Monotone transforms over an integer domain (truncate of int/long/decimal, year/month/day/
// hour): x < v means x <= v - 1, so t(x) <= t(v - 1); and t(x) < t(v) implies x < v.
Expr ProjectMonotone(const Expression& p, const TermPtr& ref, const Transform& t, bool strict) {
  const auto& lits = p.literals();
  auto T = [&](std::optional<Literal> v) -> std::optional<Literal> { return v ? ApplyTo(t, *v) : std::nullopt; };
  const Literal& v = lits.front();
  if (!strict) {
    switch (p.op()) {
      case Op::kLt: return Make(Op::kLtEq, ref, T(Step(v, -1)));
      case Op::kLtEq: return Make(Op::kLtEq, ref, T(v));
      case Op::kGt: return Make(Op::kGtEq, ref, T(Step(v, +1)));
      case Op::kGtEq: return Make(Op::kGtEq, ref, T(v));
      case Op::kEq: return Make(Op::kEq, ref, T(v));
      case Op::kIn: return MakeSet(Op::kIn, ref, t, lits);
      default: return nullptr;
    }
  }
  switch (p.op()) {
    case Op::kLt: return Make(Op::kLt, ref, T(v));
    case Op::kLtEq: return Make(Op::kLt, ref, T(Step(v, +1)));
    case Op::kGt: return Make(Op::kGt, ref, T(v));
    case Op::kGtEq: return Make(Op::kGt, ref, T(Step(v, -1)));
    case Op::kNotEq: return Make(Op::kNotEq, ref, T(v));
    case Op::kNotIn: return MakeSet(Op::kNotIn, ref, t, lits);
    default: return nullptr;
  }
}

// The literal prefix of a LIKE pattern (before its first wildcard).
std::string LikeLiteralPrefix(const std::string& pattern) {
  std::string prefix;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '%' || c == '_') break;
    if (c == '\\' && i + 1 < pattern.size()) c = pattern[++i];
    prefix.push_back(c);
  }
  return prefix;
}

// truncate[W] on strings and binary. t(s) keeps the first W characters, so it preserves order
// (s < v implies t(s) <= t(v)), and a prefix of at most W characters survives it intact.
Expr ProjectTruncateString(const Expression& p, const TermPtr& ref, const Transform& t, bool strict) {
  const auto& lits = p.literals();
  size_t width = static_cast<size_t>(t.param());
  auto T = [&](const Literal& v) { return ApplyTo(t, v); };
  auto prefix_projection = [&](const Literal& prefix, bool negated) -> Expr {
    if (TruncateLength(prefix) <= width)  // exact: t(s) starts with p iff s does
      return Predicate(negated ? Op::kNotStartsWith : Op::kStartsWith, ref, {prefix});
    // A longer prefix fixes t(s) entirely: s starts with p implies t(s) = t(p).
    if (!negated && !strict) return Make(Op::kEq, ref, T(prefix));
    if (negated && strict) return Make(Op::kNotEq, ref, T(prefix));
    return nullptr;
  };
  if (!strict) {
    switch (p.op()) {
      case Op::kLt:
      case Op::kLtEq: return Make(Op::kLtEq, ref, T(lits[0]));
      case Op::kGt:
      case Op::kGtEq: return Make(Op::kGtEq, ref, T(lits[0]));
      case Op::kEq: return Make(Op::kEq, ref, T(lits[0]));
      case Op::kIn: return MakeSet(Op::kIn, ref, t, lits);
      case Op::kStartsWith: return prefix_projection(lits[0], false);
      case Op::kNotStartsWith: return prefix_projection(lits[0], true);
      case Op::kLike: {
        std::string prefix = LikeLiteralPrefix(lits[0].AsBytes());
        if (prefix.empty()) return nullptr;
        return prefix_projection(Literal(lits[0].type(), prefix), false);
      }
      default: return nullptr;
    }
  }
  switch (p.op()) {
    case Op::kLt:
    case Op::kLtEq: return Make(Op::kLt, ref, T(lits[0]));
    case Op::kGt:
    case Op::kGtEq: return Make(Op::kGt, ref, T(lits[0]));
    case Op::kNotEq: return Make(Op::kNotEq, ref, T(lits[0]));
    case Op::kNotIn: return MakeSet(Op::kNotIn, ref, t, lits);
    case Op::kStartsWith: return prefix_projection(lits[0], false);
    case Op::kNotStartsWith: return prefix_projection(lits[0], true);
    default: return nullptr;
  }
}

}  // namespace

Expr ProjectPredicate(const Expression& p, const PartitionField& field, bool strict) {
  const TermPtr& source = p.term();
  if (!source->is_reference() || source->field_id != field.source_id || !source->type) return nullptr;
  if (!field.evaluable()) return nullptr;  // an unknown or multi-argument transform: no pruning on it
  const Transform& t = field.transform;
  if (t.kind() == TransformKind::kVoid) return nullptr;  // the tuple holds only nulls
  auto result_type = t.ResultType(source->type);
  if (!result_type) return nullptr;
  TermPtr ref = BoundRef(field.name, field.field_id, *result_type);
  Op op = p.op();
  // t(null) is null and t(x) is never null otherwise.
  if (op == Op::kIsNull || op == Op::kNotNull) return Predicate(op, ref);
  if (t.kind() == TransformKind::kIdentity) return Predicate(op, ref, p.literals());
  if (op == Op::kIsNan || op == Op::kNotNan) return nullptr;
  // Beyond identity, literals must have the source's exact type (an int column compared with an
  // out-of-range long has nothing a transform could use).
  for (const auto& v : p.literals())
    if (!v.type() || v.type()->id() != source->type->id()) return nullptr;
  switch (t.kind()) {
    case TransformKind::kBucket:
      if (!strict && op == Op::kEq) return Make(Op::kEq, ref, ApplyTo(t, p.literal()));
      if (!strict && op == Op::kIn) return MakeSet(Op::kIn, ref, t, p.literals());
      if (strict && op == Op::kNotEq) return Make(Op::kNotEq, ref, ApplyTo(t, p.literal()));
      if (strict && op == Op::kNotIn) return MakeSet(Op::kNotIn, ref, t, p.literals());
      return nullptr;
    case TransformKind::kTruncate:
      if (IsStringOrBinary(source->type->id())) return ProjectTruncateString(p, ref, t, strict);
      return ProjectMonotone(p, ref, t, strict);
    case TransformKind::kYear:
    case TransformKind::kMonth:
    case TransformKind::kDay:
    case TransformKind::kHour: return ProjectMonotone(p, ref, t, strict);
    default: return nullptr;
  }
}

namespace {

Expr Project(const Expr& e, const PartitionSpec& spec, bool strict) {
  switch (e->op()) {
    case Op::kTrue:
    case Op::kFalse: return e;
    case Op::kAnd: return And(Project(e->left(), spec, strict), Project(e->right(), spec, strict));
    case Op::kOr: return Or(Project(e->left(), spec, strict), Project(e->right(), spec, strict));
    case Op::kNot: return strict ? False() : True();  // not reached: NOT is rewritten first
    default: {
      // Several partition fields may share a source (day(ts) and hour(ts)): a row must satisfy
      // every inclusive projection, and any one strict projection suffices.
      Expr out = strict ? False() : True();
      for (const auto& field : spec.fields()) {
        Expr q = ProjectPredicate(*e, field, strict);
        if (q) out = strict ? Or(out, q) : And(out, q);
      }
      return out;
    }
  }
}

}  // namespace

Result<Expr> ProjectInclusive(const Expr& bound, const PartitionSpec& spec) {
  if (!bound || !bound->is_bound()) return InvalidArgument("projection needs a bound expression");
  return Project(RewriteNot(bound), spec, false);
}

Result<Expr> ProjectStrict(const Expr& bound, const PartitionSpec& spec) {
  if (!bound || !bound->is_bound()) return InvalidArgument("projection needs a bound expression");
  return Project(RewriteNot(bound), spec, true);
}

bool EvaluatePartition(const Expr& projected, const PartitionSpec& spec, const std::vector<Literal>& partition) {
  const auto& fields = spec.fields();
  auto lookup = [&](int field_id) -> const Literal* {
    for (size_t i = 0; i < fields.size() && i < partition.size(); ++i)
      if (fields[i].field_id == field_id) return &partition[i];
    return nullptr;
  };
  return EvaluateRow(projected, lookup) == Truth::kTrue;
}

namespace {

Expr ResidualOf(const Expr& e, const PartitionSpec& spec, const std::vector<Literal>& partition) {
  switch (e->op()) {
    case Op::kTrue:
    case Op::kFalse: return e;
    case Op::kAnd: return And(ResidualOf(e->left(), spec, partition), ResidualOf(e->right(), spec, partition));
    case Op::kOr: return Or(ResidualOf(e->left(), spec, partition), ResidualOf(e->right(), spec, partition));
    case Op::kNot: return e;  // not reached: NOT is rewritten first
    default:
      for (const auto& field : spec.fields()) {
        if (Expr strict = ProjectPredicate(*e, field, true); strict && EvaluatePartition(strict, spec, partition))
          return True();  // every row of the partition matches
        if (Expr inclusive = ProjectPredicate(*e, field, false); inclusive && !EvaluatePartition(inclusive, spec, partition))
          return False();  // no row of the partition can match
      }
      return e;
  }
}

}  // namespace

Result<Expr> Residual(const Expr& bound, const PartitionSpec& spec, const std::vector<Literal>& partition) {
  if (!bound || !bound->is_bound()) return InvalidArgument("residual needs a bound expression");
  if (partition.size() != spec.fields().size())
    return InvalidArgument("partition tuple has " + std::to_string(partition.size()) + " values, spec " +
                           std::to_string(spec.spec_id()) + " has " + std::to_string(spec.fields().size()) + " fields");
  return ResidualOf(RewriteNot(bound), spec, partition);
}

}  // namespace floe
