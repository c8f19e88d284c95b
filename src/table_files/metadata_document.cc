#include "table_files/metadata_document.h"

#include <zlib.h>

#include "meta/metadata_json.h"

namespace floe {
namespace {

Result<std::string> Gunzip(std::string_view data, const std::string& location) {
  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) return IOError("cannot start gzip decoder for " + location);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char buf[64 * 1024];
  int rc;
  do {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      inflateEnd(&zs);
      return Corrupt("metadata file " + location + " is not valid gzip");
    }
    out.append(buf, sizeof buf - zs.avail_out);
  } while (rc != Z_STREAM_END);
  inflateEnd(&zs);
  return out;
}

}  // namespace

Result<std::string> ReadMetadataText(FileIO& io, const std::string& location) {
  auto bytes = io.ReadAll(location);
  if (!bytes) return std::unexpected(bytes.error().WithContext("reading table metadata " + location));
  std::string text = std::move(*bytes);
  if (text.size() >= 2 && static_cast<unsigned char>(text[0]) == 0x1f && static_cast<unsigned char>(text[1]) == 0x8b) {
    FLOE_ASSIGN_OR_RETURN(text, Gunzip(text, location));
  }
  return text;
}

Result<TableMetadata> ReadMetadataFile(FileIO& io, const std::string& location) {
  FLOE_ASSIGN_OR_RETURN(std::string text, ReadMetadataText(io, location));
  auto metadata = ParseTableMetadata(text);
  if (!metadata) return std::unexpected(metadata.error().WithContext("parsing table metadata " + location));
  return metadata;
}

Result<std::shared_ptr<const TableMetadata>> ReadMetadataShared(FileIO& io, MetadataCache* cache,
                                                                 const std::string& location) {
  if (cache) {
    if (auto hit = cache->Find(location)) return hit;
  }
  FLOE_ASSIGN_OR_RETURN(std::string text, ReadMetadataText(io, location));
  Result<std::shared_ptr<const TableMetadata>> shared = [&]() -> Result<std::shared_ptr<const TableMetadata>> {
    if (cache) return cache->ParseAndInsert(location, std::move(text));
    FLOE_ASSIGN_OR_RETURN(TableMetadata metadata, ParseTableMetadata(text));
    // Created non-const: a sole owner may move out of it (see Unshare in catalog/commit.cc).
    return std::make_shared<TableMetadata>(std::move(metadata));
  }();
  if (!shared) return std::unexpected(shared.error().WithContext("parsing table metadata " + location));
  return shared;
}

}  // namespace floe
