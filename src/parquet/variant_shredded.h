// Reading a shredded variant column (Parquet's variant shredding): the variant group holds the
// `metadata` binary, an optional `value` binary and a `typed_value` that stores all or part of
// each value in typed columns. A typed_value is a primitive column (the value when it has that
// type) or a group of the object's fields, each field a group of its own `value` and
// `typed_value`, recursively. Each row is reassembled into one variant value:
//
//   value     typed_value   the variant
//   null      null          missing (an object field that is absent; a variant null at the top)
//   non-null  null          `value` as it is
//   null      non-null      typed_value, encoded as a variant
//   non-null  non-null      an object: the shredded fields plus those of `value` (which must be an
//                           object without them); anything else is malformed
//
// A shredded array is a typed_value that is a LIST whose element is a (value, typed_value) pair
// again; every element must be present. Every mismatch between the layout and the rules above
// is Corrupt, naming the file, the column and the path inside it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "parquet/file_schema.h"
#include "parquet/nested_assembly.h"
#include "types/column_batch.h"

namespace floe::parquet {

// Reads one leaf of the row group as the given Iceberg type, with one definition level per row.
using VariantLeafLoader =
    std::function<Status(const SchemaNode& leaf, const TypePtr& type, Column* out, std::vector<uint8_t>* def_levels)>;

// True when the variant group is shredded (it has a typed_value child).
bool IsShreddedVariant(const SchemaNode& group);

// The group's `metadata` child when it is a binary leaf, else nullptr.
const SchemaNode* VariantMetadataNode(const SchemaNode& group);

// Reads one part of a variant group (its `value` leaf or its `typed_value` node) as `type`:
// one slot per slot of the metadata column being assembled, null where the part is.
using VariantPartReader = std::function<Status(const SchemaNode& part, const TypePtr& type, Column* out)>;

// Appends to *out one variant per slot of `metadata` (the group's metadata column, null where
// the variant is null), its value reassembled from the group's parts read through `read`; an
// unshredded group (metadata and value) as well as a shredded one. The parts must hold one slot
// per metadata slot, and an unshredded value is set wherever its metadata is: else Corrupt.
// `where` names the file and column, `unit` ("row", "value") what a slot is, for messages.
Status AssembleVariants(const SchemaNode& group, const Column& metadata, const VariantPartReader& read,
                        const std::string& where, const std::string& unit, const TypePtr& variant_type, Column* out);

// Reassembles the rows of the shredded variant group (nested.rows of them; value and
// typed_value are read through nested.load) into *out (packed variants, as types/variant.h
// lays them out); *def_levels, when not null, receives the metadata column's definition levels
// (the group's nulls, for an enclosing struct). `where` names the file and column for errors.
Status ReadShreddedVariant(const SchemaNode& group, const NestedReadContext& nested, const std::string& where,
                           const VariantLeafLoader& load, const TypePtr& variant_type, Column* out,
                           std::vector<uint8_t>* def_levels);

}  // namespace floe::parquet
