// ScanRequest: what Table::Scan reads: which snapshot, which rows, which columns.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "floe/filter.h"
#include "floe/result.h"
#include "floe/rows.h"

namespace floe {

struct ScanRequest {
  // At most one of the three picks the snapshot (time travel); none reads the current one.
  std::optional<int64_t> snapshot_id;
  std::optional<std::string> ref;   // a branch or a tag
  std::optional<int64_t> as_of_ms;  // the snapshot that was current at this time (ms since epoch)

  Filter filter;                     // default: every row
  // A filter in WHERE syntax, parsed when the scan is planned and ANDed with `filter`; a text
  // that does not parse is InvalidArgument quoting it ("filter '...': ..."). Empty: no filter.
  std::string where;
  std::vector<std::string> columns;  // default: every column of the snapshot's schema
  std::optional<int64_t> limit;      // at most this many rows (read only as far as needed)
};

// Receives a scan's rows a batch at a time (Table::ScanBatches); false stops the scan.
using RowBatchConsumer = std::function<Result<bool>(Rows&& batch)>;

}  // namespace floe
