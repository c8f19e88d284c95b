#include "types/schema_text.h"

#include <cctype>

#include "util/strings.h"

namespace floe {
namespace {

// Deeper nesting than this is refused (a hostile text must not exhaust the stack).
constexpr int kMaxDepth = 64;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
// Characters that end a bare field name.
bool EndsName(char c) {
  return IsSpace(c) || c == ',' || c == ':' || c == '<' || c == '>' || c == '(' || c == ')' || c == '[' ||
         c == ']' || c == '`';
}

// A recursive-descent reader of the schema text. Ids are placeholders (0) until AssignFreshIds.
class TypeTextParser {
 public:
  explicit TypeTextParser(std::string_view text) : text_(text) {}

  Result<std::vector<NestedField>> ParseFields(bool top_level, const std::string& path, int depth) {
    std::vector<NestedField> fields;
    while (true) {
      SkipSpace();
      size_t field_start = pos_;
      FLOE_ASSIGN_OR_RETURN(std::string name, Name(path));
      std::string field_path = path.empty() ? name : path + "." + name;
      SkipSpace();
      if (Peek() == ':') {
        ++pos_;
        SkipSpace();
      }
      if (AtEnd() || Peek() == ',' || Peek() == '>')
        return Fail(field_path, "has no type (expected 'name type', e.g. 'order_id long')");
      FLOE_ASSIGN_OR_RETURN(TypePtr type, ParseType(field_path, depth));
      bool required = Required();
      for (const auto& f : fields)
        if (AsciiLower(f.name) == AsciiLower(name))
          return FailAt(field_path, field_start,
                        top_level ? "appears twice in the schema" : "appears twice in the struct");
      fields.push_back(NestedField{0, name, type, required, ""});
      SkipSpace();
      if (Peek() != ',') break;
      ++pos_;
    }
    return fields;
  }

  Result<TypePtr> ParseType(const std::string& path, int depth) {
    if (depth > kMaxDepth) return Fail(path, "nests deeper than " + std::to_string(kMaxDepth) + " levels");
    SkipSpace();
    const size_t start = pos_;
    while (!AtEnd() && IsWordChar(Peek())) ++pos_;
    if (pos_ == start) return Fail(path, "expected a type");
    const std::string word = AsciiLower(text_.substr(start, pos_ - start));
    SkipSpace();
    if (word == "list" || word == "array" || word == "map" || word == "struct") {
      if (Peek() != '<') return Fail(path, word + " needs its types in <...>, e.g. " + Example(word));
      const size_t open = pos_++;
      TypePtr result;
      if (word == "struct") {
        SkipSpace();
        if (Peek() == '>') return Fail(path, "struct<> needs at least one field, e.g. " + Example(word));
        FLOE_ASSIGN_OR_RETURN(auto fields, ParseFields(false, path, depth + 1));
        result = Type::Struct(std::move(fields));
      } else if (word == "map") {
        SkipSpace();
        if (Peek() == '>' || Peek() == ',') return Fail(path, "map<> needs a key and a value type, e.g. " + Example(word));
        FLOE_ASSIGN_OR_RETURN(TypePtr key, ParseType(path + ".key", depth + 1));
        Required();  // keys are always required; "not null" there is allowed and changes nothing
        SkipSpace();
        if (Peek() != ',') return Fail(path, "map<...> needs a key and a value type, e.g. " + Example(word));
        ++pos_;
        FLOE_ASSIGN_OR_RETURN(TypePtr value, ParseType(path + ".value", depth + 1));
        bool value_required = Required();
        result = Type::Map(NestedField{0, "key", key, true, ""}, NestedField{0, "value", value, value_required, ""});
      } else {
        SkipSpace();
        if (Peek() == '>') return Fail(path, word + "<> needs an element type, e.g. " + Example(word));
        FLOE_ASSIGN_OR_RETURN(TypePtr element, ParseType(path + ".element", depth + 1));
        bool element_required = Required();
        result = Type::List(NestedField{0, "element", element, element_required, ""});
      }
      SkipSpace();
      if (Peek() != '>') {
        if (AtEnd()) return FailAt(path, open, "'" + word + "<' is never closed with '>'");
        return Fail(path, "expected '>' to close '" + word + "<' (opened at position " + std::to_string(open + 1) + ")");
      }
      ++pos_;
      return result;
    }
    // A primitive: its name and, for decimal, fixed, geometry and geography, the bracketed part.
    if (Peek() == '(' || Peek() == '[') {
      const char close = Peek() == '(' ? ')' : ']';
      const size_t open = pos_;
      while (!AtEnd() && Peek() != close) ++pos_;
      if (AtEnd()) return FailAt(path, open, "'" + std::string(1, text_[open]) + "' is never closed");
      ++pos_;
    }
    std::string_view primitive = text_.substr(start, pos_ - start);
    auto parsed = Type::ParsePrimitive(primitive);
    if (!parsed) return FailAt(path, start, parsed.error().message);
    return parsed;
  }

  // "not null" or "required" after a type; true when present (and consumed).
  bool Required() {
    SkipSpace();
    const size_t start = pos_;
    auto keyword = [&](std::string_view word) {
      if (text_.size() - pos_ < word.size() || AsciiLower(text_.substr(pos_, word.size())) != word) return false;
      size_t end = pos_ + word.size();
      if (end < text_.size() && IsWordChar(text_[end])) return false;
      pos_ = end;
      return true;
    };
    if (keyword("required")) return true;
    if (keyword("not")) {
      SkipSpace();
      if (keyword("null")) return true;
    }
    pos_ = start;
    return false;
  }

  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  size_t pos() const { return pos_; }
  void SkipSpace() {
    while (!AtEnd() && IsSpace(Peek())) ++pos_;
  }

  std::unexpected<Error> Fail(const std::string& path, const std::string& message) const {
    return FailAt(path, pos_, message);
  }
  std::unexpected<Error> FailAt(const std::string& path, size_t at, const std::string& message) const {
    std::string where = at >= text_.size() ? "at the end of the schema text"
                                           : "at position " + std::to_string(at + 1) + " of the schema text";
    return InvalidArgument((path.empty() ? std::string("schema text") : "column '" + path + "'") + ": " + message +
                           " (" + where + ")");
  }

 private:
  // A bare name (up to a space or one of , : < > ( ) [ ] `) or a `quoted` one.
  Result<std::string> Name(const std::string& path) {
    std::string name;
    if (Peek() == '`') {
      const size_t open = pos_++;
      while (true) {
        if (AtEnd()) return FailAt(path, open, "a name opened with ` is never closed");
        if (Peek() == '`') {
          if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '`') {
            name.push_back('`');
            pos_ += 2;
            continue;
          }
          ++pos_;
          break;
        }
        name.push_back(text_[pos_++]);
      }
      if (name.empty()) return FailAt(path, open, "a field name cannot be empty");
      return name;
    }
    const size_t start = pos_;
    while (!AtEnd() && !EndsName(Peek())) ++pos_;
    if (pos_ == start) {
      if (AtEnd() || Peek() == ',' || Peek() == '>')
        return Fail(path, path.empty() ? "a column definition is empty" : "a field definition is empty");
      return Fail(path, std::string("expected a field name, found '") + Peek() + "'");
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  static std::string Example(const std::string& word) {
    if (word == "map") return "map<string, int>";
    if (word == "struct") return "struct<street: string, zip int not null>";
    return word + "<string>";
  }

  std::string_view text_;
  size_t pos_ = 0;
};

void AssignFieldIds(std::vector<NestedField>& fields, int* last_id) {
  for (auto& f : fields) f.id = ++*last_id;
  for (auto& f : fields) f.type = AssignFreshIds(f.type, last_id);
}

bool NeedsQuotes(std::string_view name) {
  if (name.empty()) return true;
  for (char c : name)
    if (EndsName(c)) return true;
  return false;
}

std::string NameText(std::string_view name) {
  if (!NeedsQuotes(name)) return std::string(name);
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out.push_back('`');
    out.push_back(c);
  }
  return out + "`";
}

std::string NullText(bool required) { return required ? " not null" : ""; }

}  // namespace

TypePtr AssignFreshIds(const TypePtr& type, int* last_id) {
  if (type->is_primitive()) return type;
  std::vector<NestedField> fields = type->fields();
  switch (type->id()) {
    case TypeId::kStruct: AssignFieldIds(fields, last_id); return Type::Struct(std::move(fields));
    case TypeId::kList:
      AssignFieldIds(fields, last_id);
      return Type::List(std::move(fields[0]));
    default:
      AssignFieldIds(fields, last_id);
      return Type::Map(std::move(fields[0]), std::move(fields[1]));
  }
}

Result<Schema> ParseSchemaText(std::string_view text) {
  TypeTextParser parser(text);
  FLOE_ASSIGN_OR_RETURN(std::vector<NestedField> fields, parser.ParseFields(true, "", 0));
  parser.SkipSpace();
  if (!parser.AtEnd())
    return parser.Fail("", std::string("unexpected '") + parser.Peek() + "' after a column definition");
  int last_id = 0;
  AssignFieldIds(fields, &last_id);
  Schema schema(0, std::move(fields));
  FLOE_RETURN_IF_ERROR(schema.Validate());
  return schema;
}

Result<TypePtr> ParseTypeText(std::string_view text) {
  TypeTextParser parser(text);
  FLOE_ASSIGN_OR_RETURN(TypePtr type, parser.ParseType("", 0));
  parser.SkipSpace();
  if (!parser.AtEnd()) return parser.Fail("", std::string("unexpected '") + parser.Peek() + "' after the type");
  int last_id = 0;
  return AssignFreshIds(type, &last_id);
}

std::string TypeToText(const Type& type) {
  const auto& fields = type.fields();
  switch (type.id()) {
    case TypeId::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < fields.size(); ++i) {
        if (i) out += ", ";
        out += NameText(fields[i].name) + ": " + TypeToText(*fields[i].type) + NullText(fields[i].required);
      }
      return out + ">";
    }
    case TypeId::kList: return "list<" + TypeToText(*fields[0].type) + NullText(fields[0].required) + ">";
    case TypeId::kMap:
      return "map<" + TypeToText(*fields[0].type) + ", " + TypeToText(*fields[1].type) + NullText(fields[1].required) +
             ">";
    default: return type.ToString();  // a primitive
  }
}

std::string SchemaToText(const Schema& schema) {
  std::string out;
  for (const auto& f : schema.fields()) {
    if (!out.empty()) out += ", ";
    out += NameText(f.name) + " " + TypeToText(*f.type) + NullText(f.required);
  }
  return out;
}

}  // namespace floe
