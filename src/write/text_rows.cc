#include "write/text_rows.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "types/field_defaults.h"
#include "types/nested_json.h"
#include "write/json_type_guess.h"
#include "write/text_values.h"
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

Result<Literal> FromJsonValue(const nlohmann::json& v, const TypePtr& type, const std::string& column) {
  if (v.is_null()) return Literal::Null(type);
  // A variant takes the JSON value itself (an object, array, number or string); a CSV cell's
  // text is parsed as JSON by the cast instead.
  if (type->id() == TypeId::kVariant) return Literal::FromJson(type, v);
  // A struct, list or map takes its human JSON form (objects and arrays); errors name the place
  // inside the value.
  if (type->is_nested()) return LiteralFromCellJson(type, v, column);
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

Result<std::unique_ptr<TextRowReader>> TextRowReader::Open(std::istream& in, TextFormat format, const Schema& schema,
                                                           std::string source_name, TextReadOptions options) {
  std::unique_ptr<TextRowReader> reader(
      new TextRowReader(in, format, schema, std::move(source_name), std::move(options)));
  for (const auto& field : schema.fields()) {
    FLOE_ASSIGN_OR_RETURN(auto fill, WriteDefault(field));
    reader->write_defaults_.push_back(std::move(fill));
  }
  if (format == TextFormat::kCsv) FLOE_RETURN_IF_ERROR(reader->ReadHeader());
  return reader;
}

std::string TextRowReader::Where(const std::string& column) const {
  return source_ + " line " + std::to_string(line()) + (column.empty() ? "" : ", column '" + column + "'");
}

namespace {

std::string QuotedList(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "'" : ", '") + n + "'";
  return out;
}

std::string ColumnNames(const Schema& schema) {
  std::string out;
  for (const auto& f : schema.fields()) out += (out.empty() ? "" : ", ") + f.name;
  return out;
}

}  // namespace

Status TextRowReader::ReadHeader() {
  FLOE_ASSIGN_OR_RETURN(bool any, csv_.Next(&fields_));
  if (!any) return InvalidArgument(source_ + ": empty CSV file (a header line is needed)");
  csv_column_of_field_.assign(schema_.fields().size(), -1);
  std::vector<std::string> unknown, twice, missing;
  for (size_t c = 0; c < fields_.size(); ++c) {
    std::string name(fields_[c].text);
    int index = FieldIndexByName(schema_, name);
    if (index < 0) {
      unknown.push_back(name);
    } else if (csv_column_of_field_[index] >= 0) {
      twice.push_back(name);
    } else {
      csv_column_of_field_[index] = static_cast<int>(c);
    }
  }
  csv_header_size_ = fields_.size();
  for (size_t i = 0; i < schema_.fields().size(); ++i)
    if (csv_column_of_field_[i] < 0 && schema_.fields()[i].required && !write_defaults_[i])
      missing.push_back(schema_.fields()[i].name);
  std::string problems;
  auto add = [&](const std::vector<std::string>& names, const std::string& one, const std::string& many) {
    if (names.empty()) return;
    problems += (problems.empty() ? "" : "; ") + std::string(names.size() == 1 ? one : many) + " " + QuotedList(names);
  };
  add(unknown, "the header names a column the table does not have:", "the header names columns the table does not have:");
  add(twice, "the header names this column twice:", "the header names these columns twice:");
  add(missing, "the header lacks the required column", "the header lacks the required columns");
  if (!problems.empty())
    return InvalidArgument(source_ + ": " + problems + " (the table's columns, matched ignoring case: " +
                           ColumnNames(schema_) + ")");
  return Ok();
}

Status TextRowReader::AppendCsvRecord(ColumnBatch* out) {
  const auto& schema_fields = schema_.fields();
  for (size_t i = 0; i < schema_fields.size(); ++i) {
    Column& column = out->columns[i];
    const int c = csv_column_of_field_[i];
    if (c < 0 && write_defaults_[i]) {
      FLOE_RETURN_IF_ERROR(column.Append(*write_defaults_[i]));
      continue;
    }
    const CsvField* field = c >= 0 ? &fields_[c] : nullptr;
    bool is_null = !field || (!field->quoted && field->text == options_.null_string) ||
                   (field->text.empty() && column.type->id() != TypeId::kString);
    if (is_null) {
      if (schema_fields[i].required) return InvalidArgument(Where(schema_fields[i].name) + ": a required column is null");
      column.AppendNull();
      continue;
    }
    auto st = AppendTextValue(&column, field->text);
    if (!st) return InvalidArgument(Where(schema_fields[i].name) + ": " + st.error().message);
  }
  ++out->num_rows;
  return Ok();
}

Status TextRowReader::AppendJsonLine(const std::string& line, ColumnBatch* out) {
  nlohmann::json obj = nlohmann::json::parse(line, nullptr, false);
  if (obj.is_discarded() || !obj.is_object()) return InvalidArgument(Where("") + ": not a JSON object");
  std::vector<Literal> row;
  // A key the line leaves out holds the field's write-default, else null.
  for (size_t i = 0; i < schema_.fields().size(); ++i)
    row.push_back(write_defaults_[i] ? *write_defaults_[i] : Literal::Null(schema_.fields()[i].type));
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    int index = FieldIndexByName(schema_, it.key());
    if (index < 0) return InvalidArgument(Where("") + ": field '" + it.key() + "' is not in the table's schema");
    const NestedField& field = schema_.fields()[index];
    auto v = FromJsonValue(it.value(), field.type, field.name);
    if (!v) return InvalidArgument(Where(field.name) + ": " + v.error().message);
    row[index] = std::move(*v);
  }
  auto st = out->AppendRow(row);
  if (!st) return InvalidArgument(Where("") + ": " + st.error().message);
  return Ok();
}

Result<bool> TextRowReader::Next(size_t max_rows, ColumnBatch* out) {
  *out = ColumnBatch(schema_);
  if (format_ == TextFormat::kCsv) {
    for (auto& column : out->columns) column.Reserve(max_rows);
    while (out->num_rows < max_rows) {
      FLOE_ASSIGN_OR_RETURN(bool more, csv_.Next(&fields_));
      if (!more) break;
      if (fields_.size() != csv_header_size_)
        return InvalidArgument(Where("") + ": " + std::to_string(fields_.size()) + " fields, the header has " +
                               std::to_string(csv_header_size_));
      FLOE_RETURN_IF_ERROR(AppendCsvRecord(out));
    }
    return out->num_rows > 0;
  }
  std::string line;
  while (out->num_rows < max_rows && std::getline(in_, line)) {
    ++line_;
    if (line.empty() || (line.size() == 1 && line[0] == '\r')) continue;
    FLOE_RETURN_IF_ERROR(AppendJsonLine(line, out));
  }
  if (in_.bad()) return IOError(source_ + ": read error");
  return out->num_rows > 0;
}

Result<Schema> InferSchema(std::istream& in, TextFormat format, const std::string& source_name, size_t sample_rows) {
  if (format == TextFormat::kJsonLines) {
    JsonTypeGuess row;
    std::string line;
    int64_t line_no = 0;
    bool any = false;
    while (line_no < static_cast<int64_t>(sample_rows) && std::getline(in, line)) {
      ++line_no;
      if (line.empty() || (line.size() == 1 && line[0] == '\r')) continue;
      // Ordered: the columns and struct fields come in the order the file first names them.
      nlohmann::ordered_json obj = nlohmann::ordered_json::parse(line, nullptr, false);
      const std::string where = source_name + " line " + std::to_string(line_no);
      if (obj.is_discarded() || !obj.is_object()) return InvalidArgument(where + ": not a JSON object");
      any = any || !obj.empty();
      FLOE_RETURN_IF_ERROR(row.See(obj, "", where));
    }
    if (!any) return InvalidArgument(source_name + ": no columns found");
    FLOE_ASSIGN_OR_RETURN(std::vector<NestedField> fields, row.Columns());
    return Schema(0, std::move(fields));
  }
  CsvRecordReader records(in, source_name);
  std::vector<CsvField> fields;
  FLOE_ASSIGN_OR_RETURN(bool any, records.Next(&fields));
  if (!any) return InvalidArgument(source_name + ": empty CSV file (a header line is needed)");
  std::vector<std::string> names;
  for (const auto& f : fields) names.emplace_back(f.text);
  std::vector<ScalarGuess> guesses(names.size());
  for (size_t rows = 0; rows < sample_rows; ++rows) {
    FLOE_ASSIGN_OR_RETURN(bool more, records.Next(&fields));
    if (!more) break;
    if (fields.size() != guesses.size())
      return InvalidArgument(source_name + " line " + std::to_string(records.record_line()) +
                             ": does not match the header");
    for (size_t i = 0; i < fields.size(); ++i) guesses[i].See(std::string(fields[i].text));
  }
  if (names.empty()) return InvalidArgument(source_name + ": no columns found");
  std::vector<NestedField> columns;
  int id = 1;
  for (size_t i = 0; i < names.size(); ++i) columns.push_back(NestedField{id++, names[i], guesses[i].Guess(), false, ""});
  return Schema(0, std::move(columns));
}

}  // namespace floe
