#include "maint/path_identity.h"

namespace floe {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// Collapses repeated '/' in `rest` (the part after scheme and authority).
std::string CollapseSlashes(std::string_view rest) {
  std::string out;
  out.reserve(rest.size());
  for (char c : rest) {
    if (c == '/' && !out.empty() && out.back() == '/') continue;
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::string CanonicalPath(std::string_view path) {
  if (StartsWith(path, "file:")) {
    std::string_view rest = path.substr(5);
    if (StartsWith(rest, "//localhost/")) rest.remove_prefix(11);
    return CollapseSlashes(rest);
  }
  for (std::string_view scheme : {"s3a://", "s3n://", "s3://"}) {
    if (!StartsWith(path, scheme)) continue;
    std::string_view rest = path.substr(scheme.size());
    size_t slash = rest.find('/');
    std::string bucket(rest.substr(0, slash));
    std::string key = slash == std::string_view::npos ? std::string() : CollapseSlashes(rest.substr(slash));
    return "s3://" + bucket + key;
  }
  if (StartsWith(path, "/")) return CollapseSlashes(path);
  return std::string(path);
}

}  // namespace floe
