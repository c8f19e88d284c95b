// Partition field summaries of a manifest (the manifest list's `partitions` field): per
// partition field, whether any entry had a null or NaN value and the bounds of the others.
#pragma once

#include <vector>

#include "meta/manifest_file.h"
#include "types/literal.h"
#include "types/type.h"

namespace floe {

class PartitionSummaryBuilder {
 public:
  // partition_type: the struct type of the manifest's partition tuples.
  explicit PartitionSummaryBuilder(TypePtr partition_type);

  // Counts one partition tuple (one value per partition field; nulls allowed).
  void Add(const std::vector<Literal>& partition);

  // One summary per partition field, bounds in Iceberg's single-value binary form.
  Result<std::vector<PartitionFieldSummary>> Build() const;

 private:
  struct FieldStats {
    bool contains_null = false;
    bool contains_nan = false;
    Literal lower, upper;  // null until a non-null, non-NaN value arrives
  };
  TypePtr type_;
  std::vector<FieldStats> fields_;
};

}  // namespace floe
