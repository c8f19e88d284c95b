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

}  // namespace floe::cli
