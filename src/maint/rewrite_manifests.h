// Rewriting manifests: the data manifests of a branch's head regrouped by partition into
// manifests of about commit.manifest.target-size-bytes, so a filtered scan opens few of them.
//
// The rewrite is a "replace" snapshot that changes no data: every live entry keeps its file,
// snapshot id and sequence numbers (as EXISTING). It is validated like any rewrite: if a
// manifest it replaces is no longer in the branch's head when it commits (another commit
// removed files from it or rewrote it), it is refused naming the manifest. Manifests other
// commits added meanwhile are carried over untouched. Delete manifests are kept as they are.
#pragma once

#include <cstdint>

#include "catalog/catalog.h"
#include "commit/commit_operation.h"

namespace floe {

struct RewriteManifestsOptions {
  int64_t target_size_bytes = 0;  // 0: commit.manifest.target-size-bytes
  CommitOptions commit;
};

struct RewriteManifestsResult {
  bool committed = false;  // false when there was nothing to regroup
  int64_t manifests_replaced = 0;
  int64_t manifests_written = 0;
  int64_t entries = 0;
  CommitReport commit;
};

Result<RewriteManifestsResult> RewriteManifests(Catalog& catalog, const TableIdentifier& id,
                                                const RewriteManifestsOptions& options = {});

}  // namespace floe
