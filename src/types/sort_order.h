// Sort orders: how a writer orders rows within files.
#pragma once

#include <string>
#include <vector>

#include "types/schema.h"
#include "types/transform.h"

namespace floe {

enum class SortDirection { kAscending, kDescending };
enum class NullOrder { kNullsFirst, kNullsLast };

struct SortField {
  Transform transform;
  int source_id = 0;  // the source column; the first one when there are several
  SortDirection direction = SortDirection::kAscending;
  NullOrder null_order = NullOrder::kNullsFirst;
  std::vector<int> source_ids;  // v3 multi-argument transforms: every source, when more than one
};

class SortOrder {
 public:
  SortOrder() = default;
  SortOrder(int order_id, std::vector<SortField> fields) : order_id_(order_id), fields_(std::move(fields)) {}
  static SortOrder Unsorted() { return SortOrder(0, {}); }

  int order_id() const { return order_id_; }
  const std::vector<SortField>& fields() const { return fields_; }
  bool is_unsorted() const { return fields_.empty(); }
  Status Validate(const Schema& schema) const;
  // NotSupported naming the first field floe cannot compute (an unknown transform, or several
  // sources): a writer could not order its rows by it, so writes are refused.
  Status CheckWritable() const;
  bool SameFields(const SortOrder& other) const;

 private:
  int order_id_ = 0;
  std::vector<SortField> fields_;
};

std::string_view SortDirectionName(SortDirection d);  // "asc" / "desc"
std::string_view NullOrderName(NullOrder n);          // "nulls-first" / "nulls-last"
Result<SortDirection> ParseSortDirection(std::string_view text);
Result<NullOrder> ParseNullOrder(std::string_view text);

}  // namespace floe
