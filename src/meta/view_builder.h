// ViewMetadataBuilder: applies a view commit's updates to a base (or to nothing, for a new
// view) and builds the next metadata document, with the rules Iceberg's catalogs enforce so
// that floe, Java and PyIceberg agree on what a view commit means:
//   - add-view-version reuses the id of an existing identical version (same summary, SQL,
//     default catalog/namespace and schema) and otherwise takes the highest id + 1; schema-id
//     -1 means the schema added last in this commit;
//   - set-current-view-version -1 means the version added last; a change of the current
//     version is recorded in the version log with the version's own timestamp;
//   - a replace may not drop a dialect the current version has unless the view's property
//     replace.drop-dialect.allowed is true;
//   - version.history.num-entries (default 10) bounds the versions kept (never fewer than the
//     versions this commit added plus the current one) and the log, which keeps only the run
//     of entries after the last one whose version was dropped.
// Errors: InvalidArgument naming the rule ("Cannot add version with unknown schema: 7").
#pragma once

#include <optional>
#include <set>

#include "meta/view_update.h"

namespace floe {

class ViewMetadataBuilder {
 public:
  // A new view: the updates must assign a location, add a schema and a version, and make it
  // current; the uuid is `view_uuid` unless an assign-uuid update names the same one.
  explicit ViewMetadataBuilder(std::string view_uuid);
  // The next version of `base`.
  explicit ViewMetadataBuilder(const ViewMetadata& base);

  Status Apply(const ViewUpdate& update);
  Status ApplyAll(const std::vector<ViewUpdate>& updates);
  Result<ViewMetadata> Build() const;

 private:
  Status AddVersion(ViewVersion version);
  Status SetCurrentVersion(int version_id);
  Status AddSchemaFrom(const Schema& schema);

  ViewMetadata m_;
  std::optional<ViewMetadata> base_;
  std::set<int> added_versions_;
  std::optional<int> last_added_version_;
  std::optional<int> last_added_schema_;
  std::optional<ViewHistoryEntry> history_entry_;
};

}  // namespace floe
