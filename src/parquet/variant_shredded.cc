#include "parquet/variant_shredded.h"

#include <map>

#include "types/variant.h"
#include "types/variant_builder.h"

namespace floe::parquet {
namespace {

// One (value, typed_value) pair of the layout: the variant itself, or one shredded object field.
struct Shred {
  std::string name;  // an object field's key ("" for the variant itself)
  std::string path;  // e.g. "typed_value.a." : the prefix of this pair's children, for messages
  const SchemaNode* value = nullptr;
  const SchemaNode* typed = nullptr;
  enum Kind { kNone, kPrimitive, kObject } kind = kNone;
  TypePtr type;      // a primitive typed_value's Iceberg type
  int int_bits = 32;  // the width an int typed_value had (8, 16 or 32)
  std::vector<Shred> fields;  // an object typed_value's fields (a vector may hold its own incomplete type)
  const SchemaNode* typed_leaf = nullptr;             // a leaf under an object typed_value: its presence
};

const SchemaNode* FirstLeaf(const SchemaNode& n) {
  if (n.is_leaf()) return &n;
  return n.children.empty() ? nullptr : FirstLeaf(n.children.front());
}

bool IsBinaryLeaf(const SchemaNode& n) {
  return n.is_leaf() && n.element.type && *n.element.type == physical::kByteArray &&
         n.element.repetition_type.value_or(repetition::kRequired) != repetition::kRepeated;
}

int IntBits(const SchemaElement& e) {
  if (e.logical_type.kind == LogicalType::kInteger && (e.logical_type.bit_width == 8 || e.logical_type.bit_width == 16))
    return e.logical_type.bit_width;
  if (e.converted_type == converted::kInt8) return 8;
  if (e.converted_type == converted::kInt16) return 16;
  return 32;
}

// The primitive types a typed_value may have (the shredding spec's table of them).
bool ShreddablePrimitive(TypeId id) {
  switch (id) {
    case TypeId::kBoolean: case TypeId::kInt: case TypeId::kLong: case TypeId::kFloat: case TypeId::kDouble:
    case TypeId::kDecimal: case TypeId::kDate: case TypeId::kTime: case TypeId::kTimestamp: case TypeId::kTimestampTz:
    case TypeId::kTimestampNs: case TypeId::kTimestampTzNs: case TypeId::kString: case TypeId::kBinary: case TypeId::kUuid:
      return true;
    default: return false;
  }
}

Status Plan(const SchemaNode& group, const std::string& path, const std::string& where, bool top, Shred* out) {
  out->path = path;
  for (const auto& c : group.children) {
    const std::string& name = c.element.name;
    if (name == "value") {
      if (!IsBinaryLeaf(c)) return Corrupt(where + ": '" + path + "value' is not a binary column");
      out->value = &c;
    } else if (name == "typed_value") {
      out->typed = &c;
    } else if (!(top && name == "metadata")) {
      return Corrupt(where + ": '" + path + name + "' is not part of a shredded variant (value, typed_value)");
    }
  }
  if (out->value == nullptr && out->typed == nullptr)
    return Corrupt(where + ": '" + (path.empty() ? std::string("the group") : path) + "' has neither value nor typed_value");
  if (out->typed == nullptr) return Ok();
  const SchemaNode& t = *out->typed;
  const std::string typed_path = path + "typed_value";
  if (t.element.repetition_type == repetition::kRepeated || t.element.logical_type.kind == LogicalType::kList ||
      t.element.converted_type == converted::kList)
    return NotSupported(where + ": '" + typed_path + "' is a shredded array; floe does not read shredded arrays yet");
  if (t.is_leaf()) {
    auto type = IcebergTypeOf(t);
    if (!type) return Corrupt(where + ": '" + typed_path + "': " + type.error().message);
    if (!ShreddablePrimitive((*type)->id()))
      return Corrupt(where + ": '" + typed_path + "' is a " + (*type)->ToString() + ", which a variant cannot hold");
    out->kind = Shred::kPrimitive;
    out->type = *type;
    out->int_bits = IntBits(t.element);
    return Ok();
  }
  out->kind = Shred::kObject;
  out->typed_leaf = FirstLeaf(t);
  if (out->typed_leaf == nullptr) return Corrupt(where + ": '" + typed_path + "' is a group without columns");
  for (const auto& field : t.children) {
    const std::string field_path = typed_path + "." + field.element.name;
    if (field.is_leaf() || field.element.repetition_type == repetition::kRepeated)
      return Corrupt(where + ": '" + field_path + "' is not a group of value and typed_value");
    Shred& s = out->fields.emplace_back();
    s.name = field.element.name;
    FLOE_RETURN_IF_ERROR(Plan(field, field_path + ".", where, false, &s));
  }
  return Ok();
}

struct Leaf {
  Column column;
  std::vector<uint8_t> levels;
};
using Leaves = std::map<int, Leaf>;

Status LoadLeaf(const SchemaNode& node, const TypePtr& type, size_t rows, const std::string& where,
                const VariantLeafLoader& load, Leaves* leaves) {
  Leaf leaf{Column(type), {}};
  FLOE_RETURN_IF_ERROR(load(node, type, &leaf.column, &leaf.levels));
  if (leaf.column.length < rows || leaf.levels.size() < rows)
    return Corrupt(where + ": column '" + node.element.name + "' holds fewer values than the row group's " +
                   std::to_string(rows) + " rows");
  leaves->emplace(node.leaf_index, std::move(leaf));
  return Ok();
}

Status LoadAll(const Shred& s, size_t rows, const std::string& where, const VariantLeafLoader& load, Leaves* leaves) {
  if (s.value) FLOE_RETURN_IF_ERROR(LoadLeaf(*s.value, Type::Binary(), rows, where, load, leaves));
  if (s.kind == Shred::kPrimitive) FLOE_RETURN_IF_ERROR(LoadLeaf(*s.typed, s.type, rows, where, load, leaves));
  for (const auto& field : s.fields) FLOE_RETURN_IF_ERROR(LoadAll(field, rows, where, load, leaves));
  // An object's presence is read from one leaf under it; a primitive leaf there is loaded above,
  // a binary value leaf too, so the leaf is always among the loaded ones.
  return Ok();
}

// The row's variant of this pair into *out; false when it is missing (both columns null).
Result<bool> Assemble(const Shred& s, size_t row, const Leaves& leaves, const std::string& where,
                      VariantMetadataBuilder* metadata, std::string* out) {
  auto fail = [&](const std::string& what) {
    const std::string at = s.path.empty() ? std::string("variant") : s.path.substr(0, s.path.size() - 1);
    return Corrupt(where + ", row " + std::to_string(row) + ", '" + at + "': " + what);
  };
  const Column* value = s.value ? &leaves.at(s.value->leaf_index).column : nullptr;
  const bool value_present = value && !value->IsNull(row);
  bool typed_present = false;
  if (s.kind == Shred::kPrimitive) {
    typed_present = !leaves.at(s.typed->leaf_index).column.IsNull(row);
  } else if (s.kind == Shred::kObject) {
    typed_present = leaves.at(s.typed_leaf->leaf_index).levels[row] >= s.typed->def_level;
  }
  if (!typed_present) {
    if (!value_present) return false;
    *out = std::string(value->BytesAt(row));
    return true;
  }
  if (s.kind == Shred::kPrimitive) {
    if (value_present) return fail("both value and typed_value are set, which only an object may have");
    auto encoded = EncodeVariantPrimitive(leaves.at(s.typed->leaf_index).column.Get(row), s.int_bits);
    if (!encoded) return fail(encoded.error().message);
    *out = std::move(*encoded);
    return true;
  }
  std::vector<VariantField> fields;
  for (const auto& field : s.fields) {
    std::string v;
    FLOE_ASSIGN_OR_RETURN(bool present, Assemble(field, row, leaves, where, metadata, &v));
    if (present) fields.push_back(VariantField{metadata->KeyId(field.name), std::move(v)});
  }
  if (value_present) {
    auto rest = VariantObjectFields(value->BytesAt(row));
    if (!rest) return fail("value is " + rest.error().message + " while typed_value holds an object");
    for (auto& f : *rest) fields.push_back(std::move(f));
  }
  auto object = BuildVariantObject(std::move(fields), *metadata);
  if (!object) return fail(object.error().message);
  *out = std::move(*object);
  return true;
}

}  // namespace

bool IsShreddedVariant(const SchemaNode& group) {
  for (const auto& c : group.children) {
    if (c.element.name == "typed_value") return true;
  }
  return false;
}

Status ReadShreddedVariant(const SchemaNode& group, size_t rows, const std::string& where, const VariantLeafLoader& load,
                           const TypePtr& variant_type, Column* out, std::vector<uint8_t>* def_levels) {
  const SchemaNode* metadata_node = nullptr;
  for (const auto& c : group.children) {
    if (c.element.name == "metadata") metadata_node = &c;
  }
  if (metadata_node == nullptr || !IsBinaryLeaf(*metadata_node)) return Corrupt(where + " lacks its binary 'metadata' column");
  Shred top;
  FLOE_RETURN_IF_ERROR(Plan(group, "", where, true, &top));
  Leaves leaves;
  FLOE_RETURN_IF_ERROR(LoadLeaf(*metadata_node, Type::Binary(), rows, where, load, &leaves));
  FLOE_RETURN_IF_ERROR(LoadAll(top, rows, where, load, &leaves));
  const Leaf& metadata = leaves.at(metadata_node->leaf_index);
  out->Reserve(rows);
  for (size_t r = 0; r < rows; ++r) {
    if (metadata.column.IsNull(r)) {
      out->AppendNull();
      continue;
    }
    auto builder = VariantMetadataBuilder::FromMetadata(metadata.column.BytesAt(r));
    if (!builder) return Corrupt(where + ", row " + std::to_string(r) + ": " + builder.error().message);
    std::string value;
    FLOE_ASSIGN_OR_RETURN(bool present, Assemble(top, r, leaves, where, &*builder, &value));
    if (!present) value = VariantNullValue();  // a variant that is there but holds nothing reads as null
    const std::string bytes = builder->Finish();
    auto text = VariantToJsonText(bytes, value);
    if (!text) return Corrupt(where + ", row " + std::to_string(r) + ": " + text.error().message);
    FLOE_RETURN_IF_ERROR(out->Append(Literal(variant_type, PackVariant(bytes, value))));
  }
  if (def_levels) *def_levels = metadata.levels;
  return Ok();
}

}  // namespace floe::parquet
