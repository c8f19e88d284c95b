// Parsing JSON from someone who may be hostile: limits applied while parsing, not after.
//
// Beyond what nlohmann::json checks (syntax, UTF-8 inside strings, nothing after the value),
// the parse stops at the first object or array nested deeper than `max_depth`, and refuses an
// object with a key given twice (a later "requirements": [] must not silently replace an
// earlier one). The parser keeps its own stack, so no input recurses the C++ stack, and errors
// give a byte offset, never the input's text.
#pragma once

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include "floe/result.h"

namespace floe {

struct JsonLimits {
  int max_depth = 64;           // objects and arrays inside one another
  size_t max_string_bytes = 0;  // 0: no limit beyond the text's size
  bool allow_duplicate_keys = false;  // true: the last one wins, as nlohmann::json::parse does
};

// InvalidArgument "<what>: ..." for malformed JSON or a limit passed.
Result<nlohmann::json> ParseStrictJson(std::string_view text, std::string_view what, const JsonLimits& limits = {});

// The depth of the deepest object or array in a parsed value (iterative, for values built in code).
int JsonDepth(const nlohmann::json& j);

}  // namespace floe
