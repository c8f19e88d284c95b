#include "util/strict_json.h"

#include <string>
#include <unordered_set>
#include <vector>

namespace floe {
namespace {

using nlohmann::json;

// Builds the value as nlohmann's own DOM parser does and checks depth and keys on the way.
class StrictSax {
 public:
  StrictSax(json& out, const JsonLimits& limits) : dom_(out, /*allow_exceptions=*/false), limits_(limits) {}

  bool null() { return dom_.null(); }
  bool boolean(bool v) { return dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& s) { return dom_.number_float(v, s); }
  bool string(json::string_t& v) { return CheckString(v) && dom_.string(v); }
  bool binary(json::binary_t& v) { return dom_.binary(v); }

  bool start_object(std::size_t n) {
    if (!Enter()) return false;
    if (!limits_.allow_duplicate_keys) keys_.emplace_back();
    return dom_.start_object(n);
  }
  bool key(json::string_t& k) {
    if (!CheckString(k)) return false;
    if (!limits_.allow_duplicate_keys && !keys_.back().insert(k).second) {
      error_ = "key \"" + k.substr(0, 100) + "\" appears twice in one object";
      return false;
    }
    return dom_.key(k);
  }
  bool end_object() {
    --depth_;
    if (!limits_.allow_duplicate_keys) keys_.pop_back();
    return dom_.end_object();
  }
  bool start_array(std::size_t n) { return Enter() && dom_.start_array(n); }
  bool end_array() {
    --depth_;
    return dom_.end_array();
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) {
    error_ = "not valid JSON (syntax error, bad UTF-8 or data after the value) near byte " + std::to_string(position);
    return false;
  }

  const std::string& error() const { return error_; }

 private:
  bool Enter() {
    if (++depth_ > limits_.max_depth) {
      error_ = "nested deeper than " + std::to_string(limits_.max_depth) + " levels";
      return false;
    }
    return true;
  }
  bool CheckString(const json::string_t& s) {
    if (limits_.max_string_bytes == 0 || s.size() <= limits_.max_string_bytes) return true;
    error_ = "a string is longer than " + std::to_string(limits_.max_string_bytes) + " bytes";
    return false;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  const JsonLimits& limits_;
  int depth_ = 0;
  std::vector<std::unordered_set<std::string>> keys_;
  std::string error_;
};

}  // namespace

Result<json> ParseStrictJson(std::string_view text, std::string_view what, const JsonLimits& limits) {
  json out;
  StrictSax sax(out, limits);
  bool ok = json::sax_parse(text.begin(), text.end(), &sax, json::input_format_t::json, /*strict=*/true);
  if (!ok) {
    return InvalidArgument(std::string(what) + ": " + (sax.error().empty() ? "not valid JSON" : sax.error()));
  }
  return out;
}

int JsonDepth(const json& j) {
  int deepest = 0;
  std::vector<std::pair<const json*, int>> stack{{&j, 0}};
  while (!stack.empty()) {
    auto [v, depth] = stack.back();
    stack.pop_back();
    if (!v->is_structured()) continue;
    deepest = std::max(deepest, depth + 1);
    for (const auto& child : *v) stack.emplace_back(&child, depth + 1);
  }
  return deepest;
}

}  // namespace floe
