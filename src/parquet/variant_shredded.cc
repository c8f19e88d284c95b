#include "parquet/variant_shredded.h"

#include "parquet/nested_assembly.h"
#include "types/variant.h"
#include "types/variant_builder.h"

namespace floe::parquet {
namespace {

// One (value, typed_value) pair of the layout: the variant itself, one shredded object field,
// or the elements of a shredded array.
struct Shred {
  std::string name;  // an object field's key ("" for the variant itself and array elements)
  std::string path;  // e.g. "typed_value.a." : the prefix of this pair's children, for messages
  const SchemaNode* value = nullptr;
  const SchemaNode* typed = nullptr;
  enum Kind { kNone, kPrimitive, kObject, kArray } kind = kNone;
  TypePtr type;      // a primitive typed_value's Iceberg type
  int int_bits = 32;  // the width an int typed_value had (8, 16 or 32)
  std::vector<Shred> fields;  // an object typed_value's fields; an array's one element pair
  // The pair's columns once read (nested_assembly.h), indexed by row at the top and in objects
  // there, by element inside an array.
  const Column* value_column = nullptr;
  const Column* typed_column = nullptr;
};

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
  if (t.element.repetition_type == repetition::kRepeated)
    return Corrupt(where + ": '" + typed_path + "' is repeated outside a LIST group");
  if (KindOf(t) == NodeKind::kList) {
    // A shredded array: a LIST whose element is a group of value and typed_value.
    auto shape = ListShapeOf(t);
    if (!shape) return Corrupt(where + ": '" + typed_path + "': " + shape.error().message);
    const SchemaNode& element = *shape->element;
    if (element.is_leaf() || shape->element == shape->repeated)
      return Corrupt(where + ": '" + typed_path + "' is a list whose element is not a group of value and typed_value");
    out->kind = Shred::kArray;
    Shred& e = out->fields.emplace_back();
    return Plan(element, typed_path + ".element.", where, false, &e);
  }
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
  if (t.children.empty()) return Corrupt(where + ": '" + typed_path + "' is a group without columns");
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

// The Iceberg type a pair's typed_value is read as: its primitive type, a struct of the
// object's field pairs, or a list of the element pair (fields matched by name).
TypePtr TypedType(const Shred& s);

TypePtr PairType(const Shred& s) {
  std::vector<NestedField> parts;
  if (s.value) parts.push_back(NestedField{0, "value", Type::Binary(), false, ""});
  if (s.typed) parts.push_back(NestedField{0, "typed_value", TypedType(s), false, ""});
  return Type::Struct(std::move(parts));
}

TypePtr TypedType(const Shred& s) {
  if (s.kind == Shred::kPrimitive) return s.type;
  std::vector<NestedField> fields;
  for (const auto& f : s.fields) fields.push_back(NestedField{0, f.name, PairType(f), false, ""});
  if (s.kind == Shred::kArray) return Type::List(NestedField{0, "element", fields[0].type, true, ""});
  return Type::Struct(std::move(fields));
}

// Points each pair at its columns: a pair struct's children are value then typed_value (those
// it has).
void Bind(Shred* s, const Column* value, const Column* typed) {
  s->value_column = value;
  s->typed_column = typed;
  if (typed == nullptr) return;
  for (size_t k = 0; k < s->fields.size(); ++k) {
    Shred& f = s->fields[k];
    const Column& pair = s->kind == Shred::kArray ? typed->children[0] : typed->children[k];
    const Column* v = f.value ? &pair.children[0] : nullptr;
    const Column* t = f.typed ? &pair.children[f.value ? 1 : 0] : nullptr;
    Bind(&f, v, t);
  }
}

// A variant array of these encoded elements.
std::string BuildVariantArray(const std::vector<std::string>& elements) {
  uint64_t total = 0;
  for (const auto& e : elements) total += e.size();
  const int offset_size = total <= 0xff ? 1 : total <= 0xffff ? 2 : total <= 0xffffff ? 3 : 4;
  const bool large = elements.size() > 255;
  std::string out;
  out.push_back(static_cast<char>(((large ? 1 : 0) << 2 | (offset_size - 1)) << 2 | 3));  // basic type 3: array
  auto put = [&](uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  };
  put(elements.size(), large ? 4 : 1);
  uint64_t at = 0;
  for (const auto& e : elements) put(at, offset_size), at += e.size();
  put(at, offset_size);
  for (const auto& e : elements) out += e;
  return out;
}

// The variant of this pair at `index` (a row, or an array element) into *out; false when it
// is missing (both columns null).
// `slot` names the row (or list value) being assembled, for messages.
Result<bool> Assemble(const Shred& s, size_t index, const std::string& where, const std::string& slot,
                      VariantMetadataBuilder* metadata, std::string* out) {
  auto fail = [&](const std::string& what) {
    const std::string at = s.path.empty() ? std::string("variant") : s.path.substr(0, s.path.size() - 1);
    return Corrupt(where + ", " + slot + ", '" + at + "': " + what);
  };
  const Column* value = s.value_column;
  const bool value_present = value && !value->IsNull(index);
  const bool typed_present = s.typed_column && !s.typed_column->IsNull(index);
  if (!typed_present) {
    if (!value_present) return false;
    *out = std::string(value->BytesAt(index));
    return true;
  }
  if (s.kind == Shred::kPrimitive) {
    if (value_present) return fail("both value and typed_value are set, which only an object may have");
    auto encoded = EncodeVariantPrimitive(s.typed_column->Get(index), s.int_bits);
    if (!encoded) return fail(encoded.error().message);
    *out = std::move(*encoded);
    return true;
  }
  if (s.kind == Shred::kArray) {
    if (value_present) return fail("both value and typed_value are set, which only an object may have");
    const Column& list = *s.typed_column;
    std::vector<std::string> elements;
    for (uint32_t j = list.offsets[index]; j < list.offsets[index + 1]; ++j) {
      std::string v;
      FLOE_ASSIGN_OR_RETURN(bool present, Assemble(s.fields[0], j, where, slot, metadata, &v));
      if (!present) {
        return fail("typed_value.element " + std::to_string(j - list.offsets[index]) +
                    " (an array element) is missing: its value and typed_value are both null");
      }
      elements.push_back(std::move(v));
    }
    *out = BuildVariantArray(elements);
    return true;
  }
  std::vector<VariantField> fields;
  for (const auto& field : s.fields) {
    std::string v;
    FLOE_ASSIGN_OR_RETURN(bool present, Assemble(field, index, where, slot, metadata, &v));
    if (present) fields.push_back(VariantField{metadata->KeyId(field.name), std::move(v)});
  }
  if (value_present) {
    auto rest = VariantObjectFields(value->BytesAt(index));
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

const SchemaNode* VariantMetadataNode(const SchemaNode& group) {
  for (const auto& c : group.children) {
    if (c.element.name == "metadata") return IsBinaryLeaf(c) ? &c : nullptr;
  }
  return nullptr;
}

Status AssembleVariants(const SchemaNode& group, const Column& metadata, const VariantPartReader& read,
                        const std::string& where, const std::string& unit, const TypePtr& variant_type, Column* out) {
  const size_t slots = metadata.length;
  Shred top;
  FLOE_RETURN_IF_ERROR(Plan(group, "", where, true, &top));
  const bool shredded = top.typed != nullptr;
  Column value_column(Type::Binary()), typed_column(shredded ? TypedType(top) : Type::Binary());
  if (top.value) FLOE_RETURN_IF_ERROR(read(*top.value, Type::Binary(), &value_column));
  if (top.typed) FLOE_RETURN_IF_ERROR(read(*top.typed, typed_column.type, &typed_column));
  for (const auto& [part, column] : {std::pair{top.value, &value_column}, std::pair{top.typed, &typed_column}}) {
    if (part && column->length != slots)
      return Corrupt(where + ": the variant's metadata and " + part->element.name + " columns disagree in count (" +
                     std::to_string(slots) + " and " + std::to_string(column->length) + ")");
  }
  Bind(&top, top.value ? &value_column : nullptr, top.typed ? &typed_column : nullptr);
  out->Reserve(out->length + slots);
  for (size_t r = 0; r < slots; ++r) {
    if (metadata.IsNull(r)) {
      out->AppendNull();
      continue;
    }
    const std::string slot = unit + " " + std::to_string(r);
    if (!shredded && value_column.IsNull(r)) return Corrupt(where + ", " + slot + ": the variant has metadata but no value");
    auto builder = VariantMetadataBuilder::FromMetadata(metadata.BytesAt(r));
    if (!builder) return Corrupt(where + ", " + slot + ": " + builder.error().message);
    std::string value;
    FLOE_ASSIGN_OR_RETURN(bool present, Assemble(top, r, where, slot, &*builder, &value));
    if (!present) value = VariantNullValue();  // a variant that is there but holds nothing reads as null
    // An unshredded variant keeps its metadata bytes as written; a shredded one gets the keys
    // its typed object fields added.
    const std::string bytes = shredded ? builder->Finish() : std::string(metadata.BytesAt(r));
    auto text = VariantToJsonText(bytes, value);
    if (!text) return Corrupt(where + ", " + slot + ": " + text.error().message);
    FLOE_RETURN_IF_ERROR(out->Append(Literal(variant_type, PackVariant(bytes, value))));
  }
  return Ok();
}

Status ReadShreddedVariant(const SchemaNode& group, const NestedReadContext& nested, const std::string& where,
                           const VariantLeafLoader& load, const TypePtr& variant_type, Column* out,
                           std::vector<uint8_t>* def_levels) {
  const size_t rows = nested.rows;
  const SchemaNode* metadata_node = VariantMetadataNode(group);
  if (metadata_node == nullptr) return Corrupt(where + " lacks its binary 'metadata' column");
  Column metadata(Type::Binary());
  std::vector<uint8_t> levels;
  FLOE_RETURN_IF_ERROR(load(*metadata_node, Type::Binary(), &metadata, &levels));
  if (metadata.length < rows || levels.size() < rows)
    return Corrupt(where + ": column 'metadata' holds fewer values than the row group's " + std::to_string(rows) + " rows");
  metadata.length = rows;
  // value and typed_value, read as columns of the nested layout (fields matched by name).
  NestedReadContext by_name = nested;
  by_name.match_by_id = false;
  auto read = [&](const SchemaNode& part, const TypePtr& type, Column* column) {
    return ReadNestedField(by_name, {0, part.element.name, type, false, ""}, part, column);
  };
  FLOE_RETURN_IF_ERROR(AssembleVariants(group, metadata, read, where, "row", variant_type, out));
  if (def_levels) *def_levels = std::move(levels);
  return Ok();
}

}  // namespace floe::parquet
