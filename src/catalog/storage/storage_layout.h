// Names in a storage catalog's warehouse (storage_catalog.h draws the layout), shared by its
// catalog operations and its version finding.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace floe {

inline constexpr const char* kVersionHint = "version-hint.text";

// N for "v<N>" followed by exactly `suffix` (".metadata.json", ".gz.metadata.json", ".json").
inline int64_t VersionOf(std::string_view file_name, std::string_view suffix) {
  if (file_name.size() <= 1 + suffix.size() || file_name[0] != 'v') return -1;
  if (file_name.substr(file_name.size() - suffix.size()) != suffix) return -1;
  std::string_view digits = file_name.substr(1, file_name.size() - 1 - suffix.size());
  if (digits.empty() || digits.size() > 18) return -1;
  int64_t n = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return -1;
    n = n * 10 + (c - '0');
  }
  return n;
}

inline int64_t TableVersionOf(std::string_view file_name) {
  int64_t n = VersionOf(file_name, ".metadata.json");
  if (n < 0) n = VersionOf(file_name, ".gz.metadata.json");  // what Hadoop tables write compressed
  return n;
}

// A view's versions sit beside a table's, as <view>/metadata/v<N>.view.json: a name no table
// version takes, so a listing tells the two apart.
inline constexpr const char* kViewVersionSuffix = ".view.json";
inline int64_t ViewVersionOf(std::string_view file_name) { return VersionOf(file_name, kViewVersionSuffix); }

// The version a version-hint.text names ("7", maybe with a newline), or -1.
inline int64_t ParseVersionHint(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.remove_suffix(1);
  if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string_view::npos) return -1;
  return std::stoll(std::string(text));
}

inline std::string BaseName(std::string_view path) {
  size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

}  // namespace floe
