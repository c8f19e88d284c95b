#include "parquet/nested_assembly.h"

#include <map>
#include <memory>

#include "parquet/batch_append.h"
#include "parquet/variant_shredded.h"
#include "types/field_defaults.h"

namespace floe::parquet {

namespace {

bool IsBytesType(TypeId id) {
  return id == TypeId::kString || id == TypeId::kBinary || id == TypeId::kFixed || id == TypeId::kUuid ||
         id == TypeId::kVariant || id == TypeId::kGeometry || id == TypeId::kGeography;
}

// Gives a fresh column of a nested type its layout: a list's or map's first offset and
// children, a struct's children.
void PrepareNested(Column* c) {
  switch (c->type->id()) {
    case TypeId::kList:
    case TypeId::kMap:
      if (c->offsets.empty()) c->offsets.push_back(0);
      if (c->children.size() != c->type->fields().size()) {
        c->children.clear();
        for (const auto& f : c->type->fields()) c->children.emplace_back(f.type);
      }
      break;
    case TypeId::kStruct:
      if (c->children.size() != c->type->fields().size()) {
        c->children.clear();
        for (const auto& f : c->type->fields()) c->children.emplace_back(f.type);
      }
      break;
    default:
      if (IsBytesType(c->type->id()) && c->offsets.empty()) c->offsets.push_back(0);
      break;
  }
}

// The rows of one nested value's column being rebuilt, read from the leaves under it.
class Assembler {
 public:
  explicit Assembler(const NestedReadContext& ctx) : ctx_(ctx) {}

  // Appends to *out the rows of `type` held by `node` in the context (rep, def): one per
  // entry of a leaf under node with repetition level <= rep and definition level >= def.
  // as_element: node is a list's repeated node read as its element.
  Status Build(const TypePtr& type, const SchemaNode& node, bool as_element, int rep, int def, Column* out,
               const std::string& path) {
    PrepareNested(out);
    NodeKind kind = KindOf(node, as_element);
    switch (type->id()) {
      case TypeId::kStruct:
        if (kind != NodeKind::kStruct) return Mismatch(path, "a struct", kind);
        return BuildStruct(type, node, rep, def, out, path);
      case TypeId::kList:
        if (kind != NodeKind::kList) return Mismatch(path, "a list", kind);
        return BuildList(type, node, as_element, rep, def, out, path);
      case TypeId::kMap:
        if (kind != NodeKind::kMap) return Mismatch(path, "a map", kind);
        return BuildMap(type, node, rep, def, out, path);
      case TypeId::kVariant:
        // Other engines may leave the group unannotated: then it reads as a struct.
        if (kind != NodeKind::kVariant && kind != NodeKind::kStruct) return Mismatch(path, "a variant", kind);
        return BuildVariant(type, node, rep, def, out, path);
      case TypeId::kUnknown: {
        FLOE_ASSIGN_OR_RETURN(const LeafEntries* e, Entries(FirstLeaf(node), nullptr, path));
        AppendNullRows(out, CountRows(*e, rep, def));
        return Ok();
      }
      default:
        if (kind != NodeKind::kPrimitive) return Mismatch(path, "a " + type->ToString(), kind);
        return BuildPrimitive(type, node, rep, def, out, path);
    }
  }

 private:
  Status Mismatch(const std::string& path, const std::string& want, NodeKind kind) const {
    static const char* kNames[] = {"a primitive", "a struct", "a list", "a map", "a variant"};
    return InvalidArgument(ctx_.where + ": column '" + path + "' is " + kNames[static_cast<int>(kind)] +
                           " in the file, not " + want);
  }

  static const SchemaNode& FirstLeaf(const SchemaNode& node) {
    const SchemaNode* n = &node;
    while (!n->is_leaf()) n = &n->children[0];  // FileSchema: a group has children, else it is a leaf
    return *n;
  }

  const SchemaNode* MatchChild(const SchemaNode& parent, const NestedField& f) const {
    for (const auto& c : parent.children)
      if (ctx_.match_by_id ? c.field_id() == f.id : c.element.name == f.name) return &c;
    return nullptr;
  }

  // A leaf under `node` (within `type`'s projection when it reaches one), for a nested
  // value's nulls and counts: a leaf whose values are read anyway when there is one.
  const SchemaNode& ShapeLeaf(const TypePtr& type, const SchemaNode& node, bool as_element) const {
    if (node.is_leaf()) return node;
    if (type->id() == TypeId::kVariant) {
      if (const SchemaNode* metadata = VariantMetadataNode(node)) return *metadata;  // set wherever the variant is
    }
    NodeKind kind = KindOf(node, as_element);
    if (kind == NodeKind::kStruct && type->id() == TypeId::kStruct) {
      for (const auto& f : type->fields())
        if (const SchemaNode* c = MatchChild(node, f)) return ShapeLeaf(f.type, *c, false);
    } else if (kind == NodeKind::kList && type->id() == TypeId::kList) {
      auto shape = ListShapeOf(node, as_element);
      if (shape) return ShapeLeaf(type->fields()[0].type, *shape->element, shape->element == shape->repeated);
    } else if (kind == NodeKind::kMap && type->id() == TypeId::kMap) {
      auto shape = MapShapeOf(node);
      if (shape) return ShapeLeaf(type->fields()[0].type, *shape->key, false);
    }
    return FirstLeaf(node);
  }

  // A leaf's entries, read as `type` (any type: nullptr, when only its levels are wanted).
  Result<const LeafEntries*> Entries(const SchemaNode& leaf, const TypePtr& type, const std::string& path) {
    auto it = cache_.find(leaf.leaf_index);
    if (it != cache_.end() && (type == nullptr || it->second.type->Equals(*type))) return &it->second.entries;
    TypePtr read_as = type;
    if (read_as == nullptr) {
      SchemaNode plain = leaf;  // its own type, as a lone primitive
      plain.element.repetition_type = repetition::kRequired;
      auto own = IcebergTypeOf(plain);
      read_as = own ? *own : Type::Binary();
    }
    Cached fresh;
    fresh.type = read_as;
    fresh.entries.values = Column(fresh.type);
    FLOE_RETURN_IF_ERROR(ctx_.load(leaf.leaf_index, fresh.type, &fresh.entries));
    LeafEntries& e = fresh.entries;
    if (leaf.rep_level == 0 && e.rep.empty()) e.rep.assign(e.def.size(), 0);  // not repeated: an entry per row
    const size_t n = e.rep.size();
    if (e.def.size() != n || e.values.length != n)
      return Corrupt(ctx_.where + ", column '" + path + "': the leaf's levels and values disagree in count");
    size_t rows = 0;
    for (size_t i = 0; i < n; ++i) rows += e.rep[i] == 0;
    if (rows != ctx_.rows)
      return Corrupt(ctx_.where + ", column '" + path + "': the leaf holds " + std::to_string(rows) + " rows, the row group " +
                     std::to_string(ctx_.rows));
    cache_[leaf.leaf_index] = std::move(fresh);
    return &cache_[leaf.leaf_index].entries;
  }

  static size_t CountRows(const LeafEntries& e, int rep, int def) {
    size_t rows = 0;
    for (size_t i = 0; i < e.rep.size(); ++i) rows += e.rep[i] <= rep && e.def[i] >= def;
    return rows;
  }

  Status BuildPrimitive(const TypePtr& type, const SchemaNode& node, int rep, int def, Column* out, const std::string& path) {
    FLOE_ASSIGN_OR_RETURN(const LeafEntries* e, Entries(node, type, path));
    const size_t n = e->rep.size();
    std::vector<uint8_t> sel(n);
    for (size_t i = 0; i < n; ++i) sel[i] = e->rep[i] <= rep && e->def[i] >= def;
    AppendSelected(e->values, 0, n, sel.data(), out);
    return Ok();
  }

  // One variant per entry starting a row: its metadata leaf gives the slots (null where the
  // variant is), variant_shredded.h assembles the value from the group's other parts, read at
  // the same levels (their fields matched by name: a shredded layout has no field ids).
  Status BuildVariant(const TypePtr& type, const SchemaNode& node, int rep, int def, Column* out, const std::string& path) {
    const std::string where = ctx_.where + ", column '" + path + "'";
    const SchemaNode* metadata_node = VariantMetadataNode(node);
    if (metadata_node == nullptr) return Corrupt(where + ": the variant group lacks its binary 'metadata' column");
    Column metadata(Type::Binary());
    FLOE_RETURN_IF_ERROR(BuildPrimitive(Type::Binary(), *metadata_node, rep, def, &metadata, path + ".metadata"));
    NestedReadContext by_name = ctx_;
    by_name.match_by_id = false;
    Assembler parts(by_name);
    auto read = [&](const SchemaNode& part, const TypePtr& part_type, Column* column) {
      return parts.Build(part_type, part, false, rep, def, column, path + "." + part.element.name);
    };
    return AssembleVariants(node, metadata, read, where, "value", type, out);
  }

  // One struct row per entry starting a row: null below the node's own definition level.
  Status BuildStruct(const TypePtr& type, const SchemaNode& node, int rep, int def, Column* out, const std::string& path) {
    FLOE_ASSIGN_OR_RETURN(const LeafEntries* e, Entries(ShapeLeaf(type, node, false), nullptr, path));
    const size_t base = out->length;
    bool any_null = false;
    std::vector<uint8_t> nulls;
    for (size_t i = 0; i < e->rep.size(); ++i) {
      if (e->rep[i] > rep || e->def[i] < def) continue;
      bool null = e->def[i] < node.def_level;
      nulls.push_back(null);
      any_null |= null;
    }
    const size_t rows = nulls.size();
    for (size_t k = 0; k < type->fields().size(); ++k) {
      const NestedField& f = type->fields()[k];
      Column& child = out->children[k];
      const std::string child_path = path + "." + f.name;
      const SchemaNode* c = MatchChild(node, f);
      if (c == nullptr) {
        FLOE_RETURN_IF_ERROR(AppendMissing(f, rows, &child, child_path));
      } else {
        FLOE_RETURN_IF_ERROR(Build(f.type, *c, false, rep, def, &child, child_path));
      }
      if (child.length != base + rows)
        return Corrupt(ctx_.where + ", column '" + child_path + "': its leaves disagree with the struct's rows");
    }
    if (any_null || !out->nulls.empty()) {
      out->nulls.resize(base, 0);
      out->nulls.insert(out->nulls.end(), nulls.begin(), nulls.end());
    }
    out->length = base + rows;
    return Ok();
  }

  Status AppendMissing(const NestedField& f, size_t rows, Column* out, const std::string& path) {
    auto initial = InitialDefault(f);
    if (!initial) return std::unexpected(initial.error().WithContext(ctx_.where + ", column '" + path + "'"));
    if (!*initial) {
      AppendNullRows(out, rows);
      return Ok();
    }
    for (size_t r = 0; r < rows; ++r) FLOE_RETURN_IF_ERROR(out->Append(**initial));
    return Ok();
  }

  // The offsets of a list or map: per row starting entry, the entries of the repeated node
  // (levels rrep, rdef) up to the next row. `present` is the definition level at which the
  // list itself is not null.
  Status Offsets(const LeafEntries& e, int rep, int def, int present, const SchemaNode& repeated, Column* out,
                 const std::string& path) {
    const int rrep = repeated.rep_level, rdef = repeated.def_level;
    if (rrep != rep + 1) return Corrupt(ctx_.where + ", column '" + path + "': repetition levels out of step with the nesting");
    const size_t base = out->length;
    std::vector<uint8_t> nulls;
    bool any_null = false;
    uint64_t count = out->offsets.back();
    bool in_row = false;        // the entries belong to a row of this column
    bool has_elements = false;  // that row is a list with elements (not null, not empty)
    for (size_t i = 0; i < e.rep.size(); ++i) {
      const int r = e.rep[i], d = e.def[i];
      if (r <= rep) {
        if (in_row) out->offsets.push_back(static_cast<uint32_t>(count));  // the previous row ends
        in_row = d >= def;  // else an enclosing value is null or empty: no row here
        if (!in_row) continue;
        bool null = d < present;
        nulls.push_back(null);
        any_null |= null;
        has_elements = d >= rdef;
        count += has_elements;
      } else if (r == rrep) {
        if (!in_row || !has_elements || d < rdef)
          return Corrupt(ctx_.where + ", column '" + path + "': an element continues a list that is null, empty or absent");
        ++count;
      }
      // Deeper levels continue an element: counted by the levels below.
      if (count > UINT32_MAX) return NotSupported(ctx_.where + ", column '" + path + "': more than 4 billion elements in a row group");
    }
    if (in_row) out->offsets.push_back(static_cast<uint32_t>(count));
    const size_t rows = nulls.size();
    if (out->offsets.size() != base + rows + 1)
      return Corrupt(ctx_.where + ", column '" + path + "': list offsets out of step with its rows");
    if (any_null || !out->nulls.empty()) {
      out->nulls.resize(base, 0);
      out->nulls.insert(out->nulls.end(), nulls.begin(), nulls.end());
    }
    out->length = base + rows;
    return Ok();
  }

  Status BuildList(const TypePtr& type, const SchemaNode& node, bool as_element, int rep, int def, Column* out,
                   const std::string& path) {
    auto shape = ListShapeOf(node, as_element);
    if (!shape) return std::unexpected(shape.error().WithContext(ctx_.where + ", column '" + path + "'"));
    const bool bare = shape->repeated == &node;  // a repeated field outside a LIST group: never null
    const bool self = shape->element == shape->repeated;
    const NestedField& element = type->fields()[0];
    FLOE_ASSIGN_OR_RETURN(const LeafEntries* e, Entries(ShapeLeaf(element.type, *shape->element, self), nullptr, path));
    FLOE_RETURN_IF_ERROR(Offsets(*e, rep, def, bare ? def : node.def_level, *shape->repeated, out, path));
    const SchemaNode& r = *shape->repeated;
    const std::string child_path = path + ".element";
    FLOE_RETURN_IF_ERROR(Build(element.type, *shape->element, self, r.rep_level, r.def_level, &out->children[0], child_path));
    if (out->children[0].length != out->offsets.back())
      return Corrupt(ctx_.where + ", column '" + child_path + "': its leaves disagree with the list's element count");
    return Ok();
  }

  Status BuildMap(const TypePtr& type, const SchemaNode& node, int rep, int def, Column* out, const std::string& path) {
    auto shape = MapShapeOf(node);
    if (!shape) return std::unexpected(shape.error().WithContext(ctx_.where + ", column '" + path + "'"));
    const NestedField& key = type->fields()[0];
    const NestedField& value = type->fields()[1];
    FLOE_ASSIGN_OR_RETURN(const LeafEntries* e, Entries(ShapeLeaf(key.type, *shape->key, false), nullptr, path));
    FLOE_RETURN_IF_ERROR(Offsets(*e, rep, def, node.def_level, *shape->repeated, out, path));
    const SchemaNode& r = *shape->repeated;
    FLOE_RETURN_IF_ERROR(Build(key.type, *shape->key, false, r.rep_level, r.def_level, &out->children[0], path + ".key"));
    FLOE_RETURN_IF_ERROR(Build(value.type, *shape->value, false, r.rep_level, r.def_level, &out->children[1], path + ".value"));
    const size_t pairs = out->offsets.back();
    if (out->children[0].length != pairs || out->children[1].length != pairs)
      return Corrupt(ctx_.where + ", column '" + path + "': its keys and values disagree with the map's entry count");
    if (out->children[0].null_count() != 0) return Corrupt(ctx_.where + ", column '" + path + "': a map key is null");
    return Ok();
  }

  struct Cached {
    TypePtr type;
    LeafEntries entries;
  };
  const NestedReadContext& ctx_;
  std::map<int, Cached> cache_;  // by leaf index
};

}  // namespace

bool HoldsRepeated(const Type& type) {
  if (type.id() == TypeId::kList || type.id() == TypeId::kMap) return true;
  if (type.id() != TypeId::kStruct) return false;
  for (const auto& f : type.fields())
    if (HoldsRepeated(*f.type)) return true;
  return false;
}

void AppendNullRows(Column* c, size_t n) {
  if (n == 0) return;
  PrepareNested(c);
  switch (c->type->id()) {
    case TypeId::kList:
    case TypeId::kMap:
      c->offsets.insert(c->offsets.end(), n, c->offsets.back());
      break;
    case TypeId::kStruct:
      for (auto& child : c->children) AppendNullRows(&child, n);
      break;
    default:
      for (size_t i = 0; i < n; ++i) c->AppendNull();
      return;
  }
  c->nulls.resize(c->length, 0);
  c->nulls.insert(c->nulls.end(), n, 1);
  c->length += n;
}

Status ReadNestedField(const NestedReadContext& ctx, const NestedField& field, const SchemaNode& node, Column* out) {
  Assembler assembler(ctx);
  FLOE_RETURN_IF_ERROR(assembler.Build(field.type, node, false, 0, 0, out, field.name));
  if (out->length != ctx.rows)
    return Corrupt(ctx.where + ", column '" + field.name + "': " + std::to_string(out->length) + " rows, the row group has " +
                   std::to_string(ctx.rows));
  return Ok();
}

}  // namespace floe::parquet
