// SnapshotOperation: one change to a table that becomes exactly one snapshot.
//
// The commit loop drives an operation through attempts:
//   Prepare()   once: writes what never depends on the base (manifests of the new files);
//   Validate()  every attempt: checks what landed since the starting snapshot (final on failure);
//   Apply()     every attempt: the new snapshot's manifest list over the current branch head,
//               writing only attempt-specific files (rewritten or merged manifests).
// New manifest entries leave snapshot id and sequence numbers null, so a retry reuses the
// prepared manifests unchanged and rewrites only the manifest list and metadata document.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/background_write.h"
#include "floe/file_io.h"
#include "table_files/file_namer.h"
#include "meta/manifest_file.h"
#include "meta/table_metadata.h"
#include "commit/snapshot_summary.h"

namespace floe {

// Where an operation's files go and what it may read.
struct OperationContext {
  FileIO* io = nullptr;
  std::string branch = kMainBranch;
  // When set, new manifests' durable writes may run here while the commit goes on: the commit
  // loop awaits them before the swap and before deleting any file. Unset, writes are done
  // before the call that makes them returns.
  BackgroundWrites* background_writes = nullptr;
  // Names new files and records them in the commit's write intent first (io/file_namer.h);
  // unset, names are unique but unrecorded.
  FileNamer* names = nullptr;
  // A unique path for a new metadata-side file (manifest, manifest list) in the table's
  // metadata folder: write.metadata.path, else <location>/metadata. An error is the intent's:
  // no name, so no file.
  Result<std::string> NewMetadataFilePath(const TableMetadata& table, const std::string& suffix) const;
  // A new manifest list's path: snap-<snapshot id>-<attempt>-<uuid>.avro, as Iceberg's writers
  // name them.
  Result<std::string> NewManifestListPath(const TableMetadata& table, int64_t snapshot_id, int attempt) const;
};

struct AttemptOutput {
  std::vector<ManifestFile> manifests;     // the new snapshot's complete manifest list
  std::vector<std::string> attempt_files;  // written for this attempt only
  // Files the operation wrote (prepared or for this attempt) that the new snapshot does not
  // list, such as new manifests a merge folded into another: garbage once this attempt lands,
  // kept while a later attempt may still list them.
  std::vector<std::string> unlisted_files;
  SummaryBuilder summary;
};

class SnapshotOperation {
 public:
  virtual ~SnapshotOperation() = default;

  // Iceberg's operation name for the summary: append, overwrite, delete, replace.
  virtual std::string operation() const = 0;

  virtual Status Prepare(const OperationContext& ctx, const TableMetadata& base) = 0;
  // `head` is the branch's current snapshot (nullptr for an empty branch).
  virtual Status Validate(const OperationContext& ctx, const TableMetadata& current, const Snapshot* head) = 0;
  virtual Result<AttemptOutput> Apply(const OperationContext& ctx, const TableMetadata& current, const Snapshot* head,
                                      int64_t snapshot_id, int64_t sequence_number) = 0;

  // Files Prepare wrote: deleted only if the whole commit certainly failed.
  virtual std::vector<std::string> prepared_files() const = 0;
};

}  // namespace floe
