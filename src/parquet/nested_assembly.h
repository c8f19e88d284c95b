// Rebuilds list, map and struct columns (column_batch.h's nested layout) from the level
// entries of the Parquet leaves beneath them.
//
// A repeated leaf's chunk is a sequence of entries (repetition level, definition level, value
// slot). Seen from a nested value whose nearest enclosing repeated node has repetition level
// r and definition level d (0 and 0 at the top), the value's rows are the entries with
// repetition level <= r and definition level >= d: each such entry starts one. A list's
// elements are the entries of its repeated node's levels (r', d') the same way, and the
// definition level says, at every depth, whether a value is null, an empty list, or present.
// Struct nulls and list offsets come from one leaf under the node; each leaf's own values
// from itself; the leaves must agree on the counts (a file where they do not is Corrupt).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "parquet/file_schema.h"
#include "types/column_batch.h"

namespace floe::parquet {

// One leaf's chunk: a value slot per level entry (null below the leaf's maximum definition
// level) and the entries' levels.
struct LeafEntries {
  Column values;
  std::vector<uint8_t> def;
  std::vector<uint8_t> rep;
};

// Reads the chunk of a leaf (FileSchema::leaves index) as `type` into *out.
using LeafLoader = std::function<Status(int leaf_index, const TypePtr& type, LeafEntries* out)>;

struct NestedReadContext {
  LeafLoader load;
  bool match_by_id = true;  // struct fields are matched by field id, else by name
  size_t rows = 0;          // rows of the row group
  std::string where;        // "file.parquet, row group 3": for error messages
};

// Reads `field` (any type holding a list or map, or a struct) from its file node `node` into
// *out (a fresh Column of the field's type), one row per row of the row group. Struct fields
// the file lacks read as their initial-default, else null. Errors name the column path.
Status ReadNestedField(const NestedReadContext& ctx, const NestedField& field, const SchemaNode& node, Column* out);

// Appends n null rows to a column of any type (a nested one keeps its layout).
void AppendNullRows(Column* c, size_t n);

// Whether a type holds a list or map at any depth.
bool HoldsRepeated(const Type& type);

}  // namespace floe::parquet
