#include "avro/record_reading.h"

#include <algorithm>

namespace floe::avro {

namespace {

bool IsInteger(const Node* n) { return n->kind == NodeKind::kInt || n->kind == NodeKind::kLong; }

bool IsKeyValueArray(const Node* n, bool bytes_value) {
  if (n->kind != NodeKind::kArray || n->items->kind != NodeKind::kRecord || n->items->fields.size() != 2) return false;
  const Node* key = n->items->fields[0].node;
  const Node* value = n->items->fields[1].node;
  return key->kind == NodeKind::kInt && (bytes_value ? value->kind == NodeKind::kBytes : IsInteger(value));
}

bool Matches(const Node* n, Shape shape) {
  switch (shape) {
    case Shape::kInteger: return IsInteger(n);
    case Shape::kBoolean: return n->kind == NodeKind::kBoolean;
    case Shape::kString: return n->kind == NodeKind::kString;
    case Shape::kBytes: return n->kind == NodeKind::kBytes || n->kind == NodeKind::kFixed;
    case Shape::kRecord: return n->kind == NodeKind::kRecord;
    case Shape::kIntLongMap: return IsKeyValueArray(n, false);
    case Shape::kIntBytesMap: return IsKeyValueArray(n, true);
    case Shape::kIntegerList: return n->kind == NodeKind::kArray && IsInteger(n->items);
    case Shape::kRecordList:  // items may be optional records ([null, record]), as DuckDB writes them
      return n->kind == NodeKind::kArray && ValueNode(n->items)->kind == NodeKind::kRecord;
  }
  return false;
}

const char* ShapeName(Shape shape) {
  switch (shape) {
    case Shape::kInteger: return "int or long";
    case Shape::kBoolean: return "boolean";
    case Shape::kString: return "string";
    case Shape::kBytes: return "bytes";
    case Shape::kRecord: return "record";
    case Shape::kIntLongMap: return "array of int/long key-value records";
    case Shape::kIntBytesMap: return "array of int/bytes key-value records";
    case Shape::kIntegerList: return "array of int or long";
    case Shape::kRecordList: return "array of records";
  }
  return "?";
}

}  // namespace

const Node* ValueNode(const Node* node) {
  if (node->kind != NodeKind::kUnion) return node;
  const Node* v = node->NonNullBranch();
  return v ? v : node;
}

Result<std::vector<FieldPlan>> PlanRecord(const Node& record, const std::vector<KnownField>& known,
                                          std::vector<int>* present) {
  std::vector<FieldPlan> plan;
  plan.reserve(record.fields.size());
  for (const auto& f : record.fields) {
    FieldPlan p;
    p.node = f.node;
    p.name = f.name;
    const KnownField* match = nullptr;
    for (const auto& k : known) {
      if (f.field_id ? *f.field_id == k.id : f.name == k.name) {
        match = &k;
        break;
      }
    }
    if (match) {
      const Node* value = ValueNode(f.node);
      if (value->kind == NodeKind::kUnion || !Matches(value, match->shape)) {
        return Corrupt("field '" + f.name + "' (id " + std::to_string(match->id) + ") has Avro type " +
                       std::string(NodeKindName(value->kind)) + ", expected " + ShapeName(match->shape));
      }
      p.action = match->action;
      if (present) present->push_back(match->action);
    }
    plan.push_back(std::move(p));
  }
  return plan;
}

namespace {
bool Kept(const std::vector<int>* keep, int key) {
  return !keep || std::binary_search(keep->begin(), keep->end(), key);
}
}  // namespace

void ReadIntLongMap(Decoder& d, FlatMap<int, int64_t>* out, const std::vector<int>* keep) {
  out->clear();
  if (keep && keep->empty()) {  // nothing kept: step over the items' varints (key, value)
    while (int64_t n = d.ReadBlockCount()) {
      d.SkipVarints(2 * static_cast<uint64_t>(n));
      if (d.failed()) return;
    }
    return;
  }
  while (int64_t n = d.ReadBlockCount()) {
    for (int64_t i = 0; i < n; ++i) {
      int k = d.ReadInt();
      int64_t v = d.ReadLong();
      if (Kept(keep, k)) out->AppendUnordered(k, v);
    }
    if (d.failed()) break;
  }
  out->RestoreOrder();
}

void ReadIntBytesMap(Decoder& d, FlatMap<int, std::string>* out, const std::vector<int>* keep) {
  out->clear();
  if (keep && keep->empty()) {  // nothing kept: keys are not decoded, values not looked at
    while (int64_t n = d.ReadBlockCount()) {
      d.SkipIntBytesItems(static_cast<uint64_t>(n));
      if (d.failed()) return;
    }
    return;
  }
  while (int64_t n = d.ReadBlockCount()) {
    for (int64_t i = 0; i < n; ++i) {
      int k = d.ReadInt();
      std::string_view v = d.ReadBytesView();
      if (Kept(keep, k)) out->AppendUnordered(k, v);
    }
    if (d.failed()) break;
  }
  out->RestoreOrder();
}

std::string ReadByteString(Decoder& d, const Node& node) {
  if (node.kind == NodeKind::kFixed) return std::string(d.ReadFixedView(static_cast<size_t>(node.size)));
  return std::string(d.ReadBytesView());
}

}  // namespace floe::avro
