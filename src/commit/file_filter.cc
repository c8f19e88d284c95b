#include "commit/file_filter.h"

#include "expr/binder.h"
#include "expr/metrics_evaluator.h"
#include "expr/projection.h"
#include "meta/data_file_metrics.h"

namespace floe {

Result<FileFilter> FileFilter::Make(const Expr& filter, const TableMetadata& table, bool case_sensitive) {
  FileFilter out;
  out.table_ = &table;
  if (!filter) {
    out.bound_ = True();
    return out;
  }
  FLOE_ASSIGN_OR_RETURN(out.bound_, Bind(filter, table.CurrentSchema(), case_sensitive));
  return out;
}

std::string FileFilter::ToString() const { return floe::ToString(bound_); }

Result<bool> FileFilter::MayMatch(const DataFile& file) const {
  if (bound_->op() == Op::kTrue) return true;
  if (bound_->op() == Op::kFalse) return false;
  if (const PartitionSpec* spec = table_->SpecById(file.spec_id); spec && !spec->fields().empty() &&
                                                                   spec->fields().size() == file.partition.size()) {
    FLOE_ASSIGN_OR_RETURN(Expr projected, ProjectInclusive(bound_, *spec));
    if (!EvaluatePartition(projected, *spec, file.partition)) return false;
  }
  return InclusiveMetrics(bound_, MetricsOf(file));
}

Result<bool> FileFilter::AllMatch(const DataFile& file) const {
  if (bound_->op() == Op::kTrue) return true;
  if (bound_->op() == Op::kFalse) return false;
  if (const PartitionSpec* spec = table_->SpecById(file.spec_id); spec && !spec->fields().empty() &&
                                                                   spec->fields().size() == file.partition.size()) {
    FLOE_ASSIGN_OR_RETURN(Expr projected, ProjectStrict(bound_, *spec));
    if (EvaluatePartition(projected, *spec, file.partition)) return true;
  }
  return StrictMetrics(bound_, MetricsOf(file));
}

}  // namespace floe
