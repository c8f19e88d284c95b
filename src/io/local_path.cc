#include "io/local_path.h"

#include <cctype>

namespace floe {

namespace {

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  }
  return true;
}

// Length of an RFC 3986 scheme followed by "://", or 0.
size_t SchemeLength(std::string_view text) {
  if (text.empty() || !std::isalpha(static_cast<unsigned char>(text[0]))) return 0;
  size_t i = 1;
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isalnum(c) || c == '+' || c == '-' || c == '.') {
      ++i;
    } else {
      break;
    }
  }
  return text.substr(i).starts_with("://") ? i : 0;
}

}  // namespace

bool HasUriScheme(std::string_view location) {
  return StartsWithNoCase(location, "file:") || SchemeLength(location) > 0;
}

Result<std::string> LocalPath(std::string_view location) {
  if (location.empty()) return InvalidArgument("empty file path");
  if (location.find('\0') != std::string_view::npos) {
    return InvalidArgument("file path contains a NUL byte");
  }
  if (StartsWithNoCase(location, "file:")) {
    std::string_view rest = location.substr(5);
    if (rest.starts_with("//")) {
      // file://AUTHORITY/path: only an empty authority or localhost is this machine.
      std::string_view after = rest.substr(2);
      size_t slash = after.find('/');
      std::string_view authority = after.substr(0, slash);
      if (!authority.empty() && authority != "localhost") {
        return InvalidArgument("file URI names another host '" + std::string(authority) +
                               "': " + std::string(location));
      }
      if (slash == std::string_view::npos) {
        return InvalidArgument("file URI has no path: " + std::string(location));
      }
      return std::string(after.substr(slash));
    }
    if (!rest.starts_with("/")) {
      return InvalidArgument("file URI must hold an absolute path: " + std::string(location));
    }
    return std::string(rest);
  }
  if (size_t n = SchemeLength(location); n > 0) {
    return NotSupported("no local file system for scheme '" + std::string(location.substr(0, n)) +
                        "' in " + std::string(location));
  }
  return std::string(location);
}

std::string ParentPath(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

}  // namespace floe
