#include "table_files/moved_paths_file_io.h"

#include <optional>

#include "io/local_path.h"

namespace floe {
namespace {

std::string WithoutTrailingSlash(std::string s) {
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// The rest of `path` after `prefix` when `path` is `prefix` itself or below it ("" or "/..."),
// else nullopt.
std::optional<std::string_view> Below(std::string_view path, std::string_view prefix) {
  if (prefix.empty() || !path.starts_with(prefix)) return std::nullopt;
  std::string_view rest = path.substr(prefix.size());
  if (!rest.empty() && rest[0] != '/') return std::nullopt;  // "/w/t2" is not below "/w/t"
  return rest;
}

}  // namespace

std::string MovedPathKey(std::string_view location) {
  if (location.starts_with("file:")) {
    if (auto local = LocalPath(location)) return *local;
  }
  return std::string(location);
}

MovedPathsFileIO::MovedPathsFileIO(std::shared_ptr<FileIO> inner, std::string recorded_location,
                                   std::string actual_location)
    : PathMappingFileIO(std::move(inner)),
      recorded_(WithoutTrailingSlash(MovedPathKey(recorded_location))),
      actual_(WithoutTrailingSlash(std::move(actual_location))) {
  // Engines on HDFS record "hdfs://nn:8020/w/t" as the location but may name files "/w/t/...".
  size_t scheme_end = recorded_.find("://");
  if (scheme_end != std::string::npos) {
    size_t path_start = recorded_.find('/', scheme_end + 3);
    if (path_start != std::string::npos) recorded_path_only_ = recorded_.substr(path_start);
  }
}

std::string MovedPathsFileIO::Map(std::string_view path) const {
  std::string key = MovedPathKey(path);
  auto rest = Below(key, recorded_);
  if (!rest && key.starts_with('/')) rest = Below(key, recorded_path_only_);
  if (!rest) return std::string(path);
  return actual_ + std::string(*rest);
}

}  // namespace floe
