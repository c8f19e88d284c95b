// Applying delete files to the rows of one data file.
//
// A task's delete files are read into two kinds of sets: the positions deleted from this data
// file (position deletes), and per distinct list of equality field ids, the value tuples deleted
// (equality deletes). A data row survives when its position is not in the first and its values
// are in none of the second. Which delete files a data file gets is DeleteIndex's job; once a
// delete file applies, every row of it applies (except position rows naming another file).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "types/column_batch.h"

namespace floe {

// Positions deleted from one data file.
class PositionDeleteSet {
 public:
  // Adds the rows of a position delete batch (columns by field id: file_path 2147483546, pos
  // 2147483545) whose file_path is `data_file_path`. Paths compare as written, byte for byte.
  // A row with a null file_path or pos deletes nothing and is reported (util/warning.h) naming
  // `delete_file_path`.
  Status Add(const ColumnBatch& deletes, std::string_view data_file_path, std::string_view delete_file_path = {});
  // Adds positions of the data file (a deletion vector's, ascending or not).
  void AddPositions(const std::vector<int64_t>& positions);
  bool empty() const { return positions_.empty(); }
  size_t size() const { return positions_.size(); }
  // The deleted positions, ascending (one deleted by two delete files may appear twice).
  const std::vector<int64_t>& positions() const { return positions_; }

  // Clears keep[i] for every row i whose file position (first_position + i) is deleted. Const:
  // the slices of one data file share a set across threads (task_slices.h).
  void Apply(int64_t first_position, std::vector<uint8_t>* keep) const;

 private:
  std::vector<int64_t> positions_;  // ascending after every Add
};

// Value tuples deleted by equality delete files that share one list of equality field ids.
//
// Values compare the way Iceberg's equality deletes do: by value after type promotion (an int
// written before a column became long equals the same long), null equal to null, floats by
// their bits (NaN matches NaN; -0.0 does not match 0.0).
//
// Apply tests most rows without building their keys: it hashes the key columns of the whole
// batch column by column and builds a row's exact key only when that hash is one of the delete
// keys' hashes. The hash is a function of the values the key encoding holds, so equal keys have
// equal hashes and a hash miss proves a row is not deleted; a hit is decided by the exact key.
class EqualityDeleteSet {
 public:
  // `hash_bits` below 64 keeps only that many low bits of each hash: a test hook that makes
  // most rows collide, so the exact test after a hash hit is exercised.
  explicit EqualityDeleteSet(std::vector<int> field_ids, int hash_bits = 64);

  const std::vector<int>& field_ids() const { return field_ids_; }
  bool empty() const { return keys_.empty(); }
  size_t size() const { return keys_.size(); }

  // Adds every row of an equality delete batch; it must have a column for each field id.
  Status Add(const ColumnBatch& deletes, std::string_view delete_file_path);
  // Clears keep[i] for every row of `data` whose values are in the set; `data` must have a
  // column for each field id.
  Status Apply(const ColumnBatch& data, std::vector<uint8_t>* keep) const;

 private:
  Result<std::vector<const Column*>> KeyColumns(const ColumnBatch& batch, std::string_view what) const;
  // The key hash of every row of a batch, masked by hash_mask_.
  std::vector<uint64_t> RowHashes(const std::vector<const Column*>& cols, size_t rows) const;
  void InsertHash(uint64_t hash);
  bool MayContain(uint64_t hash) const;

  std::vector<int> field_ids_;
  std::unordered_set<std::string> keys_;  // the exact keys (AppendValueKey of each field)
  uint64_t hash_mask_;
  // The hashes of keys_, open addressing with linear probing; 0 marks an empty slot, so the
  // hash 0 is kept apart in has_zero_hash_. The size is a power of two at least twice the count.
  std::vector<uint64_t> hash_slots_;
  size_t hash_count_ = 0;
  bool has_zero_hash_ = false;
};

// Appends an encoding of column[row] to `key` such that two values are equal exactly when
// their encodings are (see EqualityDeleteSet for what equal means).
void AppendValueKey(const Column& column, size_t row, std::string* key);

}  // namespace floe
