#include "cli/output.h"

#include <algorithm>

#include "cli/json_text.h"

namespace floe::cli {

Result<OutputFormat> ParseOutputFormat(const std::string& text) {
  if (text == "table") return OutputFormat::kTable;
  if (text == "csv") return OutputFormat::kCsv;
  if (text == "jsonl") return OutputFormat::kJsonl;
  if (text == "json") return OutputFormat::kJson;
  return InvalidArgument("unknown --format '" + text + "' (table, csv, jsonl or json)");
}

std::string CellText(const nlohmann::json& value, bool for_csv) {
  if (value.is_null()) return for_csv ? "" : "null";
  if (value.is_string()) return value.get<std::string>();
  return JsonText(value);
}

namespace {

std::string CsvQuote(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
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
    case OutputFormat::kJson:
    case OutputFormat::kJsonl: {
      nlohmann::json all = nlohmann::json::array();
      for (const auto& row : listing.rows) {
        nlohmann::json obj = nlohmann::json::object();
        for (size_t i = 0; i < listing.columns.size(); ++i) obj[listing.columns[i]] = row[i];
        if (format == OutputFormat::kJsonl) {
          out << JsonText(obj) << "\n";
        } else {
          all.push_back(std::move(obj));
        }
      }
      if (format == OutputFormat::kJson) out << JsonText(all, 2) << "\n";
      return;
    }
    case OutputFormat::kCsv: {
      for (size_t i = 0; i < listing.columns.size(); ++i) out << (i ? "," : "") << CsvQuote(listing.columns[i]);
      out << "\n";
      for (const auto& row : listing.rows) {
        for (size_t i = 0; i < row.size(); ++i) out << (i ? "," : "") << CsvQuote(CellText(row[i], true));
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

}  // namespace floe::cli
