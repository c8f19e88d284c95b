// Snapshot summaries with Iceberg's standard keys (added-data-files, total-records, ...).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "meta/data_file.h"
#include "meta/snapshot.h"

namespace floe {

class SummaryBuilder {
 public:
  void AddedFile(const DataFile& f);
  void RemovedFile(const DataFile& f);
  void Set(const std::string& key, const std::string& value) { extra_[key] = value; }

  // The summary for a snapshot whose parent had `parent_summary` (totals carry forward).
  std::map<std::string, std::string> Build(const std::string& operation,
                                           const std::map<std::string, std::string>* parent_summary) const;

  int64_t added_data_files() const { return added_data_files_; }
  int64_t added_delete_files() const { return added_pos_delete_files_ + added_eq_delete_files_ + added_dvs_; }
  int64_t removed_data_files() const { return removed_data_files_; }

 private:
  int64_t added_data_files_ = 0, removed_data_files_ = 0;
  int64_t added_pos_delete_files_ = 0, added_eq_delete_files_ = 0;
  int64_t removed_pos_delete_files_ = 0, removed_eq_delete_files_ = 0;
  // Deletion vectors count as delete files but not as position delete files, as in Iceberg
  // Java's summaries (added-dvs, removed-dvs); their size is their blob's, not the Puffin file's.
  int64_t added_dvs_ = 0, removed_dvs_ = 0;
  int64_t added_records_ = 0, deleted_records_ = 0;
  int64_t added_files_size_ = 0, removed_files_size_ = 0;
  int64_t added_pos_deletes_ = 0, removed_pos_deletes_ = 0;
  int64_t added_eq_deletes_ = 0, removed_eq_deletes_ = 0;
  std::map<std::string, std::string> extra_;
};

}  // namespace floe
