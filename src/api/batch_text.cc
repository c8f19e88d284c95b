#include "api/batch_text.h"

#include <algorithm>
#include <charconv>

#include <nlohmann/json.hpp>

#include "types/nested_json.h"
#include "types/value_text.h"
#include "util/utf8.h"

namespace floe {

void AppendCsvField(std::string_view s, std::string* out) {
  if (!s.empty() && s.find_first_of(",\"\n\r") == std::string_view::npos) {
    out->append(s);
    return;
  }
  out->push_back('"');
  for (char c : s) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

namespace {

// A date, time, timestamp or decimal value as Literal::ToJson's string gives it (value_text.h).
void AppendTemporalOrDecimal(const Column& c, size_t row, std::string* out) {
  switch (c.type->id()) {
    case TypeId::kDate: AppendDate(c.ints[row], out); return;
    case TypeId::kTime: AppendTimeOfDay(c.longs[row], 1000000, out); return;
    case TypeId::kTimestamp: AppendTimestamp(c.longs[row], 1000000, false, out); return;
    case TypeId::kTimestampTz: AppendTimestamp(c.longs[row], 1000000, true, out); return;
    case TypeId::kTimestampNs: AppendTimestamp(c.longs[row], 1000000000, false, out); return;
    case TypeId::kTimestampTzNs: AppendTimestamp(c.longs[row], 1000000000, true, out); return;
    default: AppendDecimal(c.decimals[row], c.type->scale(), out); return;
  }
}

}  // namespace

BatchText::BatchText(const std::vector<std::string>& columns, Format format) : format_(format), columns_(columns) {
  switch (format) {
    case Format::kCsv:
      row_close_ = "\n";
      break;
    case Format::kJsonl:
      row_open_ = "{";
      row_close_ = "}\n";
      break;
    case Format::kJson:  // as dump(2) lays out an array element: "  {", each key on its line, "  }"
      row_open_ = ",\n  {";
      row_close_ = columns.empty() ? "}" : "\n  }";
      break;
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    std::string p = i ? "," : "";
    if (format != Format::kCsv) {
      if (format == Format::kJson) p += "\n    ";
      AppendJsonString(columns[i], &p);
      p += format == Format::kJson ? ": " : ":";
    }
    prefixes_.push_back(std::move(p));
  }
}

void BatchText::AppendValue(const Column& c, size_t row, std::string* out) const {
  // JSON and JSON lines: the one definition of a cell's JSON text, nested values included.
  if (format_ != Format::kCsv) {
    AppendCellJson(c, row, out);
    return;
  }
  if (c.IsNull(row)) return;
  if (c.type->is_nested()) {  // a CSV cell holds the nested value's JSON text
    std::string text;
    AppendCellJson(c, row, &text);
    AppendCsvField(text, out);
    return;
  }
  switch (c.type->id()) {
    case TypeId::kBoolean: *out += c.bools[row] ? "true" : "false"; return;
    case TypeId::kInt: AppendInteger(c.ints[row], out); return;
    case TypeId::kLong: AppendInteger(c.longs[row], out); return;
    case TypeId::kString: AppendCsvField(c.BytesAt(row), out); return;
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
    case TypeId::kDecimal:
      // Text of digits, '-', ':', '.', 'T' and '+': never quoted in CSV.
      AppendTemporalOrDecimal(c, row, out);
      return;
    default: break;
  }
  // The other types as the row listing shows them (floats as numbers, UUIDs, hex bytes).
  nlohmann::json value = c.Get(row).ToJson();
  if (c.type->id() == TypeId::kVariant && !value.is_string()) {
    AppendCsvField(value.dump(), out);  // a variant's JSON holds commas and quotes
    return;
  }
  if (value.is_string()) {
    AppendCsvField(value.get_ref<const std::string&>(), out);
    return;
  }
  *out += value.dump();
}

void BatchText::Append(const ColumnBatch& batch, size_t begin, size_t end, std::string* out) const {
  for (size_t r = begin; r < end; ++r) {
    *out += row_open_;
    for (size_t i = 0; i < prefixes_.size(); ++i) {
      *out += prefixes_[i];
      AppendValue(batch.columns[i], r, out);
    }
    *out += row_close_;
  }
}

BatchTextWriter::BatchTextWriter(const BatchText& text, std::ostream& out) : text_(text), out_(out) {
  if (text.format() != BatchText::Format::kCsv) return;
  std::string header;
  for (size_t i = 0; i < text.columns_.size(); ++i) {
    if (i) header.push_back(',');
    AppendCsvField(text.columns_[i], &header);
  }
  header.push_back('\n');
  out_.write(header.data(), static_cast<std::streamsize>(header.size()));
}

void BatchTextWriter::Write(std::string_view piece) {
  if (text_.format() == BatchText::Format::kJson && !wrote_element_ && !piece.empty()) {
    out_.put('[');
    piece.remove_prefix(1);  // the first element's ','
    wrote_element_ = true;
  }
  out_.write(piece.data(), static_cast<std::streamsize>(piece.size()));
}

void BatchTextWriter::WriteRows(const ColumnBatch& batch, size_t rows) {
  for (size_t begin = 0; begin < rows; begin += BatchText::kRowsPerSlice) {
    scratch_.clear();
    text_.Append(batch, begin, std::min(rows, begin + BatchText::kRowsPerSlice), &scratch_);
    Write(scratch_);
  }
}

void BatchTextWriter::Finish() {
  if (text_.format() != BatchText::Format::kJson) return;
  out_ << (wrote_element_ ? "\n]\n" : "[]\n");
}

}  // namespace floe
