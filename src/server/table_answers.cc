#include "server/table_answers.h"

#include <set>

#include <nlohmann/json.hpp>

#include "meta/metadata_json.h"
#include "util/sha256.h"

namespace floe {

Result<SnapshotsMode> ParseSnapshotsMode(std::string_view value) {
  if (value.empty() || value == "all") return SnapshotsMode::kAll;
  if (value == "refs") return SnapshotsMode::kRefs;
  return InvalidArgument("query parameter snapshots must be 'all' or 'refs', not '" + std::string(value) + "'");
}

std::string TableETag(const SharedTable& table, SnapshotsMode mode) {
  const std::string uuid = table.metadata ? table.metadata->table_uuid : "";
  const std::string digest =
      Sha256Hex(uuid + "\n" + table.metadata_location + "\n" + (mode == SnapshotsMode::kRefs ? "refs" : "all"));
  return "\"" + digest.substr(0, 32) + "\"";
}

bool IfNoneMatchHits(std::string_view header, const std::string& etag) {
  size_t pos = 0;
  while (pos <= header.size()) {
    size_t comma = header.find(',', pos);
    if (comma == std::string_view::npos) comma = header.size();
    std::string_view tag = header.substr(pos, comma - pos);
    while (!tag.empty() && (tag.front() == ' ' || tag.front() == '\t')) tag.remove_prefix(1);
    while (!tag.empty() && (tag.back() == ' ' || tag.back() == '\t')) tag.remove_suffix(1);
    if (tag == "*") return true;
    // RFC 9110: If-None-Match compares weakly, so W/"x" matches "x".
    if (tag.size() > 2 && tag.substr(0, 2) == "W/") tag.remove_prefix(2);
    if (tag == etag) return true;
    pos = comma + 1;
  }
  return false;
}

std::string MetadataAnswerJson(const TableMetadata& metadata, SnapshotsMode mode) {
  nlohmann::json j = TableMetadataToJson(metadata);
  if (mode == SnapshotsMode::kRefs && j.contains("snapshots") && j["snapshots"].is_array()) {
    std::set<int64_t> referenced;
    for (const auto& [name, ref] : metadata.refs) referenced.insert(ref.snapshot_id);
    nlohmann::json kept = nlohmann::json::array();
    for (auto& snapshot : j["snapshots"]) {
      auto id = snapshot.find("snapshot-id");
      if (id != snapshot.end() && id->is_number_integer() && referenced.contains(id->get<int64_t>())) {
        kept.push_back(std::move(snapshot));
      }
    }
    j["snapshots"] = std::move(kept);
  }
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

TableAnswers::TableAnswers(std::shared_ptr<MetadataCache> documents, size_t max_entries)
    : documents_(std::move(documents)), max_entries_(max_entries == 0 ? 1 : max_entries) {}

std::shared_ptr<const std::string> TableAnswers::MetadataJson(const SharedTable& table, SnapshotsMode mode) {
  const auto same_document = [&](const Entry& e) {
    return e.location == table.metadata_location && e.mode == mode && !e.document.owner_before(table.metadata) &&
           !table.metadata.owner_before(e.document);
  };
  {
    std::lock_guard lock(mu_);
    for (auto it = lru_.begin(); it != lru_.end(); ++it) {
      if (same_document(*it)) {
        lru_.splice(lru_.begin(), lru_, it);
        return lru_.front().text;
      }
    }
  }
  // Made outside the lock: a long history takes milliseconds, and other tables' answers wait
  // for nothing. Two requests racing for the same new document may both make it; one is kept.
  std::shared_ptr<const std::string> text;
  bool made = false;
  if (mode == SnapshotsMode::kAll && documents_) {
    // The text this process wrote the document with, when it did: the file's own bytes.
    if (auto written = documents_->FindText(table.metadata_location); written && written->reparses_exactly) {
      text = std::shared_ptr<const std::string>(written, &written->text);
    }
  }
  if (!text) {
    text = std::make_shared<const std::string>(MetadataAnswerJson(*table.metadata, mode));
    made = true;
  }
  std::lock_guard lock(mu_);
  if (made) ++serialized_;
  for (auto it = lru_.begin(); it != lru_.end(); ++it) {
    if (same_document(*it)) return it->text;
  }
  lru_.push_front(Entry{table.metadata_location, mode, table.metadata, text});
  while (lru_.size() > max_entries_) lru_.pop_back();
  return text;
}

size_t TableAnswers::serialized() const {
  std::lock_guard lock(mu_);
  return serialized_;
}

}  // namespace floe
