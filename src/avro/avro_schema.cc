#include "avro/avro_schema.h"

#include <map>

#include "util/strings.h"

namespace floe::avro {

namespace {
// Deeper schemas than this are refused: a hostile header must not exhaust the stack.
constexpr int kMaxDepth = 64;
}  // namespace

std::string_view NodeKindName(NodeKind kind) {
  switch (kind) {
    case NodeKind::kNull: return "null";
    case NodeKind::kBoolean: return "boolean";
    case NodeKind::kInt: return "int";
    case NodeKind::kLong: return "long";
    case NodeKind::kFloat: return "float";
    case NodeKind::kDouble: return "double";
    case NodeKind::kBytes: return "bytes";
    case NodeKind::kString: return "string";
    case NodeKind::kFixed: return "fixed";
    case NodeKind::kEnum: return "enum";
    case NodeKind::kArray: return "array";
    case NodeKind::kMap: return "map";
    case NodeKind::kRecord: return "record";
    case NodeKind::kUnion: return "union";
  }
  return "?";
}

const Node* Node::NonNullBranch(int* null_index) const {
  if (kind != NodeKind::kUnion || branches.size() != 2) return nullptr;
  for (int i = 0; i < 2; ++i) {
    if (branches[i]->kind == NodeKind::kNull && branches[1 - i]->kind != NodeKind::kNull) {
      if (null_index) *null_index = i;
      return branches[1 - i];
    }
  }
  return nullptr;
}

const Field* Node::FindField(int field_id, std::string_view field_name) const {
  for (const auto& f : fields) {
    if (f.field_id && *f.field_id == field_id) return &f;
  }
  for (const auto& f : fields) {
    if (!f.field_id && f.name == field_name) return &f;
  }
  return nullptr;
}

class SchemaParser {
 public:
  explicit SchemaParser(Schema* schema) : schema_(schema) {}

  Result<const Node*> ParseNode(const nlohmann::json& j, int depth) {
    if (depth > kMaxDepth) return Corrupt("Avro schema nested deeper than " + std::to_string(kMaxDepth));
    if (j.is_string()) return Named(j.get<std::string>());
    if (j.is_array()) {
      Node* n = NewNode(NodeKind::kUnion);
      for (const auto& b : j) {
        FLOE_ASSIGN_OR_RETURN(const Node* branch, ParseNode(b, depth + 1));
        n->branches.push_back(branch);
      }
      if (n->branches.empty()) return Corrupt("Avro schema has an empty union");
      return n;
    }
    if (!j.is_object()) return Corrupt("Avro schema element is not a string, array or object");
    auto type_it = j.find("type");
    if (type_it == j.end()) return Corrupt("Avro schema object without \"type\"");
    if (!type_it->is_string()) {
      // {"type": {...}} or {"type": [...]}: a wrapped schema.
      return ParseNode(*type_it, depth + 1);
    }
    std::string type = type_it->get<std::string>();
    Node* n = nullptr;
    if (type == "record" || type == "error") {
      n = NewNode(NodeKind::kRecord);
      FLOE_RETURN_IF_ERROR(Define(j, n));
      auto fields = j.find("fields");
      if (fields == j.end() || !fields->is_array()) return Corrupt("Avro record '" + n->name + "' without fields");
      for (const auto& f : *fields) {
        if (!f.is_object() || !f.contains("name") || !f["name"].is_string() || !f.contains("type")) {
          return Corrupt("Avro record '" + n->name + "' has a malformed field");
        }
        Field field;
        field.name = f["name"].get<std::string>();
        if (auto id = f.find("field-id"); id != f.end()) {
          if (!id->is_number_integer()) return Corrupt("field '" + field.name + "' has a non-integer field-id");
          field.field_id = id->get<int>();
        }
        FLOE_ASSIGN_OR_RETURN(field.node, ParseNode(f["type"], depth + 1));
        n->fields.push_back(std::move(field));
      }
    } else if (type == "enum") {
      n = NewNode(NodeKind::kEnum);
      FLOE_RETURN_IF_ERROR(Define(j, n));
      auto symbols = j.find("symbols");
      if (symbols == j.end() || !symbols->is_array()) return Corrupt("Avro enum without symbols");
      n->symbol_count = static_cast<int>(symbols->size());
    } else if (type == "fixed") {
      n = NewNode(NodeKind::kFixed);
      FLOE_RETURN_IF_ERROR(Define(j, n));
      auto size = j.find("size");
      if (size == j.end() || !size->is_number_integer() || size->get<int64_t>() < 0 || size->get<int64_t>() > (1 << 20)) {
        return Corrupt("Avro fixed '" + n->name + "' without a valid size");
      }
      n->size = size->get<int>();
    } else if (type == "array") {
      n = NewNode(NodeKind::kArray);
      if (!j.contains("items")) return Corrupt("Avro array without items");
      FLOE_ASSIGN_OR_RETURN(n->items, ParseNode(j["items"], depth + 1));
    } else if (type == "map") {
      n = NewNode(NodeKind::kMap);
      if (!j.contains("values")) return Corrupt("Avro map without values");
      FLOE_ASSIGN_OR_RETURN(n->items, ParseNode(j["values"], depth + 1));
    } else {
      FLOE_ASSIGN_OR_RETURN(const Node* prim, Named(type));
      if (j.size() == 1) return prim;
      if (prim->kind == NodeKind::kRecord || prim->kind == NodeKind::kFixed || prim->kind == NodeKind::kEnum) {
        return prim;  // a reference to a named type written as an object
      }
      // A primitive with attributes (logicalType, ...): its own node.
      n = NewNode(prim->kind);
    }
    ReadAttributes(j, n);
    return n;
  }

  Status Finish(const Node* root) {
    schema_->root_ = root;
    return Ok();
  }

 private:
  Node* NewNode(NodeKind kind) {
    schema_->nodes_.push_back(std::make_unique<Node>());
    schema_->nodes_.back()->kind = kind;
    return schema_->nodes_.back().get();
  }

  Result<const Node*> Named(const std::string& name) {
    static const std::map<std::string, NodeKind, std::less<>> kPrimitives = {
        {"null", NodeKind::kNull},     {"boolean", NodeKind::kBoolean}, {"int", NodeKind::kInt},
        {"long", NodeKind::kLong},     {"float", NodeKind::kFloat},     {"double", NodeKind::kDouble},
        {"bytes", NodeKind::kBytes},   {"string", NodeKind::kString}};
    if (auto it = kPrimitives.find(name); it != kPrimitives.end()) {
      auto& cached = primitives_[static_cast<int>(it->second)];
      if (!cached) cached = NewNode(it->second);
      return cached;
    }
    if (auto it = named_.find(name); it != named_.end()) return it->second;
    // Names may be referenced with or without their namespace.
    for (const auto& [full, node] : named_) {
      auto dot = full.rfind('.');
      if (dot != std::string::npos && full.substr(dot + 1) == name) return node;
    }
    return Corrupt("Avro schema refers to unknown type '" + name + "'");
  }

  Status Define(const nlohmann::json& j, Node* n) {
    auto name = j.find("name");
    if (name == j.end() || !name->is_string()) return Corrupt("Avro named type without a name");
    n->name = name->get<std::string>();
    std::string full = n->name;
    if (auto ns = j.find("namespace"); ns != j.end() && ns->is_string() && !ns->get<std::string>().empty() &&
                                       full.find('.') == std::string::npos) {
      full = ns->get<std::string>() + "." + full;
    }
    named_[full] = n;
    return Ok();
  }

  static void ReadAttributes(const nlohmann::json& j, Node* n) {
    auto int_attr = [&](const char* key) -> std::optional<int> {
      auto it = j.find(key);
      if (it != j.end() && it->is_number_integer()) return it->get<int>();
      return std::nullopt;
    };
    if (auto lt = j.find("logicalType"); lt != j.end() && lt->is_string()) n->logical_type = lt->get<std::string>();
    if (auto utc = j.find("adjust-to-utc"); utc != j.end() && utc->is_boolean()) n->adjust_to_utc = utc->get<bool>();
    n->precision = int_attr("precision").value_or(0);
    n->scale = int_attr("scale").value_or(0);
    n->element_id = int_attr("element-id");
    n->key_id = int_attr("key-id");
    n->value_id = int_attr("value-id");
  }

  Schema* schema_;
  std::map<std::string, const Node*> named_;
  const Node* primitives_[16] = {};
};

Result<Schema> Schema::Parse(std::string_view json_text) {
  nlohmann::json j = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Corrupt("Avro schema is not valid JSON");
  Schema schema;
  SchemaParser parser(&schema);
  FLOE_ASSIGN_OR_RETURN(const Node* root, parser.ParseNode(j, 0));
  FLOE_RETURN_IF_ERROR(parser.Finish(root));
  return schema;
}

Result<std::shared_ptr<const Schema>> Schema::ParseShared(std::string_view json_text) {
  FLOE_ASSIGN_OR_RETURN(Schema schema, Parse(json_text));
  return std::make_shared<const Schema>(std::move(schema));
}

Result<std::shared_ptr<const Schema>> SchemaCache::Parse(std::string_view json_text) {
  {
    std::lock_guard lock(mu_);
    auto it = parsed_.find(json_text);
    if (it != parsed_.end()) return it->second;
  }
  // Parsed outside the lock: two threads may parse one text at once, and the first kept wins.
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<const Schema> schema, Schema::ParseShared(json_text));
  std::lock_guard lock(mu_);
  if (parsed_.size() >= kMaxSchemas) return schema;
  return parsed_.emplace(std::string(json_text), std::move(schema)).first->second;
}

void SkipValue(Decoder& d, const Node& node, int depth) {
  if (depth > kMaxDepth) return d.Fail();
  switch (node.kind) {
    case NodeKind::kNull: return;
    case NodeKind::kBoolean: d.ReadBool(); return;
    case NodeKind::kInt:
    case NodeKind::kLong:
    case NodeKind::kEnum: d.ReadLong(); return;
    case NodeKind::kFloat: d.Skip(4); return;
    case NodeKind::kDouble: d.Skip(8); return;
    case NodeKind::kBytes:
    case NodeKind::kString: d.ReadBytesView(); return;
    case NodeKind::kFixed: d.Skip(static_cast<size_t>(node.size)); return;
    case NodeKind::kRecord:
      for (const auto& f : node.fields) {
        SkipValue(d, *f.node, depth + 1);
        if (d.failed()) return;
      }
      return;
    case NodeKind::kArray:
    case NodeKind::kMap:
      while (int64_t count = d.ReadBlockCount()) {
        for (int64_t i = 0; i < count && !d.failed(); ++i) {
          if (node.kind == NodeKind::kMap) d.ReadBytesView();
          SkipValue(d, *node.items, depth + 1);
        }
        if (d.failed()) return;
      }
      return;
    case NodeKind::kUnion: {
      int64_t index = d.ReadLong();
      if (index < 0 || index >= static_cast<int64_t>(node.branches.size())) return d.Fail();
      SkipValue(d, *node.branches[index], depth + 1);
      return;
    }
  }
}

nlohmann::json ValueToJson(Decoder& d, const Node& node, int depth) {
  if (depth > kMaxDepth) {
    d.Fail();
    return nullptr;
  }
  switch (node.kind) {
    case NodeKind::kNull: return nullptr;
    case NodeKind::kBoolean: return d.ReadBool();
    case NodeKind::kInt: return d.ReadInt();
    case NodeKind::kLong:
    case NodeKind::kEnum: return d.ReadLong();
    case NodeKind::kFloat: return d.ReadFloat();
    case NodeKind::kDouble: return d.ReadDouble();
    case NodeKind::kString: return std::string(d.ReadBytesView());
    case NodeKind::kBytes: return Hex(d.ReadBytesView());
    case NodeKind::kFixed: return Hex(d.ReadFixedView(static_cast<size_t>(node.size)));
    case NodeKind::kRecord: {
      nlohmann::json out = nlohmann::json::object();
      for (const auto& f : node.fields) {
        out[f.name] = ValueToJson(d, *f.node, depth + 1);
        if (d.failed()) break;
      }
      return out;
    }
    case NodeKind::kArray:
    case NodeKind::kMap: {
      nlohmann::json out = node.kind == NodeKind::kArray ? nlohmann::json::array() : nlohmann::json::object();
      while (int64_t count = d.ReadBlockCount()) {
        for (int64_t i = 0; i < count && !d.failed(); ++i) {
          if (node.kind == NodeKind::kMap) {
            std::string key(d.ReadBytesView());
            out[key] = ValueToJson(d, *node.items, depth + 1);
          } else {
            out.push_back(ValueToJson(d, *node.items, depth + 1));
          }
        }
        if (d.failed()) break;
      }
      return out;
    }
    case NodeKind::kUnion: {
      int64_t index = d.ReadLong();
      if (index < 0 || index >= static_cast<int64_t>(node.branches.size())) {
        d.Fail();
        return nullptr;
      }
      return ValueToJson(d, *node.branches[index], depth + 1);
    }
  }
  return nullptr;
}

}  // namespace floe::avro
