// libFuzzer target: the schema text (nested types included) and the JSON forms of nested values.
// The input is "<schema text>\n<JSON value>":
//   the schema text, when it parses, prints text that parses back to the same schema;
//   the JSON, read as a value of the first column (the human form scan prints), prints text
//   that reads back to an equal value, and its Iceberg single-value JSON reads back equal too.
// Any failure must be a clean error; a broken round trip aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "types/nested_json.h"
#include "types/schema_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t newline = input.find('\n');
  const std::string_view schema_text = input.substr(0, newline);
  auto schema = floe::ParseSchemaText(schema_text);
  if (!schema) return 0;
  const std::string printed = floe::SchemaToText(*schema);
  auto again = floe::ParseSchemaText(printed);
  if (!again || !again->SameStructure(*schema)) std::abort();
  if (newline == std::string_view::npos) return 0;

  auto json = nlohmann::json::parse(input.substr(newline + 1), nullptr, false);
  if (json.is_discarded()) return 0;
  const floe::NestedField& field = schema->fields()[0];
  floe::Column column(field.type);
  if (!floe::AppendJsonValue(json, &column, field.name)) {
    if (column.length != 0) std::abort();  // a refused value leaves the column as it was
    return 0;
  }
  std::string text;
  floe::AppendCellJson(column, 0, &text);
  const floe::Literal value = column.Get(0);
  auto reread = floe::LiteralFromCellJson(field.type, nlohmann::json::parse(text, nullptr, false));
  // Text of strings that are not UTF-8 prints with U+FFFD, so only valid values must match.
  if (text.find("\xEF\xBF\xBD") == std::string::npos && (!reread || !(*reread == value))) std::abort();
  auto spec = floe::Literal::FromJson(field.type, value.ToJson());
  if (text.find("\xEF\xBF\xBD") == std::string::npos && (!spec || !(*spec == value))) std::abort();
  return 0;
}
