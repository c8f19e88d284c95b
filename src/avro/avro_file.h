// Avro object container files in memory: magic "Obj\1", a metadata map (avro.schema,
// avro.codec and the writer's own keys), a 16-byte sync marker, then blocks of
// (record count, byte size, records, sync marker).
//
// We write the container ourselves rather than through libavro: libavro re-serialises the
// schema when it writes the header and drops every attribute it does not know, including
// Iceberg's field-id, element-id and logicalType "map", which Iceberg readers need. The
// caller encodes records with avro::Encoder; this class frames and compresses them.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "avro/avro_binary.h"
#include "avro/avro_codec.h"
#include "avro/avro_schema.h"
#include "floe/result.h"

namespace floe::avro {

class FileWriter {
 public:
  // `metadata` holds the writer's keys besides avro.schema and avro.codec, in the order given.
  FileWriter(std::string schema_json, std::vector<std::pair<std::string, std::string>> metadata, Codec codec,
             int level = -1);

  // Encode exactly one record with encoder(), then call EndRecord().
  Encoder& encoder() { return encoder_; }
  Status EndRecord() {
    ++block_count_;
    if (block_.size() >= kBlockBytes) return FlushBlock();
    return Ok();
  }
  int64_t record_count() const { return total_count_ + block_count_; }

  // The whole file. The writer is spent afterwards.
  Result<std::string> Finish();

 private:
  static constexpr size_t kBlockBytes = 256 * 1024;
  Status FlushBlock();

  Codec codec_;
  int level_;
  std::string out_;
  std::string block_;
  std::string compressed_;
  Encoder encoder_{&block_};
  int64_t block_count_ = 0;
  int64_t total_count_ = 0;
  char sync_[16];
};

class FileReader {
 public:
  // Parses the header. `path` only names the file in error messages. With `schemas`, an
  // avro.schema text parsed before (by any reader sharing the cache) is not parsed again. With
  // `block_buffer`, decompressed blocks go there instead of into a buffer of the reader's own:
  // one buffer serves many readers one after another (never two at once) without being
  // allocated and grown again for each file.
  static Result<FileReader> Open(std::string_view bytes, std::string_view path, SchemaCache* schemas = nullptr,
                                 std::string* block_buffer = nullptr);

  const Schema& schema() const { return *schema_; }
  const std::shared_ptr<const Schema>& shared_schema() const { return schema_; }
  // The encoded metadata map of the header, as stored: equal for two files exactly when their
  // metadata (schema, codec, the writer's keys) is.
  std::string_view metadata_bytes() const { return metadata_bytes_; }
  const std::string& schema_json() const { return schema_json_; }
  // The header's metadata, avro.* keys included.
  const std::map<std::string, std::string>& metadata() const { return metadata_; }
  const std::string* Meta(const std::string& key) const {
    auto it = metadata_.find(key);
    return it == metadata_.end() ? nullptr : &it->second;
  }
  Codec codec() const { return codec_; }
  const std::string& path() const { return path_; }

  // Moves to the next block; false at the end of the file. `records` decodes that block's
  // `count` records and stays valid until the next call.
  Result<bool> NextBlock(int64_t* count, Decoder* records);

  // A Corrupt error naming the file and the current block.
  std::unexpected<Error> CorruptError(std::string_view what) const;

 private:
  std::string path_;
  std::string_view bytes_;
  size_t pos_ = 0;
  int block_index_ = -1;
  std::shared_ptr<const Schema> schema_;
  std::string_view metadata_bytes_;
  std::string schema_json_;
  std::map<std::string, std::string> metadata_;
  Codec codec_ = Codec::kNull;
  std::string sync_;
  std::string own_block_;
  std::string* shared_block_ = nullptr;  // Open's block_buffer; else own_block_ holds the block
};

}  // namespace floe::avro
