#include "commit/spec_update.h"

#include <algorithm>
#include <cctype>

#include "meta/property_values.h"
#include "meta/table_properties.h"
#include "util/strings.h"

namespace floe {

SpecUpdate& SpecUpdate::AddField(std::string text) {
  steps_.emplace_back(true, std::move(text));
  return *this;
}

SpecUpdate& SpecUpdate::RemoveField(std::string name) {
  steps_.emplace_back(false, std::move(name));
  return *this;
}

Result<MetadataChange> SpecUpdate::Plan(const TableMetadata& base) const {
  const Schema& schema = base.CurrentSchema();
  const PartitionSpec& current = base.DefaultSpec();
  std::vector<PartitionField> fields = current.fields();
  int last_id = base.last_partition_id;
  for (const auto& [add, text] : steps_) {
    if (add) {
      FLOE_ASSIGN_OR_RETURN(std::vector<PartitionField> parsed, ParsePartitionFields(text, schema, last_id + 1));
      for (PartitionField f : parsed) {
        for (const auto& existing : fields) {
          if (existing.source_id == f.source_id && existing.transform == f.transform)
            return InvalidArgument("Cannot add duplicate partition field '" + text + "': the spec already has '" +
                                   existing.name + "'");
          if (existing.name == f.name)
            return InvalidArgument("Cannot add partition field '" + text + "': a partition field named '" + f.name +
                                   "' already exists");
        }
        // Reuse the id an older spec gave the same (source, transform).
        bool reused = false;
        for (const auto& spec : base.partition_specs)
          for (const auto& old : spec.fields())
            if (!reused && old.source_id == f.source_id && old.transform == f.transform) {
              f.field_id = old.field_id;
              reused = true;
            }
        if (!reused) f.field_id = ++last_id;
        fields.push_back(std::move(f));
      }
    } else {
      std::string name = Trim(text);
      auto it = std::find_if(fields.begin(), fields.end(), [&](const PartitionField& f) {
        if (f.name == name) return true;
        const NestedField* source = schema.FindField(f.source_id);
        return f.transform.kind() == TransformKind::kIdentity && source && schema.FindColumnName(f.source_id) == name;
      });
      if (it == fields.end() || it->transform.kind() == TransformKind::kVoid)
        return InvalidArgument("Cannot remove partition field '" + name + "': the default spec has no such field");
      if (base.format_version == 1) {
        it->transform = Transform::Void();
      } else {
        fields.erase(it);
      }
    }
  }
  PartitionSpec spec(current.spec_id(), fields);
  FLOE_RETURN_IF_ERROR(spec.Validate(schema));
  MetadataChange change;
  change.what = "partition spec change";
  if (spec.CompatibleWith(current)) return change;
  int next_spec_id = 0;
  for (const auto& s : base.partition_specs) next_spec_id = std::max(next_spec_id, s.spec_id() + 1);
  change.requirements.push_back(AssertTableUuid{base.table_uuid});
  change.requirements.push_back(AssertDefaultSpecId{base.default_spec_id});
  change.requirements.push_back(AssertLastAssignedPartitionId{base.last_partition_id});
  change.updates.push_back(AddPartitionSpec{PartitionSpec(next_spec_id, fields)});
  change.updates.push_back(SetDefaultSpec{-1});
  return change;
}

Result<LoadedTable> UpdateSpec(Catalog& catalog, const TableIdentifier& id, const SpecUpdate& update) {
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<CommitBase> base, CommitBase::Load(catalog, id));
  FLOE_ASSIGN_OR_RETURN(MetadataChange change, update.Plan(base->metadata()));
  return CommitMetadataChange(catalog, id, change, {.base = base});
}

Result<LoadedTable> AddPartitionField(Catalog& catalog, const TableIdentifier& id, const std::string& text) {
  return UpdateSpec(catalog, id, SpecUpdate().AddField(text));
}

Result<LoadedTable> RemovePartitionField(Catalog& catalog, const TableIdentifier& id, const std::string& name) {
  return UpdateSpec(catalog, id, SpecUpdate().RemoveField(name));
}

Result<std::vector<SortField>> ParseSortFields(std::string_view text, const Schema& schema) {
  std::vector<SortField> out;
  // Split on commas outside parentheses.
  std::vector<std::string> parts;
  int depth = 0;
  std::string part;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(part);
      part.clear();
      continue;
    }
    part += c;
  }
  if (!Trim(part).empty() || !parts.empty()) parts.push_back(part);
  for (const auto& raw : parts) {
    std::string p = Trim(raw);
    if (p.empty()) return InvalidArgument("empty sort field in '" + std::string(text) + "'");
    // Words after the term: asc|desc, nulls first|last.
    std::vector<std::string> words;
    size_t close = p.rfind(')');
    size_t term_end = close == std::string::npos ? p.find(' ') : close + 1;
    std::string term = Trim(p.substr(0, term_end));
    std::string rest = term_end == std::string::npos ? "" : p.substr(term_end);
    for (size_t i = 0; i < rest.size();) {
      size_t b = rest.find_first_not_of(' ', i);
      if (b == std::string::npos) break;
      size_t e = rest.find(' ', b);
      words.push_back(AsciiLower(rest.substr(b, e == std::string::npos ? std::string::npos : e - b)));
      i = e == std::string::npos ? rest.size() : e;
    }
    FLOE_ASSIGN_OR_RETURN(std::vector<PartitionField> parsed, ParsePartitionFields(term, schema, 1000));
    if (parsed.size() != 1) return InvalidArgument("malformed sort field '" + p + "'");
    SortField f;
    f.source_id = parsed[0].source_id;
    f.transform = parsed[0].transform;
    size_t w = 0;
    if (w < words.size() && (words[w] == "asc" || words[w] == "desc")) {
      f.direction = words[w] == "asc" ? SortDirection::kAscending : SortDirection::kDescending;
      ++w;
    }
    f.null_order = f.direction == SortDirection::kAscending ? NullOrder::kNullsFirst : NullOrder::kNullsLast;
    if (w < words.size() && words[w] == "nulls") {
      if (w + 1 >= words.size() || (words[w + 1] != "first" && words[w + 1] != "last"))
        return InvalidArgument("sort field '" + p + "': expected 'nulls first' or 'nulls last'");
      f.null_order = words[w + 1] == "first" ? NullOrder::kNullsFirst : NullOrder::kNullsLast;
      w += 2;
    }
    if (w != words.size()) return InvalidArgument("sort field '" + p + "': unexpected '" + words[w] + "'");
    out.push_back(f);
  }
  return out;
}

Result<MetadataChange> PlanSortOrder(const TableMetadata& base, const std::string& text) {
  FLOE_ASSIGN_OR_RETURN(std::vector<SortField> fields, ParseSortFields(text, base.CurrentSchema()));
  SortOrder order(1, fields);
  FLOE_RETURN_IF_ERROR(order.Validate(base.CurrentSchema()));
  MetadataChange change;
  change.what = "sort order change";
  const SortOrder* current = base.SortOrderById(base.default_sort_order_id);
  if (current && current->SameFields(order)) return change;
  change.requirements.push_back(AssertTableUuid{base.table_uuid});
  change.requirements.push_back(AssertDefaultSortOrderId{base.default_sort_order_id});
  change.updates.push_back(AddSortOrder{order});
  change.updates.push_back(SetDefaultSortOrder{-1});
  return change;
}

Result<LoadedTable> SetSortOrder(Catalog& catalog, const TableIdentifier& id, const std::string& text) {
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<CommitBase> base, CommitBase::Load(catalog, id));
  FLOE_ASSIGN_OR_RETURN(MetadataChange change, PlanSortOrder(base->metadata(), text));
  return CommitMetadataChange(catalog, id, change, {.base = base});
}

Result<MetadataChange> PlanProperties(const TableMetadata& base, const std::map<std::string, std::string>& set,
                                      const std::vector<std::string>& remove) {
  for (const auto& key : remove)
    if (set.count(key)) return InvalidArgument("property '" + key + "' is both set and removed");
  for (const auto& [key, value] : set)
    if (key.empty()) return InvalidArgument("a property key is empty");
  MetadataChange change;
  change.what = "property change";
  change.requirements.push_back(AssertTableUuid{base.table_uuid});
  // "format-version" is reserved: setting it upgrades the table (as Iceberg Java's
  // UpdateProperties does for Spark's ALTER TABLE ... SET TBLPROPERTIES), and it is never stored.
  std::map<std::string, std::string> stored = set;
  if (auto it = stored.find(props::kFormatVersion); it != stored.end()) {
    FLOE_ASSIGN_OR_RETURN(int version, ParseFormatVersionProperty(it->second));
    if (version < base.format_version)
      return InvalidArgument("Cannot downgrade v" + std::to_string(base.format_version) + " table to v" +
                             std::to_string(version) + " (format-version can only go up)");
    if (version > base.format_version) {
      // A concurrent upgrade or other change of the same table fails the commit, not the upgrade.
      change.what = "format version upgrade";
      change.updates.push_back(UpgradeFormatVersion{version});
    }
    stored.erase(it);
  }
  for (const auto& key : remove)
    if (key == props::kFormatVersion)
      return InvalidArgument("property format-version cannot be removed: it is the table's format version (v" +
                             std::to_string(base.format_version) + ")");
  if (!stored.empty()) change.updates.push_back(SetProperties{stored});
  if (!remove.empty()) change.updates.push_back(RemoveProperties{remove});
  return change;
}

Result<LoadedTable> UpdateProperties(Catalog& catalog, const TableIdentifier& id,
                                     const std::map<std::string, std::string>& set,
                                     const std::vector<std::string>& remove) {
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<CommitBase> base, CommitBase::Load(catalog, id));
  FLOE_ASSIGN_OR_RETURN(MetadataChange change, PlanProperties(base->metadata(), set, remove));
  return CommitMetadataChange(catalog, id, change, {.base = base});
}

}  // namespace floe
