#include "write/column_conform.h"

namespace floe {

Column NullColumn(const TypePtr& type, size_t rows) {
  Column c(type);
  if (type->is_primitive()) {
    c.Reserve(rows);
    for (size_t r = 0; r < rows; ++r) c.AppendNull();
    return c;
  }
  c.children.clear();
  for (const auto& f : type->fields())
    c.children.push_back(type->id() == TypeId::kStruct ? NullColumn(f.type, rows) : NullColumn(f.type, 0));
  if (type->id() != TypeId::kStruct) c.offsets.assign(rows + 1, 0);
  c.nulls.assign(rows, 1);
  c.length = rows;
  return c;
}

Result<Column> ConformColumn(const Column& source, const TypePtr& target, const std::string& name) {
  if (source.type && source.type->Equals(*target)) return source;
  if (target->is_primitive()) {
    if (!source.type || source.type->is_nested())
      return InvalidArgument("column '" + name + "' holds " + (source.type ? source.type->ToString() : "?") +
                             " values; the table has " + target->ToString());
    Column converted(target);
    converted.Reserve(source.length);
    for (size_t r = 0; r < source.length; ++r) {
      auto st = converted.Append(source.Get(r));
      if (!st) return std::unexpected(st.error().WithContext("column '" + name + "'"));
    }
    return converted;
  }
  if (!source.type || source.type->id() != target->id())
    return InvalidArgument("column '" + name + "' holds " + (source.type ? source.type->ToString() : "?") +
                           " values; the table has " + target->ToString());
  if (!source.nulls.empty() && source.nulls.size() < source.length)
    return InvalidArgument("column '" + name + "' has too few null flags");
  Column out(target);
  out.children.clear();
  out.length = source.length;
  out.nulls = source.nulls;
  const auto& target_fields = target->fields();
  const auto& source_fields = source.type->fields();
  if (source.children.size() < source_fields.size())
    return InvalidArgument("column '" + name + "' lacks the children of its type");
  if (target->id() == TypeId::kStruct) {
    for (const NestedField& f : target_fields) {
      const std::string child_name = name + "." + f.name;
      size_t k = 0;
      while (k < source_fields.size() && source_fields[k].id != f.id) ++k;
      if (k == source_fields.size()) {
        if (f.required) return InvalidArgument("required field '" + child_name + "' is missing from the rows");
        out.children.push_back(NullColumn(f.type, source.length));
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(Column child, ConformColumn(source.children[k], f.type, child_name));
      out.children.push_back(std::move(child));
    }
    return out;
  }
  // List or map: the same entries, their columns converted.
  if (source.offsets.size() != source.length + 1)
    return InvalidArgument("column '" + name + "' has " + std::to_string(source.offsets.size()) +
                           " offsets for " + std::to_string(source.length) + " rows");
  out.offsets = source.offsets;
  for (size_t i = 0; i < target_fields.size(); ++i) {
    const std::string child_name = name + "." + (target->id() == TypeId::kList ? "element" : i == 0 ? "key" : "value");
    FLOE_ASSIGN_OR_RETURN(Column child, ConformColumn(source.children[i], target_fields[i].type, child_name));
    out.children.push_back(std::move(child));
  }
  return out;
}

}  // namespace floe
