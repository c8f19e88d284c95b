#include "scan/static_table.h"

#include <algorithm>
#include <cctype>

#include "table_files/metadata_document.h"
#include "table_files/metadata_location.h"
#include "util/strings.h"

namespace floe {

namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string Basename(std::string_view path) {
  size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Metadata files directly in `folder` (not below it), by their listed path.
Result<std::vector<std::string>> ListMetadataFiles(FileIO& io, const std::string& folder) {
  FLOE_ASSIGN_OR_RETURN(auto files, io.ListPrefix(folder + "/"));
  std::vector<std::string> out;
  for (const auto& f : files) {
    std::string_view rest = std::string_view(f.path).substr(std::min(f.path.size(), folder.size() + 1));
    if (rest.find('/') != std::string_view::npos) continue;
    if (EndsWith(rest, ".metadata.json")) out.push_back(f.path);
  }
  return out;
}

// The hint's file among the listed ones, or empty.
std::string FromHint(const std::string& hint, const std::vector<std::string>& files) {
  if (hint.empty()) return "";
  for (const auto& f : files) {
    std::string name = Basename(f);
    if (name == hint || name == hint + ".metadata.json") return f;  // the hint names a file
  }
  if (!AllDigits(hint) || hint.size() > 18) return "";
  int64_t version = std::stoll(hint);
  for (const auto& f : files)
    if (ParseMetadataVersion(f) == version) return f;
  return "";
}

}  // namespace

Result<std::string> FindCurrentMetadataFile(FileIO& io, const std::string& table_folder) {
  std::string folder = table_folder;
  folder = TrimTrailingSlashes(folder);
  std::string metadata_folder = folder + "/metadata";
  FLOE_ASSIGN_OR_RETURN(auto files, ListMetadataFiles(io, metadata_folder));
  if (files.empty()) {
    // Perhaps we were given the metadata folder itself.
    FLOE_ASSIGN_OR_RETURN(files, ListMetadataFiles(io, folder));
    metadata_folder = folder;
  }
  if (files.empty()) return NotFound("no table metadata (*.metadata.json) in " + folder + " or " + folder + "/metadata");

  auto hint = io.ReadAll(metadata_folder + "/version-hint.text");
  if (hint) {
    std::string chosen = FromHint(Trim(*hint), files);
    if (!chosen.empty()) return chosen;
  } else if (hint.error().kind != ErrorKind::kNotFound) {
    return std::unexpected(hint.error().WithContext("reading " + metadata_folder + "/version-hint.text"));
  }

  // Highest version wins; among equal versions (should not happen) the name decides, so the
  // answer does not depend on listing order.
  std::string best;
  int64_t best_version = -1;
  for (const auto& f : files) {
    int64_t v = ParseMetadataVersion(f);
    if (v > best_version || (v == best_version && f > best)) {
      best_version = v;
      best = f;
    }
  }
  if (best_version < 0)
    return NotFound("no metadata file with a version number (v<N>.metadata.json or <NNNNN>-<uuid>.metadata.json) in " +
                    metadata_folder);
  return best;
}

Result<StaticTable> OpenStaticTable(FileIO& io, const std::string& location) {
  if (location.empty()) return InvalidArgument("table location is empty");
  std::string metadata_location = location;
  if (!EndsWith(location, ".json")) {
    FLOE_ASSIGN_OR_RETURN(metadata_location, FindCurrentMetadataFile(io, location));
  }
  FLOE_ASSIGN_OR_RETURN(TableMetadata metadata, ReadMetadataFile(io, metadata_location));
  return StaticTable{std::move(metadata_location), std::move(metadata)};
}

}  // namespace floe
