#include "commit/operations.h"

#include "meta/table_properties.h"

namespace floe {

Result<IsolationLevel> IsolationFor(const TableMetadata& table, RowLevelCommand command) {
  const char* key = command == RowLevelCommand::kDelete   ? props::kDeleteIsolationLevel
                    : command == RowLevelCommand::kUpdate ? props::kUpdateIsolationLevel
                                                          : props::kMergeIsolationLevel;
  std::string level = table.Property(key, props::kIsolationSerializable);
  if (level == props::kIsolationSerializable) return IsolationLevel::kSerializable;
  if (level == props::kIsolationSnapshot) return IsolationLevel::kSnapshot;
  return InvalidArgument(std::string("table property ") + key + " is '" + level +
                         "'; expected 'serializable' or 'snapshot'");
}

FilesChange FastAppend(std::vector<DataFile> files) {
  FilesChange c;
  c.operation = "append";
  c.added_data_files = std::move(files);
  return c;
}

FilesChange MergeAppend(std::vector<DataFile> files) {
  FilesChange c = FastAppend(std::move(files));
  c.merge_manifests = true;
  return c;
}

FilesChange CopyOnWrite(std::vector<DataFile> removed, std::vector<DataFile> added,
                        std::optional<int64_t> starting_snapshot_id, Expr filter, IsolationLevel isolation) {
  FilesChange c;
  c.operation = added.empty() ? "delete" : "overwrite";
  c.removed_data_files = std::move(removed);
  c.added_data_files = std::move(added);
  c.starting_snapshot_id = starting_snapshot_id;
  c.conflict_filter = std::move(filter);
  // Serializable: rows appended meanwhile that the filter might select would have been
  // deleted/updated had they been there; refuse. Snapshot isolation lets them survive.
  c.fail_on_new_matching_data = isolation == IsolationLevel::kSerializable;
  // Merge-on-read deletes added meanwhile against the same rows would be silently undone.
  c.fail_on_new_matching_deletes = true;
  return c;
}

FilesChange OverwriteByFilter(Expr filter, std::vector<DataFile> added, std::optional<int64_t> starting_snapshot_id,
                              IsolationLevel isolation) {
  FilesChange c;
  c.operation = added.empty() ? "delete" : "overwrite";
  c.delete_filter = filter;
  c.added_data_files = std::move(added);
  c.starting_snapshot_id = starting_snapshot_id;
  c.conflict_filter = std::move(filter);
  c.fail_on_new_matching_data = isolation == IsolationLevel::kSerializable && starting_snapshot_id.has_value();
  c.fail_on_new_matching_deletes = starting_snapshot_id.has_value();
  return c;
}

FilesChange ReplacePartitions(std::vector<DataFile> added, std::optional<int64_t> starting_snapshot_id,
                              IsolationLevel isolation) {
  FilesChange c;
  c.operation = "overwrite";
  c.added_data_files = std::move(added);
  c.replace_added_partitions = true;
  c.starting_snapshot_id = starting_snapshot_id;
  c.fail_on_new_matching_data = isolation == IsolationLevel::kSerializable;
  c.fail_on_new_matching_deletes = isolation == IsolationLevel::kSerializable;
  return c;
}

FilesChange RewriteFiles(std::vector<DataFile> removed_data, std::vector<DataFile> added_data,
                         std::vector<DataFile> removed_deletes, std::optional<int64_t> starting_snapshot_id) {
  FilesChange c;
  c.operation = "replace";
  c.removed_data_files = std::move(removed_data);
  c.added_data_files = std::move(added_data);
  c.removed_delete_files = std::move(removed_deletes);
  c.starting_snapshot_id = starting_snapshot_id;
  c.fail_on_new_deletes_for_removed = true;
  return c;
}

FilesChange RowDelta(std::vector<DataFile> added_data, std::vector<DataFile> added_deletes,
                     std::optional<int64_t> starting_snapshot_id, Expr filter, IsolationLevel isolation,
                     std::vector<std::string> referenced_data_files) {
  FilesChange c;
  // Iceberg's names: only deletes is "delete", only data "append", both "overwrite".
  c.operation = added_deletes.empty() ? "append" : added_data.empty() ? "delete" : "overwrite";
  c.added_data_files = std::move(added_data);
  c.added_delete_files = std::move(added_deletes);
  c.starting_snapshot_id = starting_snapshot_id;
  c.conflict_filter = std::move(filter);
  c.fail_on_new_matching_data = isolation == IsolationLevel::kSerializable;
  c.fail_on_new_matching_deletes = isolation == IsolationLevel::kSerializable;
  c.referenced_data_files = std::move(referenced_data_files);
  return c;
}

}  // namespace floe
