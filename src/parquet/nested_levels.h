// Repetition and definition levels of a leaf under a list or map, from the nested column
// layout of types/column_batch.h (offsets into children, a child row per struct row).
//
// The path from a top-level column down to the leaf is a chain of columns: chain[0] is the
// top-level column (one row per record), chain[d + 1] the child of chain[d] on the path (a
// struct's field, a list's element, a map's key or value). The Parquet schema is Iceberg's
// three-level one (file_schema.h): an optional field adds a definition level when present;
// a list or map adds one more for "has at least one entry" and one repetition level.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "types/column_batch.h"

namespace floe::parquet {

struct ShreddedLeaf {
  std::vector<uint8_t> def_levels;
  std::vector<uint8_t> rep_levels;
  // One row per level entry: the leaf's value where the entry's definition level is the
  // maximum, a zero value elsewhere (its null flags are not set; the levels say it).
  Column entries;
};

// Levels and values of records [begin, end) of chain[0]. optional[d] says whether chain[d]'s
// field may be null. InvalidArgument, naming `name`, when a required value is null or the
// offsets do not fit the children.
Status ShredLeaf(const std::vector<const Column*>& chain, const std::vector<bool>& optional, size_t begin,
                 size_t end, const std::string& name, ShreddedLeaf* out);

}  // namespace floe::parquet
