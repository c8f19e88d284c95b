#include "types/schema_text.h"

#include <cctype>

#include "util/strings.h"

namespace floe {

Result<Schema> ParseSchemaText(std::string_view text) {
  std::vector<std::string> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      parts.push_back(Trim(text.substr(start, i - start)));
      start = i + 1;
    } else if (text[i] == '(' || text[i] == '[') {
      ++depth;
    } else if (text[i] == ')' || text[i] == ']') {
      --depth;
    }
  }
  std::vector<NestedField> fields;
  int next_id = 1;
  for (const auto& part : parts) {
    if (part.empty()) return InvalidArgument("schema '" + std::string(text) + "' has an empty column definition");
    size_t space = part.find_first_of(" \t");
    if (space == std::string::npos)
      return InvalidArgument("column '" + part + "' has no type (expected 'name type', e.g. 'order_id long')");
    std::string name = part.substr(0, space);
    std::string rest = Trim(part.substr(space));
    bool required = false;
    std::string lower = AsciiLower(rest);
    for (std::string suffix : {" not null", " required"}) {
      if (lower.size() > suffix.size() && lower.ends_with(suffix)) {
        required = true;
        rest = Trim(rest.substr(0, rest.size() - suffix.size()));
        break;
      }
    }
    auto type = Type::ParsePrimitive(rest);
    if (!type) return InvalidArgument("column '" + name + "': " + type.error().message);
    for (const auto& f : fields)
      if (AsciiLower(f.name) == AsciiLower(name)) return InvalidArgument("column '" + name + "' appears twice in the schema");
    fields.push_back(NestedField{next_id++, name, *type, required, ""});
  }
  Schema schema(0, std::move(fields));
  FLOE_RETURN_IF_ERROR(schema.Validate());
  return schema;
}

std::string SchemaToText(const Schema& schema) {
  std::string out;
  for (const auto& f : schema.fields()) {
    if (!out.empty()) out += ", ";
    out += f.name + " " + f.type->ToString() + (f.required ? " not null" : "");
  }
  return out;
}

}  // namespace floe
