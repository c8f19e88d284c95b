#include "catalog/intent_store.h"

#include <charconv>

#include "catalog/commit.h"
#include "catalog/document_namer.h"
#include "util/uuid.h"

namespace floe {
namespace {

constexpr std::string_view kIntentHeader = "floe-write-intent 1";

// One write's intent: batch after batch under one attempt id.
class CatalogIntentLog : public IntentLog {
 public:
  CatalogIntentLog(IntentStore& store, TableIdentifier id, std::string metadata_folder)
      : store_(store), id_(std::move(id)), folder_(std::move(metadata_folder)), attempt_id_(RandomUuidString()) {}

  Status Record(const std::vector<std::string>& paths) override {
    FLOE_RETURN_IF_ERROR(store_.RecordIntent(id_, folder_, attempt_id_, batches_, paths));
    ++batches_;
    return Ok();
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
  if (!namer->recording()) return namer;
  const std::string folder = MetadataFolder(table);
  // The commit's new manifests (one per content and spec, usually one or two) and its manifest
  // list join the write's first record (commit/snapshot_operation.cc names them): one durable write
  // covers a small append's data file, manifest and list.
  namer->Anticipate(folder, "", "-m0.avro", 2);
  namer->Anticipate(folder, kRecordedManifestListPrefix, ".avro", 1);
  // A catalog that writes its document before a separate swap (SQL) names it through the
  // intent too (catalog/document_namer.h): its likely name, the version after the current one,
  // rides along. The current document is its log's last entry plus one (the catalog numbers
  // each commit so); a commit that ends up with another version records its name on its own.
  const PointerStore* pointers = catalog.capabilities().pointer_store;
  if (pointers && !pointers->DocumentIsPointer()) {
    const int64_t previous = table.metadata_log.empty() ? -1 : ParseMetadataVersion(table.metadata_log.back().metadata_file);
    if (table.metadata_log.empty() || previous >= 0)
      namer->Anticipate(folder, VersionedMetadataPrefix(previous + 2), kMetadataSuffix, 1);
  }
  return namer;
}

std::string IntentText(int64_t created_ms, const std::vector<std::string>& paths) {
  std::string out(kIntentHeader);
  out += "\ncreated-ms " + std::to_string(created_ms) + "\n";
  for (const auto& p : paths) out += p + "\n";
  return out;
}

Result<WriteIntentBatch> ParseIntentText(std::string_view text, const std::string& where) {
  auto corrupt = [&](const std::string& why) { return Corrupt("write intent " + where + ": " + why); };
  WriteIntentBatch batch;
  batch.where = where;
  size_t line_number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    if (end == std::string_view::npos) return corrupt("truncated (no end of line after line " + std::to_string(line_number + 1) + ")");
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end + 1);
    ++line_number;
    if (line_number == 1) {
      if (line != kIntentHeader) return corrupt("first line is not '" + std::string(kIntentHeader) + "'");
    } else if (line_number == 2) {
      constexpr std::string_view kCreated = "created-ms ";
      if (!line.starts_with(kCreated)) return corrupt("second line is not 'created-ms <ms>'");
      line.remove_prefix(kCreated.size());
      auto [p, ec] = std::from_chars(line.data(), line.data() + line.size(), batch.created_ms);
      if (ec != std::errc() || p != line.data() + line.size() || batch.created_ms < 0)
        return corrupt("created-ms '" + std::string(line) + "' is not a time in ms");
    } else {
      if (line.empty()) return corrupt("empty path on line " + std::to_string(line_number));
      batch.paths.emplace_back(line);
    }
  }
  if (line_number < 2) return corrupt("missing its header");
  return batch;
}

bool IsIntentObject(std::string_view path) {
  return path.find("/floe-intents/") != std::string_view::npos && path.ends_with(".txt");
}

}  // namespace floe
