#include "avro/manifest_schema.h"

#include "avro/iceberg_avro.h"

namespace floe::avro {

namespace {

using J = nlohmann::ordered_json;

J Required(const char* name, J type, int id) { return J{{"name", name}, {"type", std::move(type)}, {"field-id", id}}; }

// Optional fields are unions with null first and a null default, as the spec requires.
J OptionalField(const char* name, J type, int id) {
  return J{{"name", name}, {"type", J::array({"null", std::move(type)})}, {"default", nullptr}, {"field-id", id}};
}

// Iceberg maps with non-string keys: an array of key/value records named k<key>_v<value>.
J IntMap(int key_id, int value_id, const char* value_type) {
  std::string record = "k" + std::to_string(key_id) + "_v" + std::to_string(value_id);
  J items{{"type", "record"},
          {"name", record},
          {"fields", J::array({Required("key", "int", key_id), Required("value", value_type, value_id)})}};
  return J{{"type", "array"}, {"items", std::move(items)}, {"logicalType", "map"}};
}

J List(const char* item_type, int element_id) {
  return J{{"type", "array"}, {"items", item_type}, {"element-id", element_id}};
}

}  // namespace

Result<nlohmann::ordered_json> ManifestEntrySchema(int format_version, const Type& partition_type) {
  if (format_version < 1 || format_version > 3) {
    return InvalidArgument("cannot write manifests of format version " + std::to_string(format_version));
  }
  J partition_fields = J::array();
  for (const auto& f : partition_type.fields()) {
    FLOE_ASSIGN_OR_RETURN(J type, AvroType(*f.type, std::to_string(f.id)));
    J field = OptionalField("", std::move(type), f.id);
    field["name"] = AvroName(f.name);
    partition_fields.push_back(std::move(field));
  }
  J partition{{"type", "record"}, {"name", "r102"}, {"fields", std::move(partition_fields)}};

  J df = J::array();
  if (format_version >= 2) df.push_back(Required("content", "int", ids::kContent));
  df.push_back(Required("file_path", "string", ids::kFilePath));
  df.push_back(Required("file_format", "string", ids::kFileFormat));
  df.push_back(Required("partition", std::move(partition), ids::kPartition));
  df.push_back(Required("record_count", "long", ids::kRecordCount));
  df.push_back(Required("file_size_in_bytes", "long", ids::kFileSizeInBytes));
  if (format_version == 1) df.push_back(Required("block_size_in_bytes", "long", ids::kBlockSizeInBytes));
  df.push_back(OptionalField("column_sizes", IntMap(117, 118, "long"), ids::kColumnSizes));
  df.push_back(OptionalField("value_counts", IntMap(119, 120, "long"), ids::kValueCounts));
  df.push_back(OptionalField("null_value_counts", IntMap(121, 122, "long"), ids::kNullValueCounts));
  df.push_back(OptionalField("nan_value_counts", IntMap(138, 139, "long"), ids::kNanValueCounts));
  df.push_back(OptionalField("lower_bounds", IntMap(126, 127, "bytes"), ids::kLowerBounds));
  df.push_back(OptionalField("upper_bounds", IntMap(129, 130, "bytes"), ids::kUpperBounds));
  df.push_back(OptionalField("key_metadata", "bytes", ids::kKeyMetadata));
  df.push_back(OptionalField("split_offsets", List("long", ids::kSplitOffsetsElement), ids::kSplitOffsets));
  if (format_version >= 2) df.push_back(OptionalField("equality_ids", List("int", ids::kEqualityIdsElement), ids::kEqualityIds));
  df.push_back(OptionalField("sort_order_id", "int", ids::kSortOrderId));
  if (format_version >= 3) df.push_back(OptionalField("first_row_id", "long", ids::kFirstRowId));
  if (format_version >= 2) df.push_back(OptionalField("referenced_data_file", "string", ids::kReferencedDataFile));
  if (format_version >= 3) {
    df.push_back(OptionalField("content_offset", "long", ids::kContentOffset));
    df.push_back(OptionalField("content_size_in_bytes", "long", ids::kContentSizeInBytes));
  }
  J data_file{{"type", "record"}, {"name", "r2"}, {"fields", std::move(df)}};

  J fields = J::array();
  fields.push_back(Required("status", "int", ids::kStatus));
  if (format_version == 1) {
    fields.push_back(Required("snapshot_id", "long", ids::kSnapshotId));
  } else {
    fields.push_back(OptionalField("snapshot_id", "long", ids::kSnapshotId));
    fields.push_back(OptionalField("sequence_number", "long", ids::kSequenceNumber));
    fields.push_back(OptionalField("file_sequence_number", "long", ids::kFileSequenceNumber));
  }
  fields.push_back(Required("data_file", std::move(data_file), ids::kDataFile));
  return J{{"type", "record"}, {"name", "manifest_entry"}, {"fields", std::move(fields)}};
}

nlohmann::ordered_json ManifestFileSchema(int format_version) {
  J summary{{"type", "record"},
            {"name", "r508"},
            {"fields", J::array({Required("contains_null", "boolean", ids::kContainsNull),
                                 OptionalField("contains_nan", "boolean", ids::kContainsNan),
                                 OptionalField("lower_bound", "bytes", ids::kLowerBound),
                                 OptionalField("upper_bound", "bytes", ids::kUpperBound)})}};
  J partitions{{"type", "array"}, {"items", std::move(summary)}, {"element-id", ids::kPartitionsElement}};

  J fields = J::array();
  fields.push_back(Required("manifest_path", "string", ids::kManifestPath));
  fields.push_back(Required("manifest_length", "long", ids::kManifestLength));
  fields.push_back(Required("partition_spec_id", "int", ids::kPartitionSpecId));
  if (format_version == 1) {
    fields.push_back(Required("added_snapshot_id", "long", ids::kAddedSnapshotId));
    fields.push_back(OptionalField("added_files_count", "int", ids::kAddedFilesCount));
    fields.push_back(OptionalField("existing_files_count", "int", ids::kExistingFilesCount));
    fields.push_back(OptionalField("deleted_files_count", "int", ids::kDeletedFilesCount));
    fields.push_back(OptionalField("partitions", std::move(partitions), ids::kPartitions));
    fields.push_back(OptionalField("added_rows_count", "long", ids::kAddedRowsCount));
    fields.push_back(OptionalField("existing_rows_count", "long", ids::kExistingRowsCount));
    fields.push_back(OptionalField("deleted_rows_count", "long", ids::kDeletedRowsCount));
  } else {
    fields.push_back(Required("content", "int", ids::kManifestContent));
    fields.push_back(Required("sequence_number", "long", ids::kManifestSequenceNumber));
    fields.push_back(Required("min_sequence_number", "long", ids::kMinSequenceNumber));
    fields.push_back(Required("added_snapshot_id", "long", ids::kAddedSnapshotId));
    fields.push_back(Required("added_files_count", "int", ids::kAddedFilesCount));
    fields.push_back(Required("existing_files_count", "int", ids::kExistingFilesCount));
    fields.push_back(Required("deleted_files_count", "int", ids::kDeletedFilesCount));
    fields.push_back(Required("added_rows_count", "long", ids::kAddedRowsCount));
    fields.push_back(Required("existing_rows_count", "long", ids::kExistingRowsCount));
    fields.push_back(Required("deleted_rows_count", "long", ids::kDeletedRowsCount));
    fields.push_back(OptionalField("partitions", std::move(partitions), ids::kPartitions));
  }
  fields.push_back(OptionalField("key_metadata", "bytes", ids::kManifestKeyMetadata));
  if (format_version >= 3) fields.push_back(OptionalField("first_row_id", "long", ids::kManifestFirstRowId));
  return J{{"type", "record"}, {"name", "manifest_file"}, {"fields", std::move(fields)}};
}

}  // namespace floe::avro
