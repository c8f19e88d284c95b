#include "write/text_rows.h"

#include <cctype>

#include <nlohmann/json.hpp>

#include "util/strings.h"

namespace floe {
namespace {

int FieldIndexByName(const Schema& schema, const std::string& name) {
  const auto& fields = schema.fields();
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i].name == name) return static_cast<int>(i);
  for (size_t i = 0; i < fields.size(); ++i)
    if (AsciiLower(fields[i].name) == AsciiLower(name)) return static_cast<int>(i);
  return -1;
}

Result<Literal> FromJsonValue(const nlohmann::json& v, const TypePtr& type) {
  if (v.is_null()) return Literal::Null(type);
  if (v.is_boolean()) return Literal::Boolean(v.get<bool>()).CastTo(type);
  if (v.is_number_integer()) return Literal::Long(v.get<int64_t>()).CastTo(type);
  if (v.is_number_float()) {
    if (type->id() == TypeId::kDecimal) return Literal::String(v.dump()).CastTo(type);
    return Literal::Double(v.get<double>()).CastTo(type);
  }
  if (v.is_string()) return Literal::String(v.get<std::string>()).CastTo(type);
  return InvalidArgument("cannot convert " + v.dump() + " to " + type->ToString());
}

}  // namespace

Result<TextFormat> TextFormatFor(const std::string& path, const std::string& format) {
  std::string f = AsciiLower(format);
  if (f.empty()) {
    std::string p = AsciiLower(path);
    if (p.ends_with(".csv")) return TextFormat::kCsv;
    if (p.ends_with(".jsonl") || p.ends_with(".ndjson") || p.ends_with(".json")) return TextFormat::kJsonLines;
    return InvalidArgument("cannot tell the format of '" + path + "' from its name; give --format csv|jsonl|parquet");
  }
  if (f == "csv") return TextFormat::kCsv;
  if (f == "jsonl" || f == "json" || f == "ndjson") return TextFormat::kJsonLines;
  return InvalidArgument("unknown input format '" + format + "' (csv, jsonl or parquet)");
}

Result<std::vector<std::string>> SplitCsvLine(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false, was_quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < line.size() && line[i + 1] == '"') {
          field.push_back('"');
          ++i;
        } else {
          quoted = false;
        }
      } else {
        field.push_back(c);
      }
    } else if (c == '"' && field.empty() && !was_quoted) {
      quoted = was_quoted = true;
    } else if (c == ',') {
      fields.push_back(std::move(field));
      field.clear();
      was_quoted = false;
    } else if (c == '\r' && i + 1 == line.size()) {
      // tolerate CRLF line ends
    } else {
      field.push_back(c);
    }
  }
  if (quoted) return InvalidArgument("unterminated quoted field");
  fields.push_back(std::move(field));
  return fields;
}

Result<std::unique_ptr<TextRowReader>> TextRowReader::Open(std::istream& in, TextFormat format, const Schema& schema,
                                                           std::string source_name) {
  std::unique_ptr<TextRowReader> reader(new TextRowReader(in, format, schema, std::move(source_name)));
  if (format == TextFormat::kCsv) FLOE_RETURN_IF_ERROR(reader->ReadHeader());
  return reader;
}

std::string TextRowReader::Where(const std::string& column) const {
  return source_ + " line " + std::to_string(line_) + (column.empty() ? "" : ", column '" + column + "'");
}

Status TextRowReader::ReadHeader() {
  std::string header;
  if (!std::getline(in_, header)) return InvalidArgument(source_ + ": empty CSV file (a header line is needed)");
  ++line_;
  auto names = SplitCsvLine(header);
  if (!names) return InvalidArgument(Where("") + ": " + names.error().message);
  std::vector<bool> seen(schema_.fields().size(), false);
  for (const auto& name : *names) {
    int index = FieldIndexByName(schema_, name);
    if (index < 0)
      return InvalidArgument(source_ + ": column '" + name + "' is not in the table's schema");
    if (seen[index]) return InvalidArgument(source_ + ": column '" + name + "' appears twice in the header");
    seen[index] = true;
    csv_field_of_column_.push_back(index);
  }
  for (size_t i = 0; i < seen.size(); ++i)
    if (!seen[i] && schema_.fields()[i].required)
      return InvalidArgument(source_ + ": required column '" + schema_.fields()[i].name + "' is missing from the header");
  return Ok();
}

Status TextRowReader::AppendCsvLine(const std::string& line, ColumnBatch* out) {
  auto values = SplitCsvLine(line);
  if (!values) return InvalidArgument(Where("") + ": " + values.error().message);
  if (values->size() != csv_field_of_column_.size())
    return InvalidArgument(Where("") + ": " + std::to_string(values->size()) + " fields, the header has " +
                           std::to_string(csv_field_of_column_.size()));
  std::vector<Literal> row;
  for (const auto& f : schema_.fields()) row.push_back(Literal::Null(f.type));
  for (size_t c = 0; c < values->size(); ++c) {
    const NestedField& field = schema_.fields()[csv_field_of_column_[c]];
    const std::string& text = (*values)[c];
    if (text.empty() && field.type->id() != TypeId::kString) continue;
    auto v = Literal::String(text).CastTo(field.type);
    if (!v) return InvalidArgument(Where(field.name) + ": " + v.error().message);
    row[csv_field_of_column_[c]] = std::move(*v);
  }
  auto st = out->AppendRow(row);
  if (!st) return InvalidArgument(Where("") + ": " + st.error().message);
  return Ok();
}

Status TextRowReader::AppendJsonLine(const std::string& line, ColumnBatch* out) {
  nlohmann::json obj = nlohmann::json::parse(line, nullptr, false);
  if (obj.is_discarded() || !obj.is_object()) return InvalidArgument(Where("") + ": not a JSON object");
  std::vector<Literal> row;
  for (const auto& f : schema_.fields()) row.push_back(Literal::Null(f.type));
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    int index = FieldIndexByName(schema_, it.key());
    if (index < 0) return InvalidArgument(Where("") + ": field '" + it.key() + "' is not in the table's schema");
    const NestedField& field = schema_.fields()[index];
    auto v = FromJsonValue(it.value(), field.type);
    if (!v) return InvalidArgument(Where(field.name) + ": " + v.error().message);
    row[index] = std::move(*v);
  }
  auto st = out->AppendRow(row);
  if (!st) return InvalidArgument(Where("") + ": " + st.error().message);
  return Ok();
}

Result<bool> TextRowReader::Next(size_t max_rows, ColumnBatch* out) {
  *out = ColumnBatch(schema_);
  std::string line;
  while (out->num_rows < max_rows && std::getline(in_, line)) {
    ++line_;
    if (line.empty() || (line.size() == 1 && line[0] == '\r')) continue;
    if (format_ == TextFormat::kCsv) {
      FLOE_RETURN_IF_ERROR(AppendCsvLine(line, out));
    } else {
      FLOE_RETURN_IF_ERROR(AppendJsonLine(line, out));
    }
  }
  if (in_.bad()) return IOError(source_ + ": read error");
  return out->num_rows > 0;
}

namespace {

// The narrowest of long < double < string (and boolean, date, timestamp) that holds every value.
struct ColumnGuess {
  std::string name;
  bool any = false, is_long = true, is_double = true, is_bool = true, is_date = true, is_timestamp = true;
  void See(const std::string& text) {
    if (text.empty()) return;
    any = true;
    is_long = is_long && Literal::String(text).CastTo(Type::Long()).has_value();
    is_double = is_double && Literal::String(text).CastTo(Type::Double()).has_value();
    std::string l = AsciiLower(text);
    is_bool = is_bool && (l == "true" || l == "false");
    is_date = is_date && Literal::String(text).CastTo(Type::Date()).has_value();
    is_timestamp = is_timestamp && text.size() > 10 && Literal::String(text).CastTo(Type::Timestamp()).has_value();
  }
  TypePtr Guess() const {
    if (!any) return Type::String();
    if (is_bool) return Type::Boolean();
    if (is_long) return Type::Long();
    if (is_double) return Type::Double();
    if (is_date) return Type::Date();
    if (is_timestamp) return Type::Timestamp();
    return Type::String();
  }
};

}  // namespace

Result<Schema> InferSchema(std::istream& in, TextFormat format, const std::string& source_name, size_t sample_rows) {
  std::vector<ColumnGuess> guesses;
  std::string line;
  int64_t line_no = 0;
  auto guess_for = [&](const std::string& name) -> ColumnGuess& {
    for (auto& g : guesses)
      if (g.name == name) return g;
    guesses.push_back(ColumnGuess{name});
    return guesses.back();
  };
  if (format == TextFormat::kCsv) {
    if (!std::getline(in, line)) return InvalidArgument(source_name + ": empty CSV file (a header line is needed)");
    ++line_no;
    FLOE_ASSIGN_OR_RETURN(auto names, SplitCsvLine(line));
    for (const auto& n : names) guess_for(n);
    while (line_no <= static_cast<int64_t>(sample_rows) && std::getline(in, line)) {
      ++line_no;
      if (line.empty()) continue;
      auto values = SplitCsvLine(line);
      if (!values || values->size() != guesses.size())
        return InvalidArgument(source_name + " line " + std::to_string(line_no) + ": does not match the header");
      for (size_t i = 0; i < values->size(); ++i) guesses[i].See((*values)[i]);
    }
  } else {
    while (line_no < static_cast<int64_t>(sample_rows) && std::getline(in, line)) {
      ++line_no;
      if (line.empty()) continue;
      nlohmann::json obj = nlohmann::json::parse(line, nullptr, false);
      if (obj.is_discarded() || !obj.is_object())
        return InvalidArgument(source_name + " line " + std::to_string(line_no) + ": not a JSON object");
      for (auto it = obj.begin(); it != obj.end(); ++it) {
        ColumnGuess& g = guess_for(it.key());
        if (it.value().is_null()) continue;
        g.See(it.value().is_string() ? it.value().get<std::string>() : it.value().dump());
      }
    }
  }
  if (guesses.empty()) return InvalidArgument(source_name + ": no columns found");
  std::vector<NestedField> fields;
  int id = 1;
  for (const auto& g : guesses) fields.push_back(NestedField{id++, g.name, g.Guess(), false, ""});
  return Schema(0, std::move(fields));
}

}  // namespace floe
