#include "types/sort_order.h"

namespace floe {

Status SortOrder::Validate(const Schema& schema) const {
  for (const auto& f : fields_) {
    for (int id : f.source_ids.empty() ? std::vector<int>{f.source_id} : f.source_ids) {
      if (!schema.FindField(id))
        return InvalidArgument("sort order " + std::to_string(order_id_) + " refers to source column id " +
                               std::to_string(id) + ", which is not in the schema");
    }
    if (f.source_ids.size() > 1) continue;  // never computed by floe (CheckWritable)
    const NestedField* source = schema.FindField(f.source_id);
    if (!f.transform.CanTransform(*source->type))
      return InvalidArgument("sort order " + std::to_string(order_id_) + ": " + f.transform.ToString() +
                             " cannot be applied to type " + source->type->ToString());
  }
  return Ok();
}

Status SortOrder::CheckWritable() const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    const SortField& f = fields_[i];
    if (f.source_ids.size() <= 1 && !f.transform.is_unknown()) continue;
    std::string sources;
    for (int id : f.source_ids.empty() ? std::vector<int>{f.source_id} : f.source_ids)
      sources += (sources.empty() ? "" : ", ") + std::to_string(id);
    return NotSupported("sort order " + std::to_string(order_id_) + " field " + std::to_string(i) + " is " +
                        f.transform.ToString() + "(" + sources + "), which floe cannot compute: writes to a table " +
                        "sorted by it are refused");
  }
  return Ok();
}

bool SortOrder::SameFields(const SortOrder& other) const {
  if (fields_.size() != other.fields_.size()) return false;
  for (size_t i = 0; i < fields_.size(); ++i) {
    const auto& a = fields_[i];
    const auto& b = other.fields_[i];
    if (!(a.transform == b.transform) || a.source_id != b.source_id || a.source_ids != b.source_ids ||
        a.direction != b.direction ||
        a.null_order != b.null_order)
      return false;
  }
  return true;
}

std::string_view SortDirectionName(SortDirection d) { return d == SortDirection::kAscending ? "asc" : "desc"; }
std::string_view NullOrderName(NullOrder n) { return n == NullOrder::kNullsFirst ? "nulls-first" : "nulls-last"; }

Result<SortDirection> ParseSortDirection(std::string_view text) {
  if (text == "asc") return SortDirection::kAscending;
  if (text == "desc") return SortDirection::kDescending;
  return InvalidArgument("unknown sort direction '" + std::string(text) + "' (asc or desc)");
}

Result<NullOrder> ParseNullOrder(std::string_view text) {
  if (text == "nulls-first") return NullOrder::kNullsFirst;
  if (text == "nulls-last") return NullOrder::kNullsLast;
  return InvalidArgument("unknown null order '" + std::string(text) + "' (nulls-first or nulls-last)");
}

}  // namespace floe
