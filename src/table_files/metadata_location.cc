#include "table_files/metadata_location.h"

#include <cstdio>

#include "util/strings.h"
#include "util/uuid.h"

namespace floe {

std::string MetadataFolder(const TableMetadata& metadata) {
  const std::string folder = metadata.Property("write.metadata.path", "");
  return folder.empty() ? JoinPath(metadata.location, "metadata") : TrimTrailingSlashes(folder);
}

int64_t ParseMetadataVersion(std::string_view location) {
  size_t slash = location.rfind('/');
  std::string_view name = slash == std::string_view::npos ? location : location.substr(slash + 1);
  if (!name.empty() && name[0] == 'v') name.remove_prefix(1);
  int64_t version = 0;
  size_t digits = 0;
  while (digits < name.size() && digits < 18 && name[digits] >= '0' && name[digits] <= '9') {
    version = version * 10 + (name[digits] - '0');
    ++digits;
  }
  if (digits == 0 || digits == name.size() || (name[digits] != '-' && name[digits] != '.')) return -1;
  return version;
}

std::string VersionedMetadataLocation(const std::string& folder, int64_t version) {
  return folder + "/" + VersionedMetadataPrefix(version) + RandomUuidString() + kMetadataSuffix;
}

std::string VersionedMetadataPrefix(int64_t version) {
  char number[32];
  std::snprintf(number, sizeof number, "%05lld-", static_cast<long long>(version));
  return number;
}

}  // namespace floe
