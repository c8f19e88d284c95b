// The SQL catalog's write intents (catalog/intent_store.h): one row per recorded batch.
#include <charconv>

#include "catalog/sql/sql_catalog.h"
#include "util/clock.h"

namespace floe {
namespace {

constexpr const char* kCreateIntents =
    "CREATE TABLE IF NOT EXISTS floe_write_intents (\n"
    "  catalog_name VARCHAR(255) NOT NULL,\n"
    "  table_namespace VARCHAR(255) NOT NULL,\n"
    "  table_name VARCHAR(255) NOT NULL,\n"
    "  attempt_id VARCHAR(64) NOT NULL,\n"
    "  batch_number VARCHAR(20) NOT NULL,\n"
    "  created_ms VARCHAR(20) NOT NULL,\n"
    "  paths TEXT NOT NULL,\n"
    "  PRIMARY KEY (catalog_name, attempt_id, batch_number)\n"
    ")";

Result<int64_t> ParseCount(const SqlValue& v, const std::string& what) {
  int64_t n = 0;
  if (!v) return Corrupt("floe_write_intents: " + what + " is NULL");
  auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
  if (ec != std::errc() || p != v->data() + v->size() || n < 0)
    return Corrupt("floe_write_intents: " + what + " '" + *v + "' is not a count");
  return n;
}

}  // namespace

constexpr size_t kMaxDeferredClears = 64;

SqlCatalog::~SqlCatalog() {
  std::lock_guard lock(mu_);
  if (!deferred_clears_.empty() && conn_) (void)InWriteTransaction([&] { return DeleteDeferredClearsLocked(); });
}

Status SqlCatalog::DeleteDeferredClearsLocked() {
  for (const auto& attempt_id : deferred_clears_)
    FLOE_RETURN_IF_ERROR(conn_->Execute("DELETE FROM floe_write_intents WHERE catalog_name = ? AND attempt_id = ?",
                                        {name_, attempt_id}));
  deferred_clears_.clear();
  return Ok();
}

Status SqlCatalog::EnsureIntentTableLocked() {
  if (intent_table_ready_) return Ok();
  FLOE_ASSIGN_OR_RETURN(bool exists, conn_->HasColumn("floe_write_intents", "paths"));
  if (!exists) FLOE_RETURN_IF_ERROR(conn_->CreateTableIfAbsent(kCreateIntents));
  intent_table_ready_ = true;
  return Ok();
}

Status SqlCatalog::RecordIntent(const TableIdentifier& id, const std::string&, const std::string& attempt_id,
                                int64_t batch_number, const std::vector<std::string>& paths) {
  std::string text;
  for (const auto& p : paths) text += p + "\n";
  std::lock_guard lock(mu_);
  FLOE_RETURN_IF_ERROR(EnsureIntentTableLocked());
  ++intent_requests_;
  auto insert = [&]() -> Status {
    FLOE_RETURN_IF_ERROR(conn_->Execute(
        "INSERT INTO floe_write_intents (catalog_name, table_namespace, table_name, attempt_id, batch_number, "
        "created_ms, paths) VALUES (?, ?, ?, ?, ?, ?, ?)",
        {name_, NamespaceToString(id.ns), id.name, attempt_id, std::to_string(batch_number),
         std::to_string(NowMillis()), text}));
    return Ok();
  };
  // Durable when it returns, before any of the files exists; the deferred clears ride along
  // (kept for a later try if the transaction fails).
  std::vector<std::string> clearing = deferred_clears_;
  Status inserted = clearing.empty() ? insert() : InWriteTransaction([&]() -> Status {
    FLOE_RETURN_IF_ERROR(insert());
    return DeleteDeferredClearsLocked();
  });
  if (!inserted) {
    deferred_clears_ = std::move(clearing);
    return std::unexpected(inserted.error().WithContext("recording the write intent of " + id.ToString()));
  }
  return Ok();
}

Status SqlCatalog::ClearIntent(const TableIdentifier&, const std::string&, const std::string& attempt_id,
                               int64_t) {
  std::lock_guard lock(mu_);
  deferred_clears_.push_back(attempt_id);
  if (deferred_clears_.size() < kMaxDeferredClears) return Ok();
  // Accepted is Ok whatever the delete does: a failed one stays deferred for the next try. An
  // error would keep the caller's attempt id for its next records, which a later delete of
  // this id would then clear before their attempt landed.
  if (EnsureIntentTableLocked()) {
    ++intent_requests_;
    (void)InWriteTransaction([&] { return DeleteDeferredClearsLocked(); });
  }
  return Ok();
}

Status SqlCatalog::ClearIntents(const TableIdentifier& id, const std::string&,
                                const std::vector<std::pair<std::string, int64_t>>& attempts) {
  if (attempts.empty()) return Ok();
  std::lock_guard lock(mu_);
  FLOE_RETURN_IF_ERROR(EnsureIntentTableLocked());
  ++intent_requests_;
  Status cleared = InWriteTransaction([&]() -> Status {
    for (const auto& [attempt_id, batches] : attempts)
      FLOE_RETURN_IF_ERROR(conn_->Execute("DELETE FROM floe_write_intents WHERE catalog_name = ? AND attempt_id = ?",
                                          {name_, attempt_id}));
    return Ok();
  });
  if (!cleared) return std::unexpected(cleared.error().WithContext("clearing the write intents of " + id.ToString()));
  return Ok();
}

Result<std::vector<WriteIntentBatch>> SqlCatalog::ListIntents(const TableIdentifier& id, const std::string&) {
  std::lock_guard lock(mu_);
  FLOE_ASSIGN_OR_RETURN(bool exists, conn_->HasColumn("floe_write_intents", "paths"));
  if (!exists) return std::vector<WriteIntentBatch>{};  // no write recorded one yet
  ++intent_requests_;
  if (!deferred_clears_.empty()) {
    // This process's own landed writes show no intent.
    Status cleared = InWriteTransaction([&] { return DeleteDeferredClearsLocked(); });
    if (!cleared) return std::unexpected(cleared.error().WithContext("clearing the write intents of " + id.ToString()));
  }
  FLOE_ASSIGN_OR_RETURN(auto rows, conn_->Query("SELECT attempt_id, batch_number, created_ms, paths FROM "
                                                "floe_write_intents WHERE catalog_name = ? AND table_namespace = ? "
                                                "AND table_name = ?",
                                                {name_, NamespaceToString(id.ns), id.name}));
  std::vector<WriteIntentBatch> out;
  for (const auto& row : rows) {
    if (row.size() != 4 || !row[0] || !row[3]) return Corrupt("floe_write_intents: a row of " + id.ToString() + " is incomplete");
    WriteIntentBatch batch;
    batch.attempt_id = *row[0];
    FLOE_ASSIGN_OR_RETURN(batch.batch_number, ParseCount(row[1], "batch_number of attempt " + batch.attempt_id));
    FLOE_ASSIGN_OR_RETURN(batch.created_ms, ParseCount(row[2], "created_ms of attempt " + batch.attempt_id));
    batch.where = "floe_write_intents row (" + batch.attempt_id + ", " + *row[1] + ") in " + database_;
    std::string_view text = *row[3];
    while (!text.empty()) {
      const size_t end = text.find('\n');
      std::string_view line = text.substr(0, end);
      if (!line.empty()) batch.paths.emplace_back(line);
      if (end == std::string_view::npos) break;
      text.remove_prefix(end + 1);
    }
    out.push_back(std::move(batch));
  }
  return out;
}

}  // namespace floe
