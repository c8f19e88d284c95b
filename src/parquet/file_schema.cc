#include "parquet/file_schema.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace floe::parquet {

namespace {

constexpr int kMaxNesting = 100;

Status BuildNode(const std::vector<SchemaElement>& elements, size_t* next, SchemaNode* node, int depth,
                 std::vector<std::string>* path, FileSchema* out) {
  if (depth > kMaxNesting) return Corrupt("parquet schema nested too deeply");
  if (*next >= elements.size()) return Corrupt("parquet schema: child count exceeds the element list");
  node->element = elements[(*next)++];
  const SchemaElement& e = node->element;
  if (node->is_leaf()) {
    if (!e.type) return Corrupt("parquet schema: leaf '" + e.name + "' has no type");
    if (*e.type < 0 || *e.type > physical::kFixedLenByteArray) return Corrupt("parquet schema: leaf '" + e.name + "' has an unknown type");
    if (*e.type == physical::kFixedLenByteArray && (!e.type_length || *e.type_length <= 0 || *e.type_length > (1 << 20)))
      return Corrupt("parquet schema: fixed-length leaf '" + e.name + "' has a bad length");
    node->leaf_index = static_cast<int>(out->leaves.size());
    LeafDescriptor leaf;
    leaf.path = *path;
    leaf.element = e;
    leaf.max_def_level = node->def_level;
    leaf.max_rep_level = node->rep_level;
    out->leaves.push_back(std::move(leaf));
    return Ok();
  }
  int32_t n = *e.num_children;
  if (n < 0 || static_cast<size_t>(n) > elements.size() - *next) return Corrupt("parquet schema: bad child count for '" + e.name + "'");
  node->children.resize(n);
  for (auto& child : node->children) {
    if (*next >= elements.size()) return Corrupt("parquet schema: child count exceeds the element list");
    const SchemaElement& ce = elements[*next];
    int rep = ce.repetition_type.value_or(repetition::kRequired);
    if (rep < 0 || rep > 2) return Corrupt("parquet schema: bad repetition for '" + ce.name + "'");
    child.def_level = node->def_level + (rep != repetition::kRequired ? 1 : 0);
    child.rep_level = node->rep_level + (rep == repetition::kRepeated ? 1 : 0);
    path->push_back(ce.name);
    FLOE_RETURN_IF_ERROR(BuildNode(elements, next, &child, depth + 1, path, out));
    path->pop_back();
  }
  return Ok();
}

bool IsListAnnotated(const SchemaNode& n) {
  return n.element.converted_type == converted::kList || n.element.logical_type.kind == LogicalType::kList;
}
bool IsMapAnnotated(const SchemaNode& n) {
  return n.element.converted_type == converted::kMap || n.element.converted_type == converted::kMapKeyValue ||
         n.element.logical_type.kind == LogicalType::kMap;
}

}  // namespace

NodeKind KindOf(const SchemaNode& node, bool as_element) {
  if (!as_element && node.element.repetition_type == repetition::kRepeated) return NodeKind::kList;
  if (node.is_leaf()) return NodeKind::kPrimitive;
  if (IsListAnnotated(node)) return NodeKind::kList;
  if (IsMapAnnotated(node)) return NodeKind::kMap;
  if (node.element.logical_type.kind == LogicalType::kVariant) return NodeKind::kVariant;
  return NodeKind::kStruct;
}

Result<RepeatedShape> ListShapeOf(const SchemaNode& node, bool as_element) {
  const std::string& name = node.element.name;
  RepeatedShape shape;
  if (!as_element && node.element.repetition_type == repetition::kRepeated) {
    // A repeated field outside a LIST group: a required list of required elements.
    shape.repeated = &node;
    shape.element = &node;
    return shape;
  }
  if (node.children.size() != 1 || node.children[0].element.repetition_type != repetition::kRepeated)
    return Corrupt("list '" + name + "' must hold exactly one repeated field");
  const SchemaNode& rep = node.children[0];
  shape.repeated = &rep;
  // LogicalTypes.md's backward-compatibility rules: the repeated field is itself the element
  // (required) when it is a primitive, a group of several fields, or a one-field group named
  // "array" or "<list>_tuple"; otherwise it is the middle level and its one child the element.
  if (rep.is_leaf() || rep.children.size() > 1 || rep.element.name == "array" || rep.element.name == name + "_tuple") {
    shape.element = &rep;
    return shape;
  }
  if (rep.children.size() != 1) return Corrupt("list '" + name + "': its repeated group is empty");
  if (rep.children[0].element.repetition_type == repetition::kRepeated)
    return Corrupt("list '" + name + "': its element is repeated again without a LIST group");
  shape.element = &rep.children[0];
  return shape;
}

Result<RepeatedShape> MapShapeOf(const SchemaNode& node) {
  const std::string& name = node.element.name;
  if (node.element.repetition_type == repetition::kRepeated) return Corrupt("map '" + name + "' is itself repeated");
  if (node.children.size() != 1 || node.children[0].element.repetition_type != repetition::kRepeated ||
      node.children[0].is_leaf())
    return Corrupt("map '" + name + "' must hold exactly one repeated group of key and value");
  const SchemaNode& kv = node.children[0];
  if (kv.children.size() != 2) {
    return Corrupt("map '" + name + "': its repeated group has " + std::to_string(kv.children.size()) +
                   " fields, not a key and a value");
  }
  RepeatedShape shape;
  shape.repeated = &kv;
  shape.key = &kv.children[0];
  shape.value = &kv.children[1];
  if (shape.key->element.repetition_type != repetition::kRequired) return Corrupt("map '" + name + "': its key is not required");
  if (shape.value->element.repetition_type == repetition::kRepeated)
    return Corrupt("map '" + name + "': its value is repeated without a LIST group");
  return shape;
}

int TimeUnitOf(const SchemaElement& e) {
  const LogicalType& lt = e.logical_type;
  if (lt.kind == LogicalType::kTimestamp || lt.kind == LogicalType::kTime) return lt.unit;
  int32_t ct = e.converted_type.value_or(-1);
  if (ct == converted::kTimestampMillis || ct == converted::kTimeMillis) return LogicalType::kMillis;
  if (ct == converted::kTimestampMicros || ct == converted::kTimeMicros) return LogicalType::kMicros;
  return 0;
}

int DecimalBytesForPrecision(int precision) {
  // The fewest bytes whose signed range holds 10^precision - 1.
  for (int n = 1; n <= 16; ++n) {
    double max = std::pow(2.0, 8 * n - 1) - 1;
    if (std::floor(std::log10(max)) >= precision) return n;
  }
  return 16;
}

Result<FileSchema> BuildFileSchema(const std::vector<SchemaElement>& elements) {
  FileSchema out;
  if (elements.empty()) return Corrupt("parquet schema is empty");
  size_t next = 0;
  std::vector<std::string> path;
  // The root is a group even when num_children is 0 (a file with no columns).
  out.root.element = elements[0];
  next = 1;
  int32_t n = elements[0].num_children.value_or(0);
  if (n < 0 || static_cast<size_t>(n) > elements.size() - 1) return Corrupt("parquet schema: bad root child count");
  out.root.children.resize(n);
  for (auto& child : out.root.children) {
    if (next >= elements.size()) return Corrupt("parquet schema: child count exceeds the element list");
    const SchemaElement& ce = elements[next];
    int rep = ce.repetition_type.value_or(repetition::kRequired);
    if (rep < 0 || rep > 2) return Corrupt("parquet schema: bad repetition for '" + ce.name + "'");
    child.def_level = rep != repetition::kRequired ? 1 : 0;
    child.rep_level = rep == repetition::kRepeated ? 1 : 0;
    path.push_back(ce.name);
    FLOE_RETURN_IF_ERROR(BuildNode(elements, &next, &child, 1, &path, &out));
    path.pop_back();
  }
  if (next != elements.size()) return Corrupt("parquet schema: elements left over after the tree");
  return out;
}

namespace {

// Field ids for the nodes a file leaves without one: counted up from above every id the file
// holds (from 1 when the highest is a reserved one, as in delete files), skipping ids in use.
struct IdSource {
  std::set<int> used;
  int next = 1;
  int Take(const SchemaNode& n) {
    if (n.field_id() >= 0) return n.field_id();
    while (used.count(next)) ++next;
    used.insert(next);
    return next++;
  }
};

void CollectFieldIds(const SchemaNode& node, std::set<int>* ids) {
  if (node.field_id() >= 0) ids->insert(node.field_id());
  for (const auto& c : node.children) CollectFieldIds(c, ids);
}

IdSource IdsFor(const SchemaNode& root) {
  IdSource ids;
  CollectFieldIds(root, &ids.used);
  const int max = ids.used.empty() ? 0 : *ids.used.rbegin();
  ids.next = max < (1 << 30) ? max + 1 : 1;
  return ids;
}

Result<TypePtr> PrimitiveTypeOf(const SchemaNode& node);

// The Iceberg type of `node` (as a list element when as_element: its repetition is the
// enclosing list's). Ids of the nested fields are taken as Iceberg assigns fresh ones: all
// of a struct's fields first, then each field's own nested fields, in order.
Result<TypePtr> TypeOf(const SchemaNode& node, bool as_element, IdSource* ids) {
  const std::string& name = node.element.name;
  switch (KindOf(node, as_element)) {
    case NodeKind::kPrimitive: return PrimitiveTypeOf(node);
    case NodeKind::kVariant: return Type::Variant();
    case NodeKind::kStruct: {
      std::vector<int> field_ids;
      for (const auto& c : node.children) field_ids.push_back(ids->Take(c));
      std::vector<NestedField> fields;
      for (size_t i = 0; i < node.children.size(); ++i) {
        const SchemaNode& c = node.children[i];
        auto t = TypeOf(c, false, ids);
        if (!t) return std::unexpected(t.error().WithContext("in '" + name + "'"));
        fields.push_back(NestedField{field_ids[i], c.element.name, *t, c.element.repetition_type == repetition::kRequired, ""});
      }
      return Type::Struct(std::move(fields));
    }
    case NodeKind::kList: {
      FLOE_ASSIGN_OR_RETURN(RepeatedShape shape, ListShapeOf(node, as_element));
      const bool self = shape.element == shape.repeated;
      int id = ids->Take(*shape.element);
      auto t = TypeOf(*shape.element, self, ids);
      if (!t) return std::unexpected(t.error().WithContext("in list '" + name + "'"));
      bool required = self || shape.element->element.repetition_type == repetition::kRequired;
      return Type::List(NestedField{id, "element", *t, required, ""});
    }
    case NodeKind::kMap: {
      FLOE_ASSIGN_OR_RETURN(RepeatedShape shape, MapShapeOf(node));
      int key_id = ids->Take(*shape.key);
      int value_id = ids->Take(*shape.value);
      auto k = TypeOf(*shape.key, false, ids);
      if (!k) return std::unexpected(k.error().WithContext("in map '" + name + "'"));
      auto v = TypeOf(*shape.value, false, ids);
      if (!v) return std::unexpected(v.error().WithContext("in map '" + name + "'"));
      bool value_required = shape.value->element.repetition_type == repetition::kRequired;
      return Type::Map(NestedField{key_id, "key", *k, true, ""}, NestedField{value_id, "value", *v, value_required, ""});
    }
  }
  return Corrupt("column '" + name + "' has an unknown shape");
}

Result<TypePtr> PrimitiveTypeOf(const SchemaNode& node) {
  const SchemaElement& e = node.element;
  const std::string& name = e.name;
  const LogicalType& lt = e.logical_type;
  int32_t ct = e.converted_type.value_or(-1);
  bool is_decimal = lt.kind == LogicalType::kDecimal || ct == converted::kDecimal;
  if (is_decimal) {
    int precision = lt.kind == LogicalType::kDecimal ? lt.precision : e.precision.value_or(0);
    int scale = lt.kind == LogicalType::kDecimal ? lt.scale : e.scale.value_or(0);
    if (precision <= 0 || precision > 38 || scale < 0 || scale > precision)
      return Corrupt("column '" + name + "': bad decimal precision/scale");
    return Type::Decimal(precision, scale);
  }
  switch (*e.type) {
    case physical::kBoolean: return Type::Boolean();
    case physical::kInt32:
      if (lt.kind == LogicalType::kDate || ct == converted::kDate) return Type::Date();
      if (lt.kind == LogicalType::kTime || ct == converted::kTimeMillis) return Type::Time();  // millis widened on read
      if ((lt.kind == LogicalType::kInteger && !lt.is_signed && lt.bit_width == 32) || ct == converted::kUint32) return Type::Long();
      return Type::Int();
    case physical::kInt64:
      if (lt.kind == LogicalType::kTimestamp) {
        bool nanos = lt.unit == LogicalType::kNanos;
        if (lt.adjusted_to_utc) return nanos ? Type::TimestampTzNs() : Type::TimestampTz();
        return nanos ? Type::TimestampNs() : Type::Timestamp();
      }
      if (ct == converted::kTimestampMicros || ct == converted::kTimestampMillis) return Type::TimestampTz();
      if (lt.kind == LogicalType::kTime || ct == converted::kTimeMicros) return Type::Time();
      if ((lt.kind == LogicalType::kInteger && !lt.is_signed) || ct == converted::kUint64)
        return NotSupported("column '" + name + "' is an unsigned 64-bit integer, which Iceberg cannot hold");
      return Type::Long();
    case physical::kInt96: return Type::TimestampTz();  // legacy Impala/Spark timestamps
    case physical::kFloat: return Type::Float();
    case physical::kDouble: return Type::Double();
    case physical::kByteArray:
      if (lt.kind == LogicalType::kGeometry) return Type::Geometry(lt.crs);
      if (lt.kind == LogicalType::kGeography) {
        static const char* kAlgorithms[] = {"spherical", "vincenty", "thomas", "andoyer", "karney"};
        if (lt.algorithm < 0 || lt.algorithm > 4)
          return Corrupt("column '" + name + "': geography edge algorithm " + std::to_string(lt.algorithm) + " is unknown");
        return Type::Geography(lt.crs, kAlgorithms[lt.algorithm]);
      }
      if (lt.kind == LogicalType::kString || lt.kind == LogicalType::kEnum || lt.kind == LogicalType::kJson ||
          ct == converted::kUtf8 || ct == converted::kEnum || ct == converted::kJson)
        return Type::String();
      return Type::Binary();
    case physical::kFixedLenByteArray:
      if (lt.kind == LogicalType::kUuid && *e.type_length == 16) return Type::Uuid();
      if (ct == converted::kInterval) return NotSupported("column '" + name + "' is an INTERVAL, which Iceberg cannot hold");
      return Type::Fixed(*e.type_length);
  }
  return Corrupt("column '" + name + "' has an unknown physical type");
}

}  // namespace

Result<TypePtr> IcebergTypeOf(const SchemaNode& node) {
  IdSource ids = IdsFor(node);
  return TypeOf(node, false, &ids);
}

namespace {

// Every field id of a type, to find duplicates.
Status CheckUniqueIds(const Type& type, std::set<int>* seen, const std::string& path) {
  for (const auto& f : type.fields()) {
    std::string where = path.empty() ? f.name : path + "." + f.name;
    if (!seen->insert(f.id).second) return Corrupt("parquet schema: field id " + std::to_string(f.id) + " appears twice (at '" + where + "')");
    if (f.type->is_nested()) FLOE_RETURN_IF_ERROR(CheckUniqueIds(*f.type, seen, where));
  }
  return Ok();
}

}  // namespace

Result<Schema> InferIcebergSchema(const FileSchema& schema, std::vector<std::string>* skipped) {
  IdSource ids = IdsFor(schema.root);
  // The top-level fields' ids first, then their nested fields' (as Iceberg assigns them).
  std::vector<int> top_ids;
  for (const auto& c : schema.root.children) top_ids.push_back(ids.Take(c));
  std::vector<NestedField> fields;
  for (size_t i = 0; i < schema.root.children.size(); ++i) {
    const SchemaNode& c = schema.root.children[i];
    auto t = TypeOf(c, false, &ids);
    if (!t) {
      if (t.error().kind != ErrorKind::kNotSupported) return std::unexpected(t.error().WithContext("column '" + c.element.name + "'"));
      if (skipped) skipped->push_back(c.element.name);
      continue;
    }
    fields.push_back(NestedField{top_ids[i], c.element.name, *t, c.element.repetition_type == repetition::kRequired, ""});
  }
  std::set<int> seen;
  FLOE_RETURN_IF_ERROR(CheckUniqueIds(*Type::Struct(fields), &seen, ""));
  return Schema(0, std::move(fields));
}

namespace {

// Fields of type unknown have no column in a file.
int32_t StoredFieldCount(const std::vector<NestedField>& fields) {
  int32_t n = 0;
  for (const auto& f : fields) n += f.type->id() != TypeId::kUnknown;
  return n;
}

Status AppendField(const NestedField& f, std::vector<SchemaElement>* out) {
  SchemaElement e;
  e.name = f.name;
  e.field_id = f.id;
  e.repetition_type = f.required ? repetition::kRequired : repetition::kOptional;
  const Type& t = *f.type;
  LogicalType& lt = e.logical_type;
  switch (t.id()) {
    case TypeId::kBoolean: e.type = physical::kBoolean; break;
    case TypeId::kInt: e.type = physical::kInt32; break;
    case TypeId::kLong: e.type = physical::kInt64; break;
    case TypeId::kFloat: e.type = physical::kFloat; break;
    case TypeId::kDouble: e.type = physical::kDouble; break;
    case TypeId::kDate:
      e.type = physical::kInt32;
      e.converted_type = converted::kDate;
      lt.kind = LogicalType::kDate;
      break;
    case TypeId::kTime:
      e.type = physical::kInt64;
      e.converted_type = converted::kTimeMicros;
      lt.kind = LogicalType::kTime;
      lt.unit = LogicalType::kMicros;
      lt.adjusted_to_utc = false;
      break;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      e.type = physical::kInt64;
      e.converted_type = converted::kTimestampMicros;
      lt.kind = LogicalType::kTimestamp;
      lt.unit = LogicalType::kMicros;
      lt.adjusted_to_utc = t.id() == TypeId::kTimestampTz;
      break;
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      e.type = physical::kInt64;
      lt.kind = LogicalType::kTimestamp;
      lt.unit = LogicalType::kNanos;
      lt.adjusted_to_utc = t.id() == TypeId::kTimestampTzNs;
      break;
    case TypeId::kString:
      e.type = physical::kByteArray;
      e.converted_type = converted::kUtf8;
      lt.kind = LogicalType::kString;
      break;
    case TypeId::kBinary: e.type = physical::kByteArray; break;
    case TypeId::kGeometry:
    case TypeId::kGeography: {
      // WKB in a BYTE_ARRAY, annotated GEOMETRY / GEOGRAPHY with the non-default CRS and algorithm.
      e.type = physical::kByteArray;
      lt.kind = t.id() == TypeId::kGeometry ? LogicalType::kGeometry : LogicalType::kGeography;
      if (t.crs() != Type::kDefaultCrs) lt.crs = t.crs();
      static const char* kAlgorithms[] = {"spherical", "vincenty", "thomas", "andoyer", "karney"};
      for (int a = 0; a < 5; ++a)
        if (t.id() == TypeId::kGeography && t.algorithm() == kAlgorithms[a]) lt.algorithm = a;
      break;
    }
    case TypeId::kUuid:
      e.type = physical::kFixedLenByteArray;
      e.type_length = 16;
      lt.kind = LogicalType::kUuid;
      break;
    case TypeId::kFixed:
      e.type = physical::kFixedLenByteArray;
      e.type_length = t.length();
      break;
    case TypeId::kDecimal:
      if (t.precision() <= 9) {
        e.type = physical::kInt32;
      } else if (t.precision() <= 18) {
        e.type = physical::kInt64;
      } else {
        e.type = physical::kFixedLenByteArray;
        e.type_length = DecimalBytesForPrecision(t.precision());
      }
      e.converted_type = converted::kDecimal;
      e.precision = t.precision();
      e.scale = t.scale();
      lt.kind = LogicalType::kDecimal;
      lt.precision = t.precision();
      lt.scale = t.scale();
      break;
    case TypeId::kStruct: {
      e.num_children = StoredFieldCount(t.fields());
      out->push_back(e);
      for (const auto& child : t.fields()) {
        auto st = AppendField(child, out);
        if (!st) return std::unexpected(st.error().WithContext("in struct '" + f.name + "'"));
      }
      return Ok();
    }
    case TypeId::kList:
    case TypeId::kMap: {
      // Iceberg's three-level form: the annotated group, one repeated group, then the element
      // (list) or the key and value (map), each carrying its own field id.
      const bool list = t.id() == TypeId::kList;
      for (const auto& child : t.fields()) {
        if (child.type->id() == TypeId::kUnknown)
          return NotSupported("parquet writer: column '" + f.name + "' (id " + std::to_string(f.id) + ") has a " +
                              (list ? "list element" : "map key or value") + " of type unknown, which has no Parquet column");
      }
      e.num_children = 1;
      e.converted_type = list ? converted::kList : converted::kMap;
      lt.kind = list ? LogicalType::kList : LogicalType::kMap;
      out->push_back(e);
      SchemaElement repeated;
      repeated.name = list ? "list" : "key_value";
      repeated.repetition_type = repetition::kRepeated;
      repeated.num_children = static_cast<int32_t>(t.fields().size());
      out->push_back(std::move(repeated));
      const char* list_names[] = {"element"};
      const char* map_names[] = {"key", "value"};
      for (size_t i = 0; i < t.fields().size(); ++i) {
        NestedField child = t.fields()[i];
        child.name = list ? list_names[0] : map_names[i];
        if (!list && i == 0) child.required = true;  // map keys are never null
        auto st = AppendField(child, out);
        if (!st) return std::unexpected(st.error().WithContext("in " + std::string(list ? "list" : "map") + " '" + f.name + "'"));
      }
      return Ok();
    }
    case TypeId::kVariant: {
      // Unshredded: a group annotated VARIANT of two required binaries, metadata and value.
      e.num_children = 2;
      lt.kind = LogicalType::kVariant;
      out->push_back(e);
      for (const char* part : {"metadata", "value"}) {
        SchemaElement c;
        c.name = part;
        c.type = physical::kByteArray;
        c.repetition_type = repetition::kRequired;
        out->push_back(std::move(c));
      }
      return Ok();
    }
    case TypeId::kUnknown: return Ok();  // always null: the spec writes no column for it
  }
  out->push_back(std::move(e));
  return Ok();
}

}  // namespace

Result<std::vector<SchemaElement>> ToParquetSchema(const Schema& schema) {
  std::vector<SchemaElement> out;
  SchemaElement root;
  root.name = "table";
  root.num_children = StoredFieldCount(schema.fields());
  out.push_back(root);
  for (const auto& f : schema.fields()) FLOE_RETURN_IF_ERROR(AppendField(f, &out));
  return out;
}

}  // namespace floe::parquet
