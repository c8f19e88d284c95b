#include "commit/snapshot_summary.h"

namespace floe {

void SummaryBuilder::AddedFile(const DataFile& f) {
  if (IsDeletionVector(f)) {
    ++added_dvs_;
    added_pos_deletes_ += f.record_count;
    added_files_size_ += f.content_size_in_bytes.value_or(0);
    return;
  }
  added_files_size_ += f.file_size_in_bytes;
  switch (f.content) {
    case FileContent::kData:
      ++added_data_files_;
      added_records_ += f.record_count;
      break;
    case FileContent::kPositionDeletes:
      ++added_pos_delete_files_;
      added_pos_deletes_ += f.record_count;
      break;
    case FileContent::kEqualityDeletes:
      ++added_eq_delete_files_;
      added_eq_deletes_ += f.record_count;
      break;
  }
}

void SummaryBuilder::RemovedFile(const DataFile& f) {
  if (IsDeletionVector(f)) {
    ++removed_dvs_;
    removed_pos_deletes_ += f.record_count;
    removed_files_size_ += f.content_size_in_bytes.value_or(0);
    return;
  }
  removed_files_size_ += f.file_size_in_bytes;
  switch (f.content) {
    case FileContent::kData:
      ++removed_data_files_;
      deleted_records_ += f.record_count;
      break;
    case FileContent::kPositionDeletes:
      ++removed_pos_delete_files_;
      removed_pos_deletes_ += f.record_count;
      break;
    case FileContent::kEqualityDeletes:
      ++removed_eq_delete_files_;
      removed_eq_deletes_ += f.record_count;
      break;
  }
}

std::map<std::string, std::string> SummaryBuilder::Build(
    const std::string& operation, const std::map<std::string, std::string>* parent) const {
  std::map<std::string, std::string> s = extra_;
  s["operation"] = operation;
  auto put = [&](const char* key, int64_t v) {
    if (v != 0) s[key] = std::to_string(v);
  };
  put("added-data-files", added_data_files_);
  put("deleted-data-files", removed_data_files_);
  put("added-delete-files", added_pos_delete_files_ + added_eq_delete_files_ + added_dvs_);
  put("removed-delete-files", removed_pos_delete_files_ + removed_eq_delete_files_ + removed_dvs_);
  put("added-dvs", added_dvs_);
  put("removed-dvs", removed_dvs_);
  put("added-position-delete-files", added_pos_delete_files_);
  put("removed-position-delete-files", removed_pos_delete_files_);
  put("added-equality-delete-files", added_eq_delete_files_);
  put("removed-equality-delete-files", removed_eq_delete_files_);
  put("added-records", added_records_);
  put("deleted-records", deleted_records_);
  put("added-files-size", added_files_size_);
  put("removed-files-size", removed_files_size_);
  put("added-position-deletes", added_pos_deletes_);
  put("removed-position-deletes", removed_pos_deletes_);
  put("added-equality-deletes", added_eq_deletes_);
  put("removed-equality-deletes", removed_eq_deletes_);

  // Totals carry forward from the parent; a parent without totals (written by an engine that
  // omits them) leaves them out rather than guessing.
  auto total = [&](const char* key, int64_t delta) {
    int64_t base = 0;
    if (parent) {
      auto it = parent->find(key);
      if (it == parent->end()) return;
      try {
        base = std::stoll(it->second);
      } catch (...) {
        return;
      }
    }
    s[key] = std::to_string(base + delta);
  };
  total("total-records", added_records_ - deleted_records_);
  total("total-files-size", added_files_size_ - removed_files_size_);
  total("total-data-files", added_data_files_ - removed_data_files_);
  total("total-delete-files", added_pos_delete_files_ + added_eq_delete_files_ + added_dvs_ -
                                  removed_pos_delete_files_ - removed_eq_delete_files_ - removed_dvs_);
  total("total-position-deletes", added_pos_deletes_ - removed_pos_deletes_);
  total("total-equality-deletes", added_eq_deletes_ - removed_eq_deletes_);
  return s;
}

}  // namespace floe
