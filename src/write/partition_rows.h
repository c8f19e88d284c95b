// Splits a batch's rows by the partition tuple the spec gives each row.
//
// The tuple of a row is the spec's transforms applied to its source columns. Rows whose source
// cells hold the same values get the same tuple, so the transforms run once per distinct cell
// value (up to a bound), not once per row: a batch of a million rows of three countries runs
// the identity transform three times. Cost: one pass to group, and each partition's rows are
// later taken out in one pass over each column (ColumnBatch::Take), whatever the number of
// partitions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "types/partition_spec.h"
#include "types/column_batch.h"
#include "types/literal.h"
#include "floe/result.h"

namespace floe {

struct PartitionGroup {
  std::vector<Literal> tuple;   // the partition values, in the spec's field order
  std::string key;              // the tuple's bytes, equal for equal tuples
  std::vector<uint32_t> rows;   // the batch's rows in this partition, ascending
};

// One group per distinct tuple, in order of first appearance. A spec field whose source column
// is not in the batch is InvalidArgument naming its id; a transform that fails on a value
// returns that error.
Result<std::vector<PartitionGroup>> GroupRowsByPartition(const PartitionSpec& spec, const ColumnBatch& batch);

}  // namespace floe
