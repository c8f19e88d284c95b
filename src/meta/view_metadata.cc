#include "meta/view_metadata.h"

#include <set>

#include "util/strings.h"

namespace floe {

const ViewRepresentation* ViewVersion::SqlFor(const std::string& dialect) const {
  const std::string wanted = AsciiLower(dialect);
  for (const auto& r : representations) {
    if (r.type == "sql" && AsciiLower(r.dialect) == wanted) return &r;
  }
  return nullptr;
}

std::vector<std::string> ViewVersion::Dialects() const {
  std::vector<std::string> out;
  for (const auto& r : representations) {
    if (r.type == "sql") out.push_back(AsciiLower(r.dialect));
  }
  return out;
}

const ViewVersion* ViewMetadata::Version(int version_id) const {
  for (const auto& v : versions) {
    if (v.version_id == version_id) return &v;
  }
  return nullptr;
}

const ViewVersion& ViewMetadata::CurrentVersion() const { return *Version(current_version_id); }

const Schema* ViewMetadata::SchemaById(int schema_id) const {
  for (const auto& s : schemas) {
    if (s.schema_id() == schema_id) return &s;
  }
  return nullptr;
}

const Schema& ViewMetadata::CurrentSchema() const { return *SchemaById(CurrentVersion().schema_id); }

Status ViewMetadata::Validate() const {
  auto bad = [](const std::string& what) { return Corrupt("view metadata: " + what); };
  if (format_version != kViewFormatVersion)
    return NotSupported("view metadata: unsupported format-version " + std::to_string(format_version) +
                        " (floe reads view format 1)");
  if (view_uuid.empty()) return bad("view-uuid is empty");
  if (location.empty()) return bad("location is empty");
  if (schemas.empty()) return bad("schemas is empty");
  std::set<int> schema_ids;
  for (const auto& s : schemas) {
    if (!schema_ids.insert(s.schema_id()).second)
      return bad("schema-id " + std::to_string(s.schema_id()) + " appears twice in schemas");
  }
  if (versions.empty()) return bad("versions is empty");
  std::set<int> version_ids;
  for (const auto& v : versions) {
    const std::string name = "version " + std::to_string(v.version_id);
    if (!version_ids.insert(v.version_id).second) return bad(name + " appears twice in versions");
    if (!schema_ids.contains(v.schema_id))
      return bad(name + " names schema-id " + std::to_string(v.schema_id) + ", which schemas lacks");
    if (v.representations.empty()) return bad(name + " has no representations");
    std::set<std::string> dialects;
    for (const auto& r : v.representations) {
      if (r.type != "sql") continue;
      if (r.dialect.empty()) return bad(name + " has a sql representation without a dialect");
      if (r.sql.empty()) return bad(name + " has an empty sql text for dialect " + r.dialect);
      if (!dialects.insert(AsciiLower(r.dialect)).second)
        return bad(name + " has two sql representations for dialect " + AsciiLower(r.dialect));
    }
  }
  if (!version_ids.contains(current_version_id))
    return bad("current-version-id " + std::to_string(current_version_id) + " names no version");
  return Ok();
}

}  // namespace floe
