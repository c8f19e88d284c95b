#include "scan/manifest_evaluator.h"

#include <optional>

#include "expr/value_ops.h"

namespace floe {

struct ManifestEvaluator::FieldBounds {
  int field_id = 0;
  TypePtr type;
  const PartitionFieldSummary* summary = nullptr;  // nullptr: the manifest has none
  std::optional<Literal> lower, upper;
};

ManifestEvaluator::ManifestEvaluator(Expr partition_filter, TypePtr partition_type)
    : filter_(partition_filter ? RewriteNot(partition_filter) : True()), partition_type_(std::move(partition_type)) {}

Result<bool> ManifestEvaluator::MightMatch(const ManifestFile& manifest) const {
  if (filter_->op() == Op::kTrue) return true;
  if (filter_->op() == Op::kFalse) return false;
  const auto& pfields = partition_type_->fields();
  std::vector<FieldBounds> fields(pfields.size());
  for (size_t i = 0; i < pfields.size(); ++i) {
    FieldBounds& f = fields[i];
    f.field_id = pfields[i].id;
    f.type = pfields[i].type;
    if (i >= manifest.partitions.size()) continue;
    f.summary = &manifest.partitions[i];
    auto decode = [&](const std::optional<std::string>& bytes, std::optional<Literal>* out) -> Status {
      if (!bytes) return Ok();
      auto v = Literal::FromBinary(f.type, *bytes);
      if (!v)
        return std::unexpected(v.error().WithContext("manifest " + manifest.manifest_path + ", partition field " +
                                                     pfields[i].name + " bound"));
      *out = std::move(*v);
      return Ok();
    };
    FLOE_RETURN_IF_ERROR(decode(f.summary->lower_bound, &f.lower));
    FLOE_RETURN_IF_ERROR(decode(f.summary->upper_bound, &f.upper));
  }
  return Eval(filter_, fields);
}

Result<bool> ManifestEvaluator::Eval(const Expr& e, const std::vector<FieldBounds>& fields) const {
  switch (e->op()) {
    case Op::kTrue: return true;
    case Op::kFalse: return false;
    case Op::kAnd: {
      FLOE_ASSIGN_OR_RETURN(bool l, Eval(e->left(), fields));
      if (!l) return false;
      return Eval(e->right(), fields);
    }
    case Op::kOr: {
      FLOE_ASSIGN_OR_RETURN(bool l, Eval(e->left(), fields));
      if (l) return true;
      return Eval(e->right(), fields);
    }
    case Op::kNot: return true;  // RewriteNot removed these; stay conservative if one remains
    default: return EvalPredicate(*e, fields);
  }
}

Result<bool> ManifestEvaluator::EvalPredicate(const Expression& p, const std::vector<FieldBounds>& fields) const {
  const TermPtr& term = p.term();
  if (!term || !term->is_reference()) return true;
  const FieldBounds* f = nullptr;
  for (const auto& candidate : fields)
    if (candidate.field_id == term->field_id) f = &candidate;
  if (!f || !f->summary) return true;  // no summary for this field: nothing proves absence

  const PartitionFieldSummary& s = *f->summary;
  bool floating = f->type->id() == TypeId::kFloat || f->type->id() == TypeId::kDouble;
  // Every value null (or NaN): no bounds were recorded.
  bool all_null_or_nan = !f->lower && !f->upper;
  auto cmp = [](const Literal& a, const Literal& b) { return CompareValues(a, b); };

  switch (p.op()) {
    case Op::kIsNull: return s.contains_null;
    case Op::kNotNull:
      // Only when every value is null can no row match; with NaN possible, stay conservative.
      return !(all_null_or_nan && s.contains_null && (!floating || s.contains_nan == std::optional<bool>(false)));
    case Op::kIsNan:
      if (!floating) return false;
      return s.contains_nan.value_or(true);
    case Op::kNotNan: return true;
    case Op::kLt:
      if (!f->lower) return false;
      return cmp(*f->lower, p.literal()) < 0;
    case Op::kLtEq:
      if (!f->lower) return false;
      return cmp(*f->lower, p.literal()) <= 0;
    case Op::kGt:
      if (!f->upper) return false;
      return cmp(*f->upper, p.literal()) > 0;
    case Op::kGtEq:
      if (!f->upper) return false;
      return cmp(*f->upper, p.literal()) >= 0;
    case Op::kEq:
      if (!f->lower || !f->upper) return false;
      return cmp(*f->lower, p.literal()) <= 0 && cmp(*f->upper, p.literal()) >= 0;
    case Op::kIn: {
      if (!f->lower || !f->upper) return false;
      for (const Literal& v : p.literals())
        if (!v.is_null() && cmp(*f->lower, v) <= 0 && cmp(*f->upper, v) >= 0) return true;
      return false;
    }
    case Op::kStartsWith: {
      if (!f->lower || !f->upper) return false;
      if (f->lower->type()->id() != TypeId::kString) return true;
      const std::string& prefix = p.literal().AsBytes();
      std::string_view lo = f->lower->AsBytes(), hi = f->upper->AsBytes();
      // Compare only as many bytes as the prefix has: bounds may be truncated.
      if (lo.substr(0, prefix.size()) > prefix) return false;
      if (hi.substr(0, prefix.size()) < prefix) return false;
      return true;
    }
    default: return true;  // !=, NOT IN, not starts-with, LIKE: bounds cannot rule them out
  }
}

}  // namespace floe
