#include "catalog/intent_store.h"

#include "catalog/commit.h"
#include "table_files/metadata_location.h"
#include "util/uuid.h"

namespace floe {
namespace {

// One write's intent: batch after batch under one attempt id.
class CatalogIntentLog : public IntentLog {
 public:
  CatalogIntentLog(IntentStore& store, TableIdentifier id, std::string metadata_folder)
      : store_(store), id_(std::move(id)), folder_(std::move(metadata_folder)), attempt_id_(RandomUuidString()) {}

  Status Record(const std::vector<std::string>& paths) override {
    // A batch number is used once, whatever its record's answer: a record whose answer was lost
    // (the database went down after its insert landed) may be there, so the next record takes
    // the next number rather than colliding with it, and Clear covers it too.
    const int64_t batch = batches_++;
    return store_.RecordIntent(id_, folder_, attempt_id_, batch, paths);
  }
  Status Clear() override {
    if (batches_ == 0) return Ok();
    FLOE_RETURN_IF_ERROR(store_.ClearIntent(id_, folder_, attempt_id_, batches_));
    // Later names start a record of their own, under a new attempt id.
    attempt_id_ = RandomUuidString();
    batches_ = 0;
    return Ok();
  }

 private:
  IntentStore& store_;
  TableIdentifier id_;
  std::string folder_;
  std::string attempt_id_;
  int64_t batches_ = 0;
};

}  // namespace

IntentStore* IntentStoreOf(Catalog& catalog) { return catalog.capabilities().intent_store; }

std::unique_ptr<FileNamer> NewIntentNamer(Catalog& catalog, const TableIdentifier& id, const TableMetadata& table) {
  IntentStore* store = IntentStoreOf(catalog);
  if (!store || table.Property(kWriteIntentsEnabled, "true") == "false") return std::make_unique<FileNamer>();
  return std::make_unique<FileNamer>(std::make_unique<CatalogIntentLog>(*store, id, MetadataFolder(table)));
}

std::unique_ptr<FileNamer> NewWriteNamer(Catalog& catalog, const TableIdentifier& id, const TableMetadata& table) {
  auto namer = NewIntentNamer(catalog, id, table);
  // A catalog that writes its document before a separate swap (SQL) names it through the
  // intent too (catalog/document_namer.h).
  const PointerStore* pointers = catalog.capabilities().pointer_store;
  AnticipateCommitFiles(*namer, table, pointers && !pointers->DocumentIsPointer());
  return namer;
}

}  // namespace floe
