// Whether a manifest can hold files matching a filter, judged from its partition summaries in
// the manifest list (per partition field: contains null, contains NaN, lower and upper bound).
//
// This is the first and cheapest pruning step of a scan plan: a manifest it rules out is never
// opened. It is conservative: "might match" when in doubt (arithmetic terms, LIKE, missing
// bounds), "cannot match" only when the bounds prove it.
#pragma once

#include <vector>

#include "expr/expression.h"
#include "meta/manifest_file.h"
#include "types/type.h"

namespace floe {

class ManifestEvaluator {
 public:
  // `partition_filter` is bound to the partition tuple: its references carry partition field
  // ids (as an inclusive projection through the manifest's spec produces). `partition_type` is
  // that spec's partition struct; summaries are positional, one per field of it.
  ManifestEvaluator(Expr partition_filter, TypePtr partition_type);

  // False only when no file of `manifest` can match. Corrupt summaries (a bound that does not
  // decode) are an error naming the manifest.
  Result<bool> MightMatch(const ManifestFile& manifest) const;

 private:
  struct FieldBounds;
  Result<bool> Eval(const Expr& e, const std::vector<FieldBounds>& fields) const;
  Result<bool> EvalPredicate(const Expression& p, const std::vector<FieldBounds>& fields) const;

  Expr filter_;  // NOT-free (RewriteNot)
  TypePtr partition_type_;
};

}  // namespace floe
