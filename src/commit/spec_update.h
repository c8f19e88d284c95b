// Partition spec, sort order and property changes: the rest of table evolution besides the
// schema. Each is a MetadataChange (metadata_commit.h) asserting what it was planned against.
//
// Partition spec evolution: the new spec is the default spec with fields added ("day(ts)",
// "bucket(16, id)", "country") or removed (by partition field name, or by the source column of
// an identity field). It becomes the default for new writes; files written under older specs
// keep theirs. A field re-added with a (source, transform) some older spec had gets that
// field's id back, as Iceberg does. Asserts assert-default-spec-id and
// assert-last-assigned-partition-id. In v1 tables a removed field becomes a void transform
// (v1 specs cannot drop fields).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "commit/metadata_commit.h"
#include "types/sort_order.h"

namespace floe {

class SpecUpdate {
 public:
  SpecUpdate& AddField(std::string text);
  SpecUpdate& RemoveField(std::string name);
  Result<MetadataChange> Plan(const TableMetadata& base) const;

 private:
  std::vector<std::pair<bool, std::string>> steps_;  // (add?, text or name)
};

Result<LoadedTable> UpdateSpec(Catalog& catalog, const TableIdentifier& id, const SpecUpdate& update);
Result<LoadedTable> AddPartitionField(Catalog& catalog, const TableIdentifier& id, const std::string& text);
Result<LoadedTable> RemovePartitionField(Catalog& catalog, const TableIdentifier& id, const std::string& name);

// "country, ts desc nulls last, day(ts) asc": sort fields against a schema. Each field is a
// column or transform, then optionally asc|desc, then optionally nulls first|nulls last
// (default: asc, nulls first for asc and nulls last for desc, as Iceberg).
Result<std::vector<SortField>> ParseSortFields(std::string_view text, const Schema& schema);
// Sets the default sort order (asserts assert-default-sort-order-id). Empty text: unsorted.
Result<MetadataChange> PlanSortOrder(const TableMetadata& base, const std::string& text);
Result<LoadedTable> SetSortOrder(Catalog& catalog, const TableIdentifier& id, const std::string& text);

// Sets and removes table properties (no requirement: the last writer of a key wins, as in
// Iceberg). Keys both set and removed are refused.
Result<MetadataChange> PlanProperties(const TableMetadata& base, const std::map<std::string, std::string>& set,
                                      const std::vector<std::string>& remove);
Result<LoadedTable> UpdateProperties(Catalog& catalog, const TableIdentifier& id,
                                     const std::map<std::string, std::string>& set,
                                     const std::vector<std::string>& remove = {});

}  // namespace floe
