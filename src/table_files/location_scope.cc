#include "table_files/location_scope.h"

#include <cctype>
#include <filesystem>
#include <system_error>

#include "io/local_path.h"

namespace floe {
namespace {

std::vector<std::string> SplitSegments(std::string_view path) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > start) out.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

Result<NormalLocation> NormalizeLocal(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path absolute = fs::absolute(fs::path(path), ec);
  if (ec) return InvalidArgument("cannot make '" + path + "' absolute: " + ec.message());
  // weakly_canonical resolves links through the existing prefix and ".." lexically after it.
  fs::path resolved = fs::weakly_canonical(absolute.lexically_normal(), ec);
  if (ec) resolved = absolute.lexically_normal();
  NormalLocation out{"file", {}};
  for (const auto& part : resolved) {
    std::string s = part.string();
    if (s == "/" || s.empty() || s == ".") continue;
    if (s == "..") {
      if (!out.segments.empty()) out.segments.pop_back();
      continue;
    }
    out.segments.push_back(std::move(s));
  }
  return out;
}

}  // namespace

std::string NormalLocation::ToString() const {
  std::string out = scheme == "file" ? "" : scheme + ":/";
  for (const auto& s : segments) out += "/" + s;
  if (out.empty() || out == scheme + ":/") out += "/";
  return out;
}

bool NormalLocation::IsWithin(const NormalLocation& outer) const {
  if (scheme != outer.scheme || segments.size() < outer.segments.size()) return false;
  for (size_t i = 0; i < outer.segments.size(); ++i) {
    if (segments[i] != outer.segments[i]) return false;
  }
  return true;
}

Result<NormalLocation> NormalizeLocation(std::string_view location) {
  if (location.empty()) return InvalidArgument("empty location");
  if (location.find('\0') != std::string_view::npos) return InvalidArgument("location contains a NUL byte");
  const size_t sep = location.find("://");
  std::string scheme = HasUriScheme(location) && sep != std::string_view::npos ? std::string(location.substr(0, sep))
                                                                               : "file";
  for (auto& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (scheme == "file") {  // a path, or a file: URI in any of its forms
    FLOE_ASSIGN_OR_RETURN(std::string path, LocalPath(location));
    return NormalizeLocal(path);
  }
  if (scheme == "s3a" || scheme == "s3n") scheme = "s3";
  NormalLocation out{scheme, SplitSegments(location.substr(sep + 3))};
  if (out.segments.empty()) return InvalidArgument("location names no bucket: " + std::string(location));
  for (const auto& s : out.segments) {
    if (s == "." || s == "..") {
      return InvalidArgument("location has a '" + s + "' segment: " + std::string(location));
    }
  }
  return out;
}

std::string JoinLocation(std::string_view location, std::string_view child) {
  std::string out(location);
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  if (child.empty()) return out;
  return out + "/" + std::string(child);
}

}  // namespace floe
