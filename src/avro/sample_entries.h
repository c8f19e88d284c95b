// Deterministic pseudo-random manifest entries that exercise every field and partition type, for
// the avro room's tests, the cross-engine test and the benchmark. Not used by the library.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "meta/data_file.h"
#include "types/partition_spec.h"
#include "types/schema.h"

namespace floe::avro_sample {

struct SampleTable {
  Schema schema;
  PartitionSpec spec;
  TypePtr partition_type;
};

// A schema with a column of each primitive type and a spec with each transform over them.
inline SampleTable MakeSampleTable() {
  std::vector<NestedField> cols = {
      {1, "id", Type::Long(), true, ""},          {2, "name", Type::String(), false, ""},
      {3, "ts", Type::TimestampTz(), false, ""},  {4, "amount", Type::Decimal(10, 2), false, ""},
      {5, "score", Type::Double(), false, ""},    {6, "day", Type::Date(), false, ""},
      {7, "flag", Type::Boolean(), false, ""},    {8, "uid", Type::Uuid(), false, ""},
      {9, "code", Type::Fixed(4), false, ""},     {10, "blob", Type::Binary(), false, ""},
      {11, "ratio", Type::Float(), false, ""},    {12, "n", Type::Int(), false, ""},
      {13, "local", Type::Timestamp(), false, ""}, {14, "at", Type::Time(), false, ""},
  };
  SampleTable t;
  t.schema = Schema(3, cols);
  t.spec = PartitionSpec(
      2, {
             {2, 1000, "name", Transform::Identity()},        {3, 1001, "ts_day", Transform::Day()},
             {1, 1002, "id_bucket", Transform::Bucket(16)},   {4, 1003, "amount", Transform::Identity()},
             {5, 1004, "score", Transform::Identity()},       {6, 1005, "day", Transform::Identity()},
             {7, 1006, "flag", Transform::Identity()},        {8, 1007, "uid", Transform::Identity()},
             {9, 1008, "code", Transform::Identity()},        {10, 1009, "blob", Transform::Identity()},
             {11, 1010, "ratio", Transform::Identity()},      {12, 1011, "n", Transform::Identity()},
             {13, 1012, "local", Transform::Identity()},      {14, 1013, "at", Transform::Identity()},
             {2, 1014, "name-trunc.4", Transform::Truncate(4)},  // a name Avro must sanitise
             {3, 1015, "ts_hour", Transform::Hour()},
         });
  t.partition_type = *t.spec.PartitionType(t.schema);
  return t;
}

inline std::string RandomBytes(std::mt19937_64& rng, size_t n) {
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(rng() & 0xff);
  return s;
}

inline Literal RandomValue(std::mt19937_64& rng, const TypePtr& type) {
  if (rng() % 10 == 0) return Literal::Null(type);
  switch (type->id()) {
    case TypeId::kBoolean: return Literal(type, static_cast<bool>(rng() & 1));
    case TypeId::kInt:
    case TypeId::kDate: return Literal(type, static_cast<int32_t>(rng() % 40000) - 20000);
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: return Literal(type, static_cast<int64_t>(rng() % 4000000000000000ull) - 2000000000000000);
    case TypeId::kFloat: return Literal(type, rng() % 50 == 0 ? NAN : static_cast<float>(rng() % 100000) / 8.0f);
    case TypeId::kDouble: return Literal(type, rng() % 50 == 0 ? NAN : static_cast<double>(rng() % 1000000) / 16.0 - 1000);
    case TypeId::kDecimal: return Literal(type, static_cast<__int128>(static_cast<int64_t>(rng() % 20000000000ull) - 9999999999));
    case TypeId::kString: return Literal(type, "v" + std::to_string(rng() % 1000) + (rng() % 3 == 0 ? "-ünï" : ""));
    case TypeId::kUuid: return Literal(type, RandomBytes(rng, 16));
    case TypeId::kFixed: return Literal(type, RandomBytes(rng, static_cast<size_t>(type->length())));
    case TypeId::kBinary: return Literal(type, RandomBytes(rng, rng() % 9));
    default: return Literal::Null(type);
  }
}

// One entry for a manifest of `format_version` holding `content` files (data, or a mix of
// position and equality deletes).
inline ManifestEntry RandomEntry(std::mt19937_64& rng, int format_version, bool deletes, const SampleTable& t,
                                 int64_t index) {
  ManifestEntry e;
  e.status = static_cast<EntryStatus>(rng() % 3);
  DataFile& f = e.file;
  f.spec_id = t.spec.spec_id();
  if (deletes) f.content = rng() % 2 ? FileContent::kPositionDeletes : FileContent::kEqualityDeletes;
  if (format_version == 1) {
    e.snapshot_id = static_cast<int64_t>(rng() >> 2);
  } else {
    if (rng() % 4) e.snapshot_id = static_cast<int64_t>(rng() >> 2);
    if (rng() % 4) e.sequence_number = static_cast<int64_t>(rng() % 100000);
    if (rng() % 4) e.file_sequence_number = static_cast<int64_t>(rng() % 100000);
  }
  f.file_path = "s3://bucket/warehouse/db/t/data/" + std::to_string(index) + "-" + std::to_string(rng() % 1000000) +
                "-00001.parquet";
  f.file_format = static_cast<FileFormat>(rng() % 4);
  for (const auto& field : t.partition_type->fields()) f.partition.push_back(RandomValue(rng, field.type));
  f.record_count = static_cast<int64_t>(rng() % 10000000);
  f.file_size_in_bytes = static_cast<int64_t>(rng() % 1000000000);
  int columns = static_cast<int>(rng() % 8);
  for (int c = 0; c < columns; ++c) {
    int id = 1 + static_cast<int>(rng() % 14);
    f.column_sizes[id] = static_cast<int64_t>(rng() % 100000);
    f.value_counts[id] = static_cast<int64_t>(rng() % 100000);
    f.null_value_counts[id] = static_cast<int64_t>(rng() % 100);
    if (rng() % 3 == 0) f.nan_value_counts[id] = static_cast<int64_t>(rng() % 10);
    f.lower_bounds[id] = RandomBytes(rng, rng() % 17);
    f.upper_bounds[id] = RandomBytes(rng, rng() % 17);
  }
  if (rng() % 5 == 0) f.key_metadata = RandomBytes(rng, rng() % 32);
  for (int s = static_cast<int>(rng() % 4); s > 0; --s) f.split_offsets.push_back(static_cast<int64_t>(rng() % 1000000));
  if (format_version >= 2 && f.content == FileContent::kEqualityDeletes) {
    for (int s = 1 + static_cast<int>(rng() % 3); s > 0; --s) f.equality_ids.push_back(1 + static_cast<int>(rng() % 14));
  }
  if (rng() % 2) f.sort_order_id = static_cast<int>(rng() % 5);
  if (format_version >= 2 && f.content == FileContent::kPositionDeletes && rng() % 2) {
    f.referenced_data_file = "s3://bucket/warehouse/db/t/data/ref-" + std::to_string(rng() % 1000) + ".parquet";
  }
  if (format_version >= 3) {
    if (f.content == FileContent::kData && rng() % 2) f.first_row_id = static_cast<int64_t>(rng() % 1000000000);
    if (f.content == FileContent::kPositionDeletes && rng() % 2) {
      f.content_offset = static_cast<int64_t>(rng() % 100000);
      f.content_size_in_bytes = static_cast<int64_t>(rng() % 100000);
    }
  }
  return e;
}

}  // namespace floe::avro_sample
