#include "maint/intent_reclamation.h"

#include <algorithm>
#include <map>

#include "catalog/intent_store.h"
#include "maint/batched_delete.h"
#include "maint/path_identity.h"
#include "table_files/metadata_location.h"
#include "util/clock.h"

namespace floe {
namespace {

struct Attempt {
  int64_t newest_ms = 0;
  int64_t batches = 0;  // one past the highest batch number seen
  std::vector<std::string> paths;
};

}  // namespace

Result<OrphanResult> ReclaimFromIntents(Catalog& catalog, const TableIdentifier& id, const OrphanOptions& options) {
  if (options.location)
    return InvalidArgument("--location cannot be combined with --from-intents: an intent is reclaimed whole");
  IntentStore* store = IntentStoreOf(catalog);
  if (!store)
    return InvalidArgument("catalog " + catalog.name() +
                           " keeps no write intents (only SQL and storage catalogs do): use the listing sweep");
  const int64_t now_ms = options.now_ms.value_or(NowMillis());
  FLOE_ASSIGN_OR_RETURN(LoadedTable first, catalog.LoadTable(id));
  FLOE_ASSIGN_OR_RETURN(const int64_t cutoff, OrphanCutoffMs(first.metadata, options, now_ms));
  const std::string folder = MetadataFolder(first.metadata);

  OrphanResult result;
  FLOE_ASSIGN_OR_RETURN(std::vector<WriteIntentBatch> batches, store->ListIntents(id, folder));
  result.intents_read = static_cast<int64_t>(batches.size());
  std::map<std::string, Attempt> attempts;
  for (auto& b : batches) {
    Attempt& a = attempts[b.attempt_id];
    a.newest_ms = std::max(a.newest_ms, b.created_ms);
    a.batches = std::max(a.batches, b.batch_number + 1);
    for (auto& p : b.paths) a.paths.push_back(std::move(p));
  }
  std::erase_if(attempts, [&](const auto& entry) {
    if (entry.second.newest_ms < cutoff) return false;
    ++result.young_intents_kept;
    return true;
  });
  if (attempts.empty()) return result;

  // Loaded after the intents were read: a commit that landed before has its files reached.
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  FileIO& io = *catalog.io();
  FLOE_ASSIGN_OR_RETURN(auto reached, FilesReachedByMetadataLog(io, table.metadata, table.metadata_location,
                                                                &result.metadata_documents_read));
  std::map<std::string, std::vector<std::string>> unreached;  // by attempt
  int64_t total = 0;
  for (auto& [attempt_id, a] : attempts) {
    std::vector<std::string>& gone = unreached[attempt_id];
    for (auto& p : a.paths) {
      if (reached.contains(CanonicalPath(p))) {
        ++result.referenced_kept;
        continue;
      }
      gone.push_back(std::move(p));
    }
    total += static_cast<int64_t>(gone.size());
  }
  for (const auto& [attempt_id, gone] : unreached) result.orphans.insert(result.orphans.end(), gone.begin(), gone.end());
  std::sort(result.orphans.begin(), result.orphans.end());
  if (options.dry_run) return result;

  // Object stores delete many keys a request (S3: 1,000), so a name reserved and never used
  // costs next to nothing. Attempts are deleted together, a batch of about kDeleteBatch paths
  // at a time (whole attempts, so that a failed batch names the attempts whose intents stay).
  int64_t done = 0;
  std::vector<std::pair<std::string, int64_t>> clear;
  std::vector<std::string> batch;
  std::vector<const std::string*> batch_attempts;
  auto flush = [&] {
    if (batch_attempts.empty()) return;
    const size_t failures = result.delete_failures.size();
    DeleteInBatches(io, batch, &result.delete_failures);
    done += static_cast<int64_t>(batch.size());
    if (options.on_progress) options.on_progress(done, total);
    if (result.delete_failures.size() == failures) {  // else the intents stay for the next run
      for (const std::string* attempt_id : batch_attempts)
        clear.emplace_back(*attempt_id, attempts[*attempt_id].batches);
    }
    batch.clear();
    batch_attempts.clear();
  };
  for (const auto& [attempt_id, gone] : unreached) {
    if (!batch.empty() && batch.size() + gone.size() > kDeleteBatch) flush();
    batch.insert(batch.end(), gone.begin(), gone.end());
    batch_attempts.push_back(&attempt_id);
  }
  flush();
  if (Status cleared = store->ClearIntents(id, folder, clear); !cleared) {
    result.delete_failures.push_back(cleared.error().message);
    return result;
  }
  result.intents_cleared = static_cast<int64_t>(clear.size());
  return result;
}

}  // namespace floe
