#include "cli/output.h"

#include <algorithm>
#include <charconv>

#include "cli/json_text.h"

namespace floe::cli {

Result<OutputFormat> ParseOutputFormat(const std::string& text) {
  if (text == "table") return OutputFormat::kTable;
  if (text == "csv") return OutputFormat::kCsv;
  if (text == "jsonl") return OutputFormat::kJsonl;
  if (text == "json") return OutputFormat::kJson;
  return InvalidArgument("unknown --format '" + text + "' (table, csv, jsonl or json)");
}

std::optional<ScanTextFormat> StreamedFormat(OutputFormat format) {
  switch (format) {
    case OutputFormat::kCsv: return ScanTextFormat::kCsv;
    case OutputFormat::kJsonl: return ScanTextFormat::kJsonl;
    case OutputFormat::kJson: return ScanTextFormat::kJson;
    case OutputFormat::kTable: break;
  }
  return std::nullopt;
}

std::string CellText(const nlohmann::ordered_json& value, bool for_csv) {
  if (value.is_null()) return for_csv ? "" : "null";
  if (value.is_string()) return value.get<std::string>();
  return JsonText(value);
}

namespace {

std::string CsvQuote(const std::string& s) {
  std::string out;
  AppendCsvField(s, &out);
  return out;
}

// A value as a CSV field: null is the empty field, the empty string "", so that floe (and
// DuckDB, Spark, PostgreSQL) read back what was written.
std::string CsvCell(const nlohmann::ordered_json& value) {
  if (value.is_null()) return "";
  return CsvQuote(CellText(value, true));
}

// One row as a JSON object on one line, keys in the order of `columns`.
void AppendJsonObject(const std::vector<std::string>& columns, const std::vector<nlohmann::ordered_json>& row,
                      std::string* out) {
  out->push_back('{');
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i) out->push_back(',');
    *out += JsonText(nlohmann::ordered_json(columns[i]));
    out->push_back(':');
    *out += JsonText(row[i]);
  }
  out->push_back('}');
}

// Display width of UTF-8 text: one column per code point (good enough for names and values).
size_t Width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xc0) != 0x80) ++n;
  return n;
}

}  // namespace

void PrintListing(const Listing& listing, OutputFormat format, std::ostream& out) {
  switch (format) {
    case OutputFormat::kJsonl: {
      std::string line;
      for (const auto& row : listing.rows) {
        line.clear();
        AppendJsonObject(listing.columns, row, &line);
        out << line << "\n";
      }
      return;
    }
    case OutputFormat::kJson: {
      // Laid out as dump(2) lays out an array of flat objects, each value on one line: a nested
      // value stays compact, as the streamed scan output (floe/scan_export.h) prints it.
      if (listing.rows.empty()) {
        out << "[]\n";
        return;
      }
      std::string text = "[";
      for (size_t r = 0; r < listing.rows.size(); ++r) {
        text += r ? ",\n  {" : "\n  {";
        for (size_t i = 0; i < listing.columns.size(); ++i) {
          text += i ? ",\n    " : "\n    ";
          text += JsonText(nlohmann::ordered_json(listing.columns[i]));
          text += ": ";
          text += JsonText(listing.rows[r][i]);
        }
        text += listing.columns.empty() ? "}" : "\n  }";
      }
      out << text << "\n]\n";
      return;
    }
    case OutputFormat::kCsv: {
      for (size_t i = 0; i < listing.columns.size(); ++i) out << (i ? "," : "") << CsvQuote(listing.columns[i]);
      out << "\n";
      for (const auto& row : listing.rows) {
        for (size_t i = 0; i < row.size(); ++i) out << (i ? "," : "") << CsvCell(row[i]);
        out << "\n";
      }
      return;
    }
    case OutputFormat::kTable: {
      std::vector<size_t> widths;
      for (const auto& c : listing.columns) widths.push_back(Width(c));
      std::vector<std::vector<std::string>> cells;
      for (const auto& row : listing.rows) {
        std::vector<std::string> texts;
        for (size_t i = 0; i < row.size(); ++i) {
          texts.push_back(CellText(row[i], false));
          widths[i] = std::max(widths[i], Width(texts.back()));
        }
        cells.push_back(std::move(texts));
      }
      auto print_row = [&](const std::vector<std::string>& texts) {
        for (size_t i = 0; i < texts.size(); ++i) {
          out << (i ? "  " : "") << texts[i];
          if (i + 1 < texts.size()) out << std::string(widths[i] - Width(texts[i]), ' ');
        }
        out << "\n";
      };
      print_row(listing.columns);
      std::vector<std::string> rule;
      for (size_t w : widths) rule.push_back(std::string(w, '-'));
      print_row(rule);
      for (const auto& texts : cells) print_row(texts);
      return;
    }
  }
}

// A cell's JSON text as a JSON value; null, booleans and integers (most cells) without the parser.
// Objects keep their keys' order (a struct's fields in field order).
static nlohmann::ordered_json ParsedCell(const std::string& text) {
  if (text == "null") return nullptr;
  if (text == "true") return true;
  if (text == "false") return false;
  int64_t integer = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), integer);
  if (ec == std::errc() && end == text.data() + text.size()) return integer;
  return nlohmann::ordered_json::parse(text);
}

// A row's cells as the listing takes them: strings as they are, other values parsed from their JSON.
std::vector<nlohmann::ordered_json> ListingRow(std::vector<ListedCell>&& cells) {
  std::vector<nlohmann::ordered_json> out;
  out.reserve(cells.size());
  for (auto& cell : cells) out.push_back(cell.is_string ? nlohmann::ordered_json(std::move(cell.text)) : ParsedCell(cell.text));
  return out;
}

}  // namespace floe::cli
