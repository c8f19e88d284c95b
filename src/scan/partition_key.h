// Partition tuples as hashable keys, and a spec's partition type across schema changes.
#pragma once

#include <string>
#include <vector>

#include "meta/table_metadata.h"
#include "types/literal.h"

namespace floe {

// A byte string equal for two (spec id, tuple) pairs exactly when both the spec id and every
// value are equal (nulls equal nulls). Values use Iceberg's binary form, so a tuple decoded
// from one writer's manifest and the same tuple from another's compare equal.
std::string PartitionKey(int spec_id, const std::vector<Literal>& partition);

// The struct type of a spec's partition tuples. Tried against the current schema first, then
// against older schemas newest first: an old spec may refer to a column that was since dropped,
// and its manifests must still be readable.
Result<TypePtr> PartitionTypeOf(const TableMetadata& table, const PartitionSpec& spec);
Result<TypePtr> PartitionTypeOf(const TableMetadata& table, int spec_id);

}  // namespace floe
