// The Avro schema a file was written with, as a tree, parsed from the JSON in the file header.
//
// Readers resolve the writer's schema against what they expect by Iceberg field id (the
// "field-id" attribute) and fall back to the field name: real writers differ in names (older
// Java wrote added_data_files_count for field 504) and in which optional fields they write.
// Attributes Iceberg puts on Avro schemas (field-id, element-id, key-id, value-id, logicalType)
// are kept; everything else a reader does not need is dropped.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "avro/avro_binary.h"
#include "floe/result.h"

namespace floe::avro {

enum class NodeKind { kNull, kBoolean, kInt, kLong, kFloat, kDouble, kBytes, kString, kFixed, kEnum, kArray, kMap, kRecord, kUnion };

struct Node;

struct Field {
  std::string name;
  std::optional<int> field_id;
  const Node* node = nullptr;
};

struct Node {
  NodeKind kind = NodeKind::kNull;
  std::string name;          // named types: record, fixed, enum
  std::string logical_type;  // "date", "timestamp-micros", "decimal", "uuid", "map", ...
  bool adjust_to_utc = false;  // Iceberg's "adjust-to-utc" on timestamps
  int precision = 0, scale = 0;  // decimal
  int size = 0;                  // fixed
  int symbol_count = 0;          // enum
  std::optional<int> element_id, key_id, value_id;
  std::vector<Field> fields;            // record
  const Node* items = nullptr;          // array items, map values
  std::vector<const Node*> branches;    // union

  // For a union of null and one other type (Iceberg's optional fields): that other type and the
  // null branch's index; nullptr for other nodes.
  const Node* NonNullBranch(int* null_index = nullptr) const;
  // A record field by Iceberg field id, else by name; nullptr when absent.
  const Field* FindField(int field_id, std::string_view name) const;
};

// Owns every node of one schema (named types are shared by reference, so nodes form a DAG).
class Schema {
 public:
  static Result<Schema> Parse(std::string_view json_text);
  static Result<std::shared_ptr<const Schema>> ParseShared(std::string_view json_text);
  const Node& root() const { return *root_; }

 private:
  std::vector<std::unique_ptr<Node>> nodes_;
  const Node* root_ = nullptr;
  friend class SchemaParser;
};

// Parsed schemas by their JSON text, for readers of many files that repeat one schema (the
// manifests of a table). Thread-safe. Holds at most kMaxSchemas texts: past that, a text not
// seen yet is parsed and not kept, so hostile input cannot grow it without bound.
class SchemaCache {
 public:
  static constexpr size_t kMaxSchemas = 64;
  Result<std::shared_ptr<const Schema>> Parse(std::string_view json_text);

 private:
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<const Schema>, std::less<>> parsed_;
};

// Skips one encoded value of `node`'s type.
void SkipValue(Decoder& d, const Node& node, int depth = 0);

// Decodes one value of any type into JSON (bytes and fixed as lower-case hex, longs as numbers):
// for showing fields this code has no special handling for.
nlohmann::json ValueToJson(Decoder& d, const Node& node, int depth = 0);

std::string_view NodeKindName(NodeKind kind);

}  // namespace floe::avro
