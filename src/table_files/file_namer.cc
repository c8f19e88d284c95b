#include "table_files/file_namer.h"

#include <algorithm>

#include "util/uuid.h"

namespace floe {

FileNamer::FileNamer(std::unique_ptr<IntentLog> log) : log_(std::move(log)) {}

namespace {

std::string Key(const std::string& folder, const std::string& prefix, const std::string& suffix) {
  return folder + '\0' + prefix + '\0' + suffix;
}

std::string Name(const std::string& folder, const std::string& prefix, const std::string& suffix) {
  return folder + "/" + prefix + RandomUuidString() + suffix;
}

}  // namespace

void FileNamer::Anticipate(const std::string& folder, const std::string& prefix, const std::string& suffix,
                           size_t count) {
  if (!log_ || count == 0) return;
  std::lock_guard lock(mu_);
  anticipated_.push_back(Anticipated{folder, prefix, suffix, count});
}

Result<std::string> FileNamer::NewPath(const std::string& folder, const std::string& prefix,
                                       const std::string& suffix) {
  if (!log_) return Name(folder, prefix, suffix);
  std::lock_guard lock(mu_);
  Reserved& r = reserved_[Key(folder, prefix, suffix)];
  if (r.names.empty()) {
    std::vector<std::string> batch;
    for (size_t i = 0; i < r.next_batch; ++i) batch.push_back(Name(folder, prefix, suffix));
    // The anticipated names of kinds with none reserved ride along (a kind still holding names
    // needs none yet).
    std::vector<std::pair<Reserved*, std::vector<std::string>>> riding;
    for (const Anticipated& a : anticipated_) {
      Reserved& other = reserved_[Key(a.folder, a.prefix, a.suffix)];
      if (&other == &r || !other.names.empty()) continue;
      auto& names = riding.emplace_back(&other, std::vector<std::string>{}).second;
      for (size_t i = 0; i < a.count; ++i) names.push_back(Name(a.folder, a.prefix, a.suffix));
      batch.insert(batch.end(), names.begin(), names.end());
    }
    FLOE_RETURN_IF_ERROR(log_->Record(batch));
    ++records_;
    r.names.assign(batch.begin(), batch.begin() + static_cast<std::ptrdiff_t>(r.next_batch));
    r.next_batch = std::min(r.next_batch * 2, kMaxBatch);
    for (auto& [other, names] : riding) {
      other->names.assign(names.begin(), names.end());
      other->next_batch = std::min(std::max(other->next_batch, names.size()) * 2, kMaxBatch);
    }
  }
  std::string path = std::move(r.names.front());
  r.names.pop_front();
  return path;
}

Status FileNamer::Clear() {
  std::lock_guard lock(mu_);
  reserved_.clear();
  if (!log_) return Ok();
  return log_->Clear();
}

int64_t FileNamer::records() const {
  std::lock_guard lock(mu_);
  return records_;
}

}  // namespace floe
