#include "io/file_namer.h"

#include <algorithm>

#include "util/uuid.h"

namespace floe {

FileNamer::FileNamer(std::unique_ptr<IntentLog> log) : log_(std::move(log)) {}

Result<std::string> FileNamer::NewPath(const std::string& folder, const std::string& prefix,
                                       const std::string& suffix) {
  auto name = [&] { return folder + "/" + prefix + RandomUuidString() + suffix; };
  if (!log_) return name();
  std::lock_guard lock(mu_);
  Reserved& r = reserved_[folder + '\0' + prefix + '\0' + suffix];
  if (r.names.empty()) {
    std::vector<std::string> batch;
    for (size_t i = 0; i < r.next_batch; ++i) batch.push_back(name());
    FLOE_RETURN_IF_ERROR(log_->Record(batch));
    ++records_;
    r.names.assign(batch.begin(), batch.end());
    r.next_batch = std::min(r.next_batch * 2, kMaxBatch);
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
