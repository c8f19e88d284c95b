// Which delete files apply to which data file (the table spec's "Scan Planning" rules).
//
//   position delete D applies to data file F  iff  seq(F) <= seq(D), and D is in F's partition
//                                                  (same spec id and tuple), whatever the spec;
//   equality delete D applies to data file F  iff  seq(F) <  seq(D), and D is in F's partition
//                                                  or D's spec is unpartitioned (no fields, or
//                                                  only void ones): a global delete.
//
// seq is the data sequence number. A position delete may be written in the same commit as the
// data file it deletes from (hence <=); an equality delete only removes rows committed before
// it (hence <), so rows a later commit re-inserts survive. A position delete that names its one
// data file (referenced_data_file, or equal lower and upper bounds on file_path) is indexed by
// that path, which keeps a task's delete list short without changing what the delete removes.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "meta/data_file.h"
#include "meta/table_metadata.h"

namespace floe {

class DeleteIndex {
 public:
  DeleteIndex() = default;

  // `entries` are live delete entries (status ADDED or EXISTING) with inherited sequence
  // numbers. A spec id unknown to `table` is Corrupt, and so is a deletion vector (Puffin) that
  // lacks its referenced data file or its blob's offset and size.
  static Result<DeleteIndex> Build(const TableMetadata& table, std::vector<ManifestEntry> entries);

  // The delete entries that apply to `file`, whose data sequence number is `data_sequence_number`,
  // in ascending sequence order.
  std::vector<ManifestEntry> ForDataFile(const DataFile& file, int64_t data_sequence_number) const;

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

 private:
  // Delete entries sorted by data sequence number.
  struct Bucket {
    std::vector<ManifestEntry> position;
    std::vector<ManifestEntry> equality;
  };
  static void Sort(Bucket* bucket);
  static void Collect(const Bucket& bucket, int64_t data_seq, std::vector<ManifestEntry>* out);

  Bucket global_;                                       // equality deletes of unpartitioned specs
  std::unordered_map<std::string, Bucket> by_partition_;  // PartitionKey(spec id, tuple)
  std::unordered_map<std::string, Bucket> by_path_;       // position deletes of a single file
  size_t size_ = 0;
};

// The data sequence number a live manifest entry carries after inheritance (0 when absent, as
// for v1 tables).
inline int64_t DataSequenceNumber(const ManifestEntry& e) { return e.sequence_number.value_or(0); }

}  // namespace floe
