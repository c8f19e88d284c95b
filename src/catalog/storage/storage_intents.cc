// The storage catalog's write intents (catalog/intent_store.h): one object per recorded batch,
// <metadata folder>/floe-intents/<attempt id>-<batch>.txt, created with create-if-absent.
#include <charconv>

#include "catalog/storage/storage_catalog.h"
#include "util/clock.h"

namespace floe {
namespace {

std::string IntentFolder(const std::string& metadata_folder) { return metadata_folder + "/floe-intents/"; }

std::string IntentObject(const std::string& metadata_folder, const std::string& attempt_id, int64_t batch) {
  return IntentFolder(metadata_folder) + attempt_id + "-" + std::to_string(batch) + ".txt";
}

std::vector<std::string> IntentObjects(const std::string& metadata_folder,
                                       const std::vector<std::pair<std::string, int64_t>>& attempts) {
  std::vector<std::string> objects;
  for (const auto& [attempt_id, batches] : attempts)
    for (int64_t b = 0; b < batches; ++b) objects.push_back(IntentObject(metadata_folder, attempt_id, b));
  return objects;
}

}  // namespace

Status StorageCatalog::RecordIntent(const TableIdentifier& id, const std::string& metadata_folder,
                                    const std::string& attempt_id, int64_t batch_number,
                                    const std::vector<std::string>& paths) {
  ++intent_requests_;
  const std::string object = IntentObject(metadata_folder, attempt_id, batch_number);
  // The atomic create: a reader never sees half an intent, and it is durable when it returns.
  if (Status st = io_->CreateIfAbsent(object, IntentText(NowMillis(), paths)); !st)
    return std::unexpected(st.error().WithContext("recording the write intent of " + id.ToString() + " in " + object));
  return Ok();
}

// Deferred (storage_catalog.h): an append pays one intent request, its record; the clears of
// 64 intent objects share one DeleteFiles. Accepted is Ok whatever a flush does: a clear that
// failed stays deferred, and the caller's next records are under a new attempt id anyway.
Status StorageCatalog::ClearIntent(const TableIdentifier&, const std::string& metadata_folder,
                                   const std::string& attempt_id, int64_t batches) {
  std::vector<std::string> objects = IntentObjects(metadata_folder, {{attempt_id, batches}});
  {
    std::lock_guard lock(intent_mu_);
    deferred_intent_clears_.insert(deferred_intent_clears_.end(), objects.begin(), objects.end());
    if (deferred_intent_clears_.size() < kMaxDeferredIntentObjects) return Ok();
  }
  (void)DeleteIntentObjects({});
  return Ok();
}

// At once, with the deferred ones, in one DeleteFiles (S3: 1,000 keys a request).
Status StorageCatalog::ClearIntents(const TableIdentifier& id, const std::string& metadata_folder,
                                    const std::vector<std::pair<std::string, int64_t>>& attempts) {
  if (Status st = DeleteIntentObjects(IntentObjects(metadata_folder, attempts)); !st)
    return std::unexpected(st.error().WithContext("clearing the write intent of " + id.ToString()));
  return Ok();
}

Status StorageCatalog::DeleteIntentObjects(std::vector<std::string> objects) {
  // The deferred clears are taken out of the list, not held under the lock across the request:
  // a commit clearing its intent meanwhile adds to a fresh list instead of waiting a round trip.
  std::vector<std::string> deferred;
  {
    std::lock_guard lock(intent_mu_);
    deferred.swap(deferred_intent_clears_);
  }
  objects.insert(objects.end(), deferred.begin(), deferred.end());
  if (objects.empty()) return Ok();
  ++intent_requests_;
  if (Status st = io_->DeleteFiles(objects); !st) {
    std::lock_guard lock(intent_mu_);  // kept for a later try
    deferred_intent_clears_.insert(deferred_intent_clears_.end(), deferred.begin(), deferred.end());
    return std::unexpected(st.error());
  }
  return Ok();
}

Result<std::vector<WriteIntentBatch>> StorageCatalog::ListIntents(const TableIdentifier& id,
                                                                  const std::string& metadata_folder) {
  // This process's own landed writes show no intent.
  if (Status st = DeleteIntentObjects({}); !st)
    return std::unexpected(st.error().WithContext("clearing the write intents of " + id.ToString()));
  ++intent_requests_;
  FLOE_ASSIGN_OR_RETURN(auto listed, io_->ListPrefix(IntentFolder(metadata_folder)));
  std::vector<WriteIntentBatch> out;
  for (const auto& f : listed) {
    if (!IsIntentObject(f.path)) continue;
    // <attempt id>-<batch>.txt; the attempt id is a UUID, itself holding dashes.
    const std::string name = f.path.substr(f.path.rfind('/') + 1);
    const size_t dash = name.rfind('-');
    int64_t batch = -1;
    if (dash != std::string::npos) {
      const char* begin = name.data() + dash + 1;
      const char* end = name.data() + name.size() - 4;  // ".txt"
      auto [p, ec] = std::from_chars(begin, end, batch);
      if (ec != std::errc() || p != end) batch = -1;
    }
    if (batch < 0) return Corrupt("write intent " + f.path + " of " + id.ToString() + ": the name is not <attempt>-<batch>.txt");
    ++intent_requests_;
    auto text = io_->ReadAll(f.path);
    if (!text) {
      if (text.error().kind == ErrorKind::kNotFound) continue;  // cleared since the listing
      return std::unexpected(text.error());
    }
    FLOE_ASSIGN_OR_RETURN(WriteIntentBatch parsed, ParseIntentText(*text, f.path));
    parsed.attempt_id = name.substr(0, dash);
    parsed.batch_number = batch;
    out.push_back(std::move(parsed));
  }
  return out;
}

}  // namespace floe
