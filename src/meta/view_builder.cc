#include "meta/view_builder.h"

#include <algorithm>

#include "meta/property_values.h"
#include "meta/view_json.h"
#include "util/clock.h"
#include "util/strings.h"

namespace floe {

namespace {

bool SameVersion(const ViewVersion& a, const ViewVersion& b) {
  return a.summary == b.summary && a.representations == b.representations &&
         a.default_catalog == b.default_catalog && a.default_namespace == b.default_namespace &&
         a.schema_id == b.schema_id;
}

std::string DialectList(std::vector<std::string> dialects) {
  std::sort(dialects.begin(), dialects.end());
  std::string out = "[";
  for (size_t i = 0; i < dialects.size(); ++i) out += (i ? ", " : "") + dialects[i];
  return out + "]";
}

}  // namespace

ViewMetadataBuilder::ViewMetadataBuilder(std::string view_uuid) {
  m_.view_uuid = std::move(view_uuid);
  m_.current_version_id = -1;
}

ViewMetadataBuilder::ViewMetadataBuilder(const ViewMetadata& base) : m_(base), base_(base) {}

Status ViewMetadataBuilder::ApplyAll(const std::vector<ViewUpdate>& updates) {
  for (const auto& u : updates) FLOE_RETURN_IF_ERROR(Apply(u));
  return Ok();
}

Status ViewMetadataBuilder::AddSchemaFrom(const Schema& schema) {
  FLOE_RETURN_IF_ERROR(schema.Validate());
  // The request's own schema id is not kept (as Iceberg's catalogs do): an identical schema
  // reuses its id, a new one takes the highest id + 1, the first one 0.
  int id = 0;
  for (const auto& s : m_.schemas) {
    if (s.SameStructure(schema) && s.identifier_field_ids() == schema.identifier_field_ids()) {
      last_added_schema_ = s.schema_id();
      return Ok();
    }
    if (s.schema_id() >= id) id = s.schema_id() + 1;
  }
  m_.schemas.emplace_back(id, schema.fields(), schema.identifier_field_ids());
  last_added_schema_ = id;
  return Ok();
}

Status ViewMetadataBuilder::AddVersion(ViewVersion version) {
  int id = version.version_id;
  for (const auto& v : m_.versions) {
    if (SameVersion(v, version)) {
      last_added_version_ = v.version_id;
      return Ok();
    }
    if (v.version_id >= id) id = v.version_id + 1;
  }
  version.version_id = id;
  // A version without a time (a caller leaving it to the catalog) is stamped now: the version
  // log records when it became current.
  if (version.timestamp_ms <= 0) version.timestamp_ms = NowMillis();
  if (version.schema_id == -1) {
    if (!last_added_schema_) return InvalidArgument("Cannot set last added schema: no schema has been added");
    version.schema_id = *last_added_schema_;
  }
  if (!m_.SchemaById(version.schema_id))
    return InvalidArgument("Cannot add version with unknown schema: " + std::to_string(version.schema_id));
  if (version.representations.empty()) return InvalidArgument("Invalid view version: no representations");
  std::set<std::string> dialects;
  for (const auto& r : version.representations) {
    if (r.type != "sql") continue;
    if (r.dialect.empty()) return InvalidArgument("Invalid view version: a sql representation has no dialect");
    if (!dialects.insert(AsciiLower(r.dialect)).second)
      return InvalidArgument("Invalid view version: Cannot add multiple queries for dialect " + AsciiLower(r.dialect));
  }
  m_.versions.push_back(std::move(version));
  added_versions_.insert(id);
  last_added_version_ = id;
  return Ok();
}

Status ViewMetadataBuilder::SetCurrentVersion(int version_id) {
  if (version_id == -1) {
    if (!last_added_version_) return InvalidArgument("Cannot set last version: no version has been added");
    version_id = *last_added_version_;
  }
  const ViewVersion* version = m_.Version(version_id);
  if (!version)
    return InvalidArgument("Cannot set current version to unknown version: " + std::to_string(version_id));
  if (version_id == m_.current_version_id) return Ok();  // no change, no log entry
  m_.current_version_id = version_id;
  history_entry_ = ViewHistoryEntry{version->timestamp_ms, version_id};
  return Ok();
}

Status ViewMetadataBuilder::Apply(const ViewUpdate& update) {
  if (auto* u = std::get_if<AssignUuid>(&update)) {
    if (u->uuid.empty()) return InvalidArgument("Cannot assign an empty view uuid");
    if (AsciiLower(u->uuid) != AsciiLower(m_.view_uuid)) {
      if (base_) return InvalidArgument("Cannot reassign view uuid " + m_.view_uuid + " to " + u->uuid);
      m_.view_uuid = u->uuid;
    }
    return Ok();
  }
  if (auto* u = std::get_if<UpgradeFormatVersion>(&update)) {
    if (u->format_version < m_.format_version)
      return InvalidArgument("Cannot downgrade view format version from " + std::to_string(m_.format_version) +
                             " to " + std::to_string(u->format_version));
    if (u->format_version != kViewFormatVersion)
      return InvalidArgument("Unsupported view format version: " + std::to_string(u->format_version));
    return Ok();
  }
  if (auto* u = std::get_if<AddSchema>(&update)) return AddSchemaFrom(u->schema);
  if (auto* u = std::get_if<SetLocation>(&update)) {
    if (u->location.empty()) return InvalidArgument("Invalid view location: empty");
    m_.location = u->location;
    return Ok();
  }
  if (auto* u = std::get_if<SetProperties>(&update)) {
    for (const auto& [k, v] : u->updates) m_.properties[k] = v;
    return Ok();
  }
  if (auto* u = std::get_if<RemoveProperties>(&update)) {
    for (const auto& k : u->removals) m_.properties.erase(k);
    return Ok();
  }
  if (auto* u = std::get_if<AddViewVersion>(&update)) return AddVersion(u->version);
  if (auto* u = std::get_if<SetCurrentViewVersion>(&update)) return SetCurrentVersion(u->version_id);
  return InvalidArgument("unknown view update");
}

Result<ViewMetadata> ViewMetadataBuilder::Build() const {
  ViewMetadata out = m_;
  if (out.location.empty()) return InvalidArgument("Invalid view location: none was set");
  if (!out.Version(out.current_version_id))
    return InvalidArgument("Cannot create view without specifying a current version");

  int history_size = kViewHistorySizeDefault;
  if (auto it = out.properties.find(kViewHistorySizeProperty); it != out.properties.end()) {
    auto parsed = ParseCountProperty(kViewHistorySizeProperty, it->second);
    if (!parsed || *parsed <= 0 || *parsed > 1'000'000)
      return InvalidArgument(std::string(kViewHistorySizeProperty) + " must be a positive integer but was " +
                             it->second);
    history_size = static_cast<int>(*parsed);
  }

  if (base_ && base_->current_version_id != out.current_version_id) {
    bool drop_allowed = false;
    if (auto drop = out.properties.find(kViewDropDialectAllowedProperty); drop != out.properties.end()) {
      FLOE_ASSIGN_OR_RETURN(drop_allowed, ParseBooleanProperty(kViewDropDialectAllowedProperty, drop->second));
    }
    if (!drop_allowed) {
      std::vector<std::string> before = base_->CurrentVersion().Dialects();
      std::vector<std::string> after = out.CurrentVersion().Dialects();
      for (const auto& d : before) {
        if (std::find(after.begin(), after.end(), d) == after.end())
          return InvalidArgument("Cannot replace view due to loss of view dialects (" +
                                 std::string(kViewDropDialectAllowedProperty) + "=false):\nPrevious dialects: " +
                                 DialectList(before) + "\nNew dialects: " + DialectList(after));
      }
    }
  }

  if (history_entry_) out.version_log.push_back(*history_entry_);

  std::set<int> must_keep = added_versions_;
  must_keep.insert(out.current_version_id);
  const size_t keep = std::max(must_keep.size(), static_cast<size_t>(history_size));
  if (out.versions.size() > keep) {
    // Ids are assigned in order: keep the current version and the newest others.
    std::vector<ViewVersion> by_id = out.versions;
    std::sort(by_id.begin(), by_id.end(), [](const auto& a, const auto& b) { return a.version_id > b.version_id; });
    std::set<int> retained = {out.current_version_id};
    for (const auto& v : by_id) {
      if (retained.size() >= keep) break;
      retained.insert(v.version_id);
    }
    std::erase_if(out.versions, [&](const ViewVersion& v) { return !retained.contains(v.version_id); });
    std::vector<ViewHistoryEntry> log;
    for (const auto& e : out.version_log) {
      if (retained.contains(e.version_id)) {
        log.push_back(e);
      } else {
        log.clear();  // the log stays a run of known versions
      }
    }
    out.version_log = std::move(log);
  }
  auto valid = out.Validate();
  if (!valid) return InvalidArgument(valid.error().message);
  return out;
}

}  // namespace floe
