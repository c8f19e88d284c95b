// Pieces shared by the manifest and manifest list readers: resolving the writer's record fields
// to the fields a reader knows (by Iceberg field id, then name) and checking their Avro types
// once, up front, so the per-record loop only decodes.
#pragma once

#include <map>

#include "util/flat_map.h"
#include <string>
#include <vector>

#include "avro/avro_schema.h"

namespace floe::avro {

// The Avro shapes the readers accept for a known field (after unwrapping an optional union).
enum class Shape {
  kInteger,      // int or long (one encoding)
  kBoolean,
  kString,
  kBytes,        // bytes (or fixed)
  kRecord,
  kIntLongMap,   // array of {key: int, value: int|long} records
  kIntBytesMap,  // array of {key: int, value: bytes} records
  kIntegerList,  // array of int|long
  kRecordList,   // array of records
};

struct KnownField {
  int id;
  const char* name;
  Shape shape;
  int action;  // the reader's own code for this field
};

// One writer field and what to do with it: action -1 skips it.
struct FieldPlan {
  int action = -1;
  const Node* node = nullptr;  // the writer's node, a union for optional fields
  std::string name;
};

// Matches the writer record's fields to `known`; fails when a known field has an unexpected
// Avro type. `present` (optional) gets the actions found.
Result<std::vector<FieldPlan>> PlanRecord(const Node& record, const std::vector<KnownField>& known,
                                          std::vector<int>* present = nullptr);

// The value node behind an optional union ([null, T] or [T, null]) or the node itself.
const Node* ValueNode(const Node* node);

// Reads a union's branch index and returns the chosen branch, or nullptr for null.
inline const Node* ReadBranch(Decoder& d, const Node* node) {
  if (node->kind != NodeKind::kUnion) return node->kind == NodeKind::kNull ? nullptr : node;
  int64_t i = d.ReadLong();
  if (i < 0 || i >= static_cast<int64_t>(node->branches.size())) {
    d.Fail();
    return nullptr;
  }
  const Node* b = node->branches[static_cast<size_t>(i)];
  return b->kind == NodeKind::kNull ? nullptr : b;
}

// Decoders for the shapes; each reads a value whose node was checked by PlanRecord. The maps
// keep only the keys in `keep` (sorted) when it is given; the others are read past, not stored.
void ReadIntLongMap(Decoder& d, FlatMap<int, int64_t>* out, const std::vector<int>* keep = nullptr);
void ReadIntBytesMap(Decoder& d, FlatMap<int, std::string>* out, const std::vector<int>* keep = nullptr);
template <typename List>  // std::vector or SmallList of an integer type
void ReadIntegerList(Decoder& d, List* out) {
  using T = typename List::value_type;
  out->clear();
  while (int64_t n = d.ReadBlockCount()) {
    for (int64_t i = 0; i < n; ++i) out->push_back(static_cast<T>(d.ReadLong()));
    if (d.failed()) return;
  }
}
// A string, bytes or fixed value as a string.
std::string ReadByteString(Decoder& d, const Node& node);

}  // namespace floe::avro
