#include "table_files/manifest_io.h"

#include "avro/avro_codec.h"
#include "avro/manifest_list.h"
#include "avro/manifest_reader.h"
#include "avro/manifest_writer.h"
#include "meta/property_values.h"
#include "meta/table_properties.h"

namespace floe {

Result<std::vector<ManifestFile>> ReadManifestList(FileIO& io, const TableMetadata& table, const Snapshot& snapshot) {
  if (!snapshot.manifest_list.empty()) {
    auto bytes = io.ReadAll(snapshot.manifest_list);
    if (!bytes)
      return std::unexpected(bytes.error().WithContext("reading the manifest list of snapshot " +
                                                       std::to_string(snapshot.snapshot_id)));
    FLOE_ASSIGN_OR_RETURN(ManifestListContents list, ReadManifestList(*bytes, snapshot.manifest_list));
    return std::move(list.manifests);
  }
  // A v1 snapshot without a manifest list names its manifests; summarize each from its bytes.
  std::vector<ManifestFile> out;
  out.reserve(snapshot.v1_manifests.size());
  for (const std::string& path : snapshot.v1_manifests) {
    auto bytes = io.ReadAll(path);
    if (!bytes)
      return std::unexpected(bytes.error().WithContext("reading a manifest of snapshot " +
                                                       std::to_string(snapshot.snapshot_id)));
    FLOE_ASSIGN_OR_RETURN(ManifestFile m, SummarizeManifest(*bytes, path, snapshot.snapshot_id, &table));
    out.push_back(std::move(m));
  }
  return out;
}

Result<std::vector<ManifestEntry>> ReadManifestEntries(FileIO& io, const TableMetadata& table,
                                                       const ManifestFile& manifest) {
  auto bytes = io.ReadAll(manifest.manifest_path);
  if (!bytes) return std::unexpected(bytes.error().WithContext("reading manifest"));
  ManifestReadOptions options;
  options.manifest = &manifest;
  options.table = &table;
  FLOE_ASSIGN_OR_RETURN(ManifestContents contents, ReadManifest(*bytes, manifest.manifest_path, options));
  return std::move(contents.entries);
}

namespace {

// Deflate's level when the table sets none. A manifest list is rewritten by every commit
// attempt and is mostly UUID paths that barely compress: at 600 manifests level 1 takes 0.6x
// the time of zlib's default (6) for a list 3% larger.
constexpr int kDefaultDeflateLevel = 1;

struct AvroCompression {
  std::string codec;
  int level = -1;
};

// The table's write.avro.compression-codec and write.avro.compression-level.
Result<AvroCompression> AvroCompressionOf(const TableMetadata& table) {
  AvroCompression out;
  out.codec = table.Property(props::kAvroCompressionCodec, props::kAvroCompressionCodecDefault);
  auto codec = avro::ParseCodec(out.codec);
  if (!codec) {
    return InvalidArgument("table property " + std::string(props::kAvroCompressionCodec) + "='" + out.codec +
                           "' is not a codec floe can write (gzip, zstd, snappy, uncompressed)");
  }
  const std::string level = table.Property(props::kAvroCompressionLevel, "");
  if (level.empty()) {
    out.level = *codec == avro::Codec::kDeflate ? kDefaultDeflateLevel : -1;
    return out;
  }
  const int64_t highest = *codec == avro::Codec::kZstandard ? 22 : 9;
  auto parsed = ParseCountProperty(props::kAvroCompressionLevel, level);
  if (!parsed || *parsed > highest) {
    return InvalidArgument("table property " + std::string(props::kAvroCompressionLevel) + "='" + level +
                           "' is not a compression level (0-9 for gzip, 1-22 for zstd)");
  }
  out.level = static_cast<int>(*parsed);
  return out;
}

}  // namespace

Result<ManifestFile> WriteManifestFile(FileIO& io, const TableMetadata& table, int spec_id, ManifestContent content,
                                       const std::vector<ManifestEntry>& entries, const std::string& path,
                                       BackgroundWrites* background) {
  const PartitionSpec* spec = table.SpecById(spec_id);
  if (!spec) return InvalidArgument("table has no partition spec " + std::to_string(spec_id) + " for manifest " + path);
  ManifestWriterOptions options;
  options.format_version = table.format_version;
  options.content = content;
  options.schema = table.CurrentSchema();
  options.spec = *spec;
  options.manifest_path = path;
  FLOE_ASSIGN_OR_RETURN(AvroCompression compression, AvroCompressionOf(table));
  options.codec = compression.codec;
  options.compression_level = compression.level;
  FLOE_ASSIGN_OR_RETURN(WrittenManifest written, WriteManifest(std::move(options), entries));
  if (background) {
    background->Start(io, path, std::move(written.bytes));
  } else {
    FLOE_RETURN_IF_ERROR(io.CreateUnreferenced(path, written.bytes));
  }
  return written.manifest;
}

Status WriteManifestListFile(FileIO& io, const TableMetadata& table, const std::vector<ManifestFile>& manifests,
                             int64_t snapshot_id, std::optional<int64_t> parent_snapshot_id, int64_t sequence_number,
                             const std::string& path, std::optional<int64_t> first_row_id) {
  FLOE_ASSIGN_OR_RETURN(std::string bytes, ManifestListBytes(table, manifests, snapshot_id, parent_snapshot_id,
                                                             sequence_number, first_row_id));
  return io.CreateUnreferenced(path, bytes);
}

Result<std::string> ManifestListBytes(const TableMetadata& table, const std::vector<ManifestFile>& manifests,
                                      int64_t snapshot_id, std::optional<int64_t> parent_snapshot_id,
                                      int64_t sequence_number, std::optional<int64_t> first_row_id) {
  ManifestListWriterOptions options;
  options.first_row_id = first_row_id;
  options.format_version = table.format_version;
  options.snapshot_id = snapshot_id;
  options.parent_snapshot_id = parent_snapshot_id;
  options.sequence_number = sequence_number;
  FLOE_ASSIGN_OR_RETURN(AvroCompression compression, AvroCompressionOf(table));
  options.codec = compression.codec;
  options.compression_level = compression.level;
  return WriteManifestList(options, manifests);
}

}  // namespace floe
