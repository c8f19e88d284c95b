#include "avro/partition_summary.h"

#include <cmath>

namespace floe {

PartitionSummaryBuilder::PartitionSummaryBuilder(TypePtr partition_type)
    : type_(std::move(partition_type)), fields_(type_->fields().size()) {}

void PartitionSummaryBuilder::Add(const std::vector<Literal>& partition) {
  size_t n = std::min(partition.size(), fields_.size());
  for (size_t i = 0; i < n; ++i) {
    const Literal& v = partition[i];
    FieldStats& s = fields_[i];
    if (v.is_null()) {
      s.contains_null = true;
      continue;
    }
    if ((std::holds_alternative<double>(v.value()) && std::isnan(v.AsDouble())) ||
        (std::holds_alternative<float>(v.value()) && std::isnan(v.AsFloat()))) {
      s.contains_nan = true;  // NaN is never a bound
      continue;
    }
    if (s.lower.is_null() || Literal::Compare(v, s.lower) < 0) s.lower = v;
    if (s.upper.is_null() || Literal::Compare(v, s.upper) > 0) s.upper = v;
  }
}

Result<std::vector<PartitionFieldSummary>> PartitionSummaryBuilder::Build() const {
  std::vector<PartitionFieldSummary> out;
  out.reserve(fields_.size());
  for (size_t i = 0; i < fields_.size(); ++i) {
    const FieldStats& s = fields_[i];
    PartitionFieldSummary summary;
    summary.contains_null = s.contains_null;
    summary.contains_nan = s.contains_nan;  // written for every field, as Iceberg's Java writer does
    if (!s.lower.is_null()) {
      FLOE_ASSIGN_OR_RETURN(summary.lower_bound, s.lower.ToBinary());
      FLOE_ASSIGN_OR_RETURN(summary.upper_bound, s.upper.ToBinary());
    }
    out.push_back(std::move(summary));
  }
  return out;
}

}  // namespace floe
