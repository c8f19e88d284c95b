// The schema of a Parquet file as a tree, and its mapping to and from Iceberg schemas.
//
// Parquet stores the schema as a depth-first list of elements; FileSchema rebuilds the tree,
// computes each leaf's maximum definition/repetition level, and checks the list is
// well-formed (child counts that fit, names, a type on every leaf) so that the rest of the
// reader can trust it.
#pragma once

#include <string>
#include <vector>

#include "parquet/parquet_format.h"
#include "types/schema.h"

namespace floe::parquet {

struct SchemaNode {
  SchemaElement element;
  std::vector<SchemaNode> children;
  int leaf_index = -1;   // index into FileSchema::leaves for primitive nodes
  int def_level = 0;     // definition level at which this node is present (non-null)
  int rep_level = 0;
  bool is_leaf() const { return !element.num_children.has_value() || *element.num_children == 0; }
  int field_id() const { return element.field_id.value_or(-1); }
};

struct LeafDescriptor {
  std::vector<std::string> path;  // path_in_schema
  SchemaElement element;          // the leaf's element
  int max_def_level = 0;
  int max_rep_level = 0;
};

struct FileSchema {
  SchemaNode root;
  std::vector<LeafDescriptor> leaves;
};

// Rebuilds the tree from a footer's schema list; Corrupt when the list is malformed.
Result<FileSchema> BuildFileSchema(const std::vector<SchemaElement>& elements);

// What a node holds. A repeated node outside a LIST group is a list (of itself, as_element);
// as_element asks for the node as a list's element, whose repetition is the list's.
enum class NodeKind { kPrimitive, kStruct, kList, kMap, kVariant };
NodeKind KindOf(const SchemaNode& node, bool as_element = false);

// Where a list's or map's parts are: the repeated node (one entry per element / key-value
// pair), and the element (list; `repeated` itself for the legacy forms, then read as_element)
// or the key and value (map).
struct RepeatedShape {
  const SchemaNode* repeated = nullptr;
  const SchemaNode* element = nullptr;
  const SchemaNode* key = nullptr;
  const SchemaNode* value = nullptr;
};
// A list node's shape, by LogicalTypes.md's rules (3-level, and the backward-compatible
// 2-level forms); Corrupt, naming the list, when it has none of them.
Result<RepeatedShape> ListShapeOf(const SchemaNode& node, bool as_element = false);
// A MAP (or MAP_KEY_VALUE) group's shape; Corrupt unless it holds one repeated group of a
// required key and a value.
Result<RepeatedShape> MapShapeOf(const SchemaNode& node);

// The Iceberg type a Parquet node holds, from its physical type and annotations, lists and
// maps included; nested fields without a field id get ids above the node's highest.
// NotSupported for types Iceberg lacks (e.g. INTERVAL); Corrupt for malformed nesting.
Result<TypePtr> IcebergTypeOf(const SchemaNode& node);

// An Iceberg schema for a file: its field ids where present; a field without one gets an id
// above every id the file holds (from 1 in a file without ids), top-level fields first, then
// nested ones as Iceberg assigns fresh ids. Columns whose type Iceberg cannot hold
// (intervals, unsigned 64-bit) are left out and named in *skipped. A file holding one id
// twice is Corrupt.
Result<Schema> InferIcebergSchema(const FileSchema& schema, std::vector<std::string>* skipped = nullptr);

// The Parquet schema floe writes for an Iceberg schema: field ids on every element,
// annotations per the Iceberg spec; lists and maps in the three-level LIST / MAP form.
Result<std::vector<SchemaElement>> ToParquetSchema(const Schema& schema);

// The time unit of a time/timestamp leaf: LogicalType::kMillis/kMicros/kNanos, 0 when the
// leaf carries no unit annotation.
int TimeUnitOf(const SchemaElement& element);

// Bytes of the FIXED_LEN_BYTE_ARRAY holding a decimal of this precision.
int DecimalBytesForPrecision(int precision);

}  // namespace floe::parquet
