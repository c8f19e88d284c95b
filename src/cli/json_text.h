// JSON as the floe command prints it: never failing on strings that are not UTF-8.
//
// nlohmann::json's dump() throws on invalid UTF-8, and Avro and Parquet files (file names,
// statistics, metadata values) carry whatever bytes their writers put there. Every JSON the
// command prints goes through here: ill-formed bytes are printed as U+FFFD.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace floe::cli {

std::string JsonText(const nlohmann::json& j, int indent = -1);
std::string JsonText(const nlohmann::ordered_json& j, int indent = -1);

// Compact JSON text (as floe writes metadata) indented for people, keys kept in their order;
// linear in the text's size, unlike parsing into ordered_json (whose objects look up every key
// they insert). Text that is not JSON comes back with its structure characters indented anyway.
std::string IndentJson(std::string_view compact, int indent = 2);

}  // namespace floe::cli
