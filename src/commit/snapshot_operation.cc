#include "commit/snapshot_operation.h"

#include "catalog/commit.h"
#include "catalog/intent_store.h"
#include "util/strings.h"
#include "util/uuid.h"

namespace floe {

// Manifests and manifest lists go where the metadata documents go (write.metadata.path when
// set), as Iceberg's writers place them (TableOperations.metadataFileLocation).
Result<std::string> OperationContext::NewMetadataFilePath(const TableMetadata& table, const std::string& suffix) const {
  if (names) return names->NewPath(MetadataFolder(table), "", suffix);
  return JoinPath(MetadataFolder(table), RandomUuidString() + suffix);
}

Result<std::string> OperationContext::NewManifestListPath(const TableMetadata& table, int64_t snapshot_id,
                                                          int attempt) const {
  if (names && names->recording()) return names->NewPath(MetadataFolder(table), kRecordedManifestListPrefix, ".avro");
  const std::string prefix = "snap-" + std::to_string(snapshot_id) + "-" + std::to_string(attempt) + "-";
  return JoinPath(MetadataFolder(table), prefix + RandomUuidString() + ".avro");
}

}  // namespace floe
