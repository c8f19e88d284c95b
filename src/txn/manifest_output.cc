#include "txn/manifest_output.h"

#include "avro/manifest_list.h"
#include "avro/manifest_writer.h"

namespace floe {

Result<ManifestFile> WriteManifestFile(FileIO& io, const TableMetadata& table, int spec_id, ManifestContent content,
                                       const std::vector<ManifestEntry>& entries, const std::string& path) {
  const PartitionSpec* spec = table.SpecById(spec_id);
  if (!spec) return InvalidArgument("table has no partition spec " + std::to_string(spec_id) + " for manifest " + path);
  ManifestWriterOptions options;
  options.format_version = table.format_version;
  options.content = content;
  options.schema = table.CurrentSchema();
  options.spec = *spec;
  options.manifest_path = path;
  FLOE_ASSIGN_OR_RETURN(WrittenManifest written, WriteManifest(std::move(options), entries));
  FLOE_RETURN_IF_ERROR(io.CreateUnreferenced(path, written.bytes));
  return written.manifest;
}

Status WriteManifestListFile(FileIO& io, const TableMetadata& table, const std::vector<ManifestFile>& manifests,
                             int64_t snapshot_id, std::optional<int64_t> parent_snapshot_id, int64_t sequence_number,
                             const std::string& path) {
  ManifestListWriterOptions options;
  options.format_version = table.format_version;
  options.snapshot_id = snapshot_id;
  options.parent_snapshot_id = parent_snapshot_id;
  options.sequence_number = sequence_number;
  FLOE_ASSIGN_OR_RETURN(std::string bytes, WriteManifestList(options, manifests));
  return io.CreateUnreferenced(path, bytes);
}

}  // namespace floe
