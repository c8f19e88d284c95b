#include "scan/delete_index.h"

#include <algorithm>

#include "scan/partition_key.h"

namespace floe {

namespace {

// The one data file a position delete file refers to, when it says so.
std::optional<std::string> SingleReferencedFile(const DataFile& f) {
  if (f.referenced_data_file) return *f.referenced_data_file;
  auto lo = f.lower_bounds.find(kDeleteFilePathFieldId);
  auto hi = f.upper_bounds.find(kDeleteFilePathFieldId);
  // Equal bounds mean every row names that one path. A truncated upper bound is the prefix with
  // its last character incremented, so it never equals the lower bound: equal bounds are exact.
  if (lo != f.lower_bounds.end() && hi != f.upper_bounds.end() && lo->second == hi->second) {
    return lo->second;
  }
  return std::nullopt;
}

}  // namespace

void DeleteIndex::Sort(Bucket* bucket) {
  auto by_seq = [](const ManifestEntry& a, const ManifestEntry& b) {
    return DataSequenceNumber(a) < DataSequenceNumber(b);
  };
  std::stable_sort(bucket->position.begin(), bucket->position.end(), by_seq);
  std::stable_sort(bucket->equality.begin(), bucket->equality.end(), by_seq);
}

Result<DeleteIndex> DeleteIndex::Build(const TableMetadata& table, std::vector<ManifestEntry> entries) {
  DeleteIndex index;
  for (auto& e : entries) {
    const DataFile& f = e.file;
    if (f.content == FileContent::kData) continue;
    // A deletion vector (format 3) is a position delete of exactly one data file.
    if (f.file_format == FileFormat::kPuffin &&
        (f.content != FileContent::kPositionDeletes || !f.referenced_data_file || !f.content_offset ||
         !f.content_size_in_bytes))
      return Corrupt("deletion vector in " + f.file_path +
                     " lacks referenced_data_file, content_offset or content_size_in_bytes, or is no position delete");
    const PartitionSpec* spec = table.SpecById(f.spec_id);
    if (!spec)
      return Corrupt("delete file " + f.file_path + " names partition spec " + std::to_string(f.spec_id) +
                     ", which the table metadata does not have");
    bool is_position = f.content == FileContent::kPositionDeletes;
    if (!is_position && f.equality_ids.empty())
      return Corrupt("equality delete file " + f.file_path + " lists no equality field ids");

    Bucket* bucket = nullptr;
    if (is_position) {
      if (auto path = SingleReferencedFile(f)) bucket = &index.by_path_[*path];
    }
    // Only an equality delete of an unpartitioned spec is global: a position delete applies
    // within its own spec and partition, whatever the spec (the spec's "Scan Planning").
    if (!bucket)
      bucket = !is_position && spec->is_unpartitioned() ? &index.global_
                                                         : &index.by_partition_[PartitionKey(f.spec_id, f.partition)];
    (is_position ? bucket->position : bucket->equality).push_back(std::move(e));
    ++index.size_;
  }
  Sort(&index.global_);
  for (auto& [key, b] : index.by_partition_) Sort(&b);
  for (auto& [key, b] : index.by_path_) Sort(&b);
  return index;
}

void DeleteIndex::Collect(const Bucket& bucket, int64_t data_seq, std::vector<ManifestEntry>* out) {
  // Position deletes: seq(D) >= seq(F). The list is sorted, so skip the prefix below data_seq.
  auto pos_begin = std::lower_bound(bucket.position.begin(), bucket.position.end(), data_seq,
                                    [](const ManifestEntry& e, int64_t s) { return DataSequenceNumber(e) < s; });
  out->insert(out->end(), pos_begin, bucket.position.end());
  // Equality deletes: seq(D) > seq(F).
  auto eq_begin = std::upper_bound(bucket.equality.begin(), bucket.equality.end(), data_seq,
                                   [](int64_t s, const ManifestEntry& e) { return s < DataSequenceNumber(e); });
  out->insert(out->end(), eq_begin, bucket.equality.end());
}

std::vector<ManifestEntry> DeleteIndex::ForDataFile(const DataFile& file, int64_t data_sequence_number) const {
  std::vector<ManifestEntry> out;
  if (size_ == 0) return out;
  Collect(global_, data_sequence_number, &out);
  if (!by_partition_.empty()) {
    auto it = by_partition_.find(PartitionKey(file.spec_id, file.partition));
    if (it != by_partition_.end()) Collect(it->second, data_sequence_number, &out);
  }
  if (!by_path_.empty()) {
    auto it = by_path_.find(file.file_path);
    if (it != by_path_.end()) Collect(it->second, data_sequence_number, &out);
  }
  std::stable_sort(out.begin(), out.end(), [](const ManifestEntry& a, const ManifestEntry& b) {
    return DataSequenceNumber(a) < DataSequenceNumber(b);
  });
  return out;
}

}  // namespace floe
