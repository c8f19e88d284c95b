// Partition specs: how a table's rows map to partition tuples.
#pragma once

#include <string>
#include <vector>

#include "types/schema.h"
#include "types/transform.h"

namespace floe {

struct PartitionField {
  int source_id = 0;  // the source column; the first one when there are several
  int field_id = 0;   // partition field ids start at 1000 by convention
  std::string name;
  Transform transform;
  std::vector<int> source_ids;  // v3 multi-argument transforms: every source, when more than one

  // Whether floe can compute this field: one source and a transform it knows. A table with a
  // field it cannot compute is read (no pruning on that field) but never written.
  bool evaluable() const { return source_ids.size() <= 1 && !transform.is_unknown(); }
  // "bucket[16](a, b)"-style text naming the transform and its source ids, for messages.
  std::string Describe() const;
};

class PartitionSpec {
 public:
  static constexpr int kFirstFieldId = 1000;

  PartitionSpec() = default;
  PartitionSpec(int spec_id, std::vector<PartitionField> fields) : spec_id_(spec_id), fields_(std::move(fields)) {}
  static PartitionSpec Unpartitioned() { return PartitionSpec(0, {}); }

  int spec_id() const { return spec_id_; }
  const std::vector<PartitionField>& fields() const { return fields_; }
  bool is_unpartitioned() const;  // no fields, or only void transforms

  // The partition tuple's struct type for a schema (field ids are the partition field ids; every
  // field optional). A source column missing from the schema is an error.
  Result<TypePtr> PartitionType(const Schema& schema) const;

  // Checks every field against a schema: the source exists and the transform applies.
  Status Validate(const Schema& schema) const;
  // NotSupported naming the first field floe cannot compute (PartitionField::evaluable): rows
  // cannot be placed in partitions of such a spec, so writes are refused before any file.
  Status CheckWritable() const;

  // The partition tuple of one row given the source values (indexed like fields()).
  Result<std::vector<Literal>> PartitionOf(const std::vector<Literal>& source_values) const;

  // Same fields (source, transform, field id, name) regardless of spec id.
  bool CompatibleWith(const PartitionSpec& other) const;

  // "country, day(ts)" style text, as the CLI prints it.
  std::string ToString(const Schema& schema) const;

 private:
  int spec_id_ = 0;
  std::vector<PartitionField> fields_;
};

// Parses a user's partition text: "country, day(ts), bucket(16, id), truncate(4, name)" against a
// schema into fields numbered from `next_field_id`. Names follow Iceberg's conventions
// (country, ts_day, id_bucket, name_trunc).
Result<std::vector<PartitionField>> ParsePartitionFields(std::string_view text, const Schema& schema,
                                                         int next_field_id);

}  // namespace floe
