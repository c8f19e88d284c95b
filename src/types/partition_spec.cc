#include "types/partition_spec.h"

#include <cctype>

#include "util/strings.h"

namespace floe {

bool PartitionSpec::is_unpartitioned() const {
  for (const auto& f : fields_)
    if (f.transform.kind() != TransformKind::kVoid) return false;
  return true;
}

std::string PartitionField::Describe() const {
  std::string out = transform.ToString() + "(";
  const std::vector<int> ids = source_ids.empty() ? std::vector<int>{source_id} : source_ids;
  for (size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + std::to_string(ids[i]);
  return out + ")";
}

Result<TypePtr> PartitionSpec::PartitionType(const Schema& schema) const {
  std::vector<NestedField> out;
  for (const auto& f : fields_) {
    const std::vector<int> ids = f.source_ids.empty() ? std::vector<int>{f.source_id} : f.source_ids;
    for (int id : ids) {
      if (!schema.FindField(id))
        return InvalidArgument("partition field '" + f.name + "' refers to source column id " + std::to_string(id) +
                               ", which is not in the schema");
    }
    const NestedField* source = schema.FindField(f.source_id);
    TypePtr type;
    if (f.evaluable()) {
      FLOE_ASSIGN_OR_RETURN(type, f.transform.ResultType(source->type));
    } else {
      // Never computed by floe: the type its values are read as. A known transform over several
      // sources gives what it gives the first (bucket an int, day a date); else a string, as
      // Iceberg Java types a transform it does not know.
      auto known = f.transform.ResultType(source->type);
      type = known ? *known : Type::String();
    }
    out.push_back(NestedField{f.field_id, f.name, type, false, ""});
  }
  return Type::Struct(std::move(out));
}

Status PartitionSpec::CheckWritable() const {
  for (const auto& f : fields_) {
    if (f.evaluable()) continue;
    return NotSupported("partition field '" + f.name + "' is " + f.Describe() + ", which floe cannot compute (" +
                        (f.transform.is_unknown() ? "an unknown transform" : "a transform of several columns") +
                        "): writes to a table with this partition spec are refused");
  }
  return Ok();
}

Status PartitionSpec::Validate(const Schema& schema) const {
  FLOE_ASSIGN_OR_RETURN(TypePtr type, PartitionType(schema));
  (void)type;
  for (size_t i = 0; i < fields_.size(); ++i)
    for (size_t j = i + 1; j < fields_.size(); ++j)
      if (fields_[i].name == fields_[j].name)
        return InvalidArgument("partition spec has two fields named '" + fields_[i].name + "'");
  return Ok();
}

Result<std::vector<Literal>> PartitionSpec::PartitionOf(const std::vector<Literal>& source_values) const {
  if (source_values.size() != fields_.size())
    return InvalidArgument("partition needs " + std::to_string(fields_.size()) + " source values");
  std::vector<Literal> out;
  out.reserve(fields_.size());
  for (size_t i = 0; i < fields_.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(Literal v, fields_[i].transform.Apply(source_values[i]));
    out.push_back(std::move(v));
  }
  return out;
}

bool PartitionSpec::CompatibleWith(const PartitionSpec& other) const {
  if (fields_.size() != other.fields_.size()) return false;
  for (size_t i = 0; i < fields_.size(); ++i) {
    const auto& a = fields_[i];
    const auto& b = other.fields_[i];
    if (a.source_id != b.source_id || a.source_ids != b.source_ids || a.field_id != b.field_id || a.name != b.name ||
        !(a.transform == b.transform))
      return false;
  }
  return true;
}

std::string PartitionSpec::ToString(const Schema& schema) const {
  std::string out;
  for (const auto& f : fields_) {
    if (!out.empty()) out += ", ";
    std::string column;
    for (int id : f.source_ids.empty() ? std::vector<int>{f.source_id} : f.source_ids) {
      std::string name = schema.FindColumnName(id);
      column += (column.empty() ? "" : ", ") + (name.empty() ? "<" + std::to_string(id) + ">" : name);
    }
    if (!f.evaluable()) {
      out += f.transform.ToString() + "(" + column + ")";
      continue;
    }
    switch (f.transform.kind()) {
      case TransformKind::kIdentity: out += column; break;
      case TransformKind::kBucket:
      case TransformKind::kTruncate:
        out += (f.transform.kind() == TransformKind::kBucket ? "bucket(" : "truncate(") +
               std::to_string(f.transform.param()) + ", " + column + ")";
        break;
      default: out += f.transform.ToString() + "(" + column + ")"; break;
    }
  }
  return out;
}

namespace {

// Splits on commas that are not inside parentheses.
std::vector<std::string> SplitTopLevel(std::string_view text) {
  std::vector<std::string> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      parts.push_back(Trim(text.substr(start, i - start)));
      start = i + 1;
    } else if (text[i] == '(') {
      ++depth;
    } else if (text[i] == ')') {
      --depth;
    }
  }
  return parts;
}

}  // namespace

Result<std::vector<PartitionField>> ParsePartitionFields(std::string_view text, const Schema& schema,
                                                         int next_field_id) {
  std::vector<PartitionField> fields;
  if (Trim(text).empty()) return fields;
  for (const std::string& part : SplitTopLevel(text)) {
    if (part.empty()) return InvalidArgument("empty partition field in '" + std::string(text) + "'");
    std::string function, column;
    int param = 0;
    size_t open = part.find('(');
    if (open == std::string::npos) {
      column = part;
      function = "identity";
    } else {
      if (part.back() != ')') return InvalidArgument("malformed partition field '" + part + "'");
      function = Trim(part.substr(0, open));
      std::vector<std::string> args = SplitTopLevel(std::string_view(part).substr(open + 1, part.size() - open - 2));
      if (args.size() == 2) {
        // bucket(16, id) and truncate(4, name); also accept bucket(id, 16).
        std::string* number = &args[0];
        std::string* name = &args[1];
        if (!std::isdigit(static_cast<unsigned char>(args[0].empty() ? 'x' : args[0][0]))) std::swap(number, name);
        try {
          param = std::stoi(*number);
        } catch (...) {
          return InvalidArgument("partition field '" + part + "': '" + *number + "' is not a number");
        }
        column = *name;
      } else if (args.size() == 1) {
        column = args[0];
      } else {
        return InvalidArgument("malformed partition field '" + part + "'");
      }
    }
    for (auto& c : function) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const NestedField* source = schema.FindField(column);
    if (!source) return InvalidArgument("partition field '" + part + "': no column named '" + column + "'");
    std::string transform_text = function;
    if (function == "bucket" || function == "truncate") {
      if (param <= 0) return InvalidArgument("partition field '" + part + "' needs a positive width");
      transform_text += "[" + std::to_string(param) + "]";
    }
    FLOE_ASSIGN_OR_RETURN(Transform transform, Transform::Parse(transform_text));
    if (!transform.CanTransform(*source->type))
      return InvalidArgument("partition field '" + part + "': " + transform.ToString() +
                             " cannot be applied to column '" + column + "' of type " + source->type->ToString());
    std::string name;
    switch (transform.kind()) {
      case TransformKind::kIdentity: name = column; break;
      case TransformKind::kBucket: name = column + "_bucket"; break;
      case TransformKind::kTruncate: name = column + "_trunc"; break;
      case TransformKind::kVoid: name = column + "_null"; break;
      default: name = column + "_" + transform.ToString(); break;
    }
    fields.push_back(PartitionField{source->id, next_field_id++, name, transform});
  }
  return fields;
}

}  // namespace floe
