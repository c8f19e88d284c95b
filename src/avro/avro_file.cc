#include "avro/avro_file.h"

#include <cstring>

#include "util/uuid.h"

namespace floe::avro {

namespace {
constexpr char kMagic[4] = {'O', 'b', 'j', 1};
// No block floe reads may decompress to more than this; real manifests use blocks of ~64 KiB.
constexpr size_t kMaxBlockBytes = size_t{1} << 30;
}  // namespace

FileWriter::FileWriter(std::string schema_json, std::vector<std::pair<std::string, std::string>> metadata, Codec codec,
                       int level)
    : codec_(codec), level_(level) {
  FillRandom(sync_, sizeof sync_);
  Encoder header(&out_);
  out_.append(kMagic, 4);
  metadata.insert(metadata.begin(), {"avro.codec", std::string(CodecName(codec))});
  metadata.insert(metadata.begin(), {"avro.schema", std::move(schema_json)});
  header.WriteLong(static_cast<int64_t>(metadata.size()));
  for (const auto& [key, value] : metadata) {
    header.WriteString(key);
    header.WriteBytes(value);
  }
  header.WriteLong(0);
  out_.append(sync_, sizeof sync_);
  block_.reserve(kBlockBytes + kBlockBytes / 4);
}

Status FileWriter::FlushBlock() {
  if (block_count_ == 0) return Ok();
  std::string_view payload = block_;
  if (codec_ != Codec::kNull) {
    compressed_.clear();
    FLOE_RETURN_IF_ERROR(CompressBlock(codec_, level_, block_, &compressed_));
    payload = compressed_;
  }
  Encoder e(&out_);
  e.WriteLong(block_count_);
  e.WriteLong(static_cast<int64_t>(payload.size()));
  out_.append(payload);
  out_.append(sync_, sizeof sync_);
  total_count_ += block_count_;
  block_count_ = 0;
  block_.clear();
  return Ok();
}

Result<std::string> FileWriter::Finish() {
  FLOE_RETURN_IF_ERROR(FlushBlock());
  return std::move(out_);
}

std::unexpected<Error> FileReader::CorruptError(std::string_view what) const {
  std::string where = block_index_ >= 0 ? " (block " + std::to_string(block_index_) + ")" : std::string();
  return Corrupt(path_ + ": " + std::string(what) + where);
}

Result<FileReader> FileReader::Open(std::string_view bytes, std::string_view path, SchemaCache* schemas,
                                    std::string* block_buffer) {
  FileReader r;
  r.shared_block_ = block_buffer;
  r.path_ = std::string(path);
  r.bytes_ = bytes;
  if (bytes.size() < 4 || std::memcmp(bytes.data(), kMagic, 4) != 0) {
    return r.CorruptError("not an Avro object container file (bad magic)");
  }
  Decoder d(bytes.substr(4));
  // The metadata map: blocks of (count, [size,] key/value pairs), ending with count 0.
  while (true) {
    int64_t count = d.ReadBlockCount();
    if (d.failed()) return r.CorruptError("truncated or corrupt Avro header");
    if (count == 0) break;
    for (int64_t i = 0; i < count; ++i) {
      std::string key(d.ReadBytesView());
      std::string value(d.ReadBytesView());
      if (d.failed()) return r.CorruptError("truncated or corrupt Avro header");
      r.metadata_[std::move(key)] = std::move(value);
    }
  }
  std::string_view sync = d.ReadFixedView(16);
  if (d.failed()) return r.CorruptError("truncated Avro header (no sync marker)");
  r.sync_ = std::string(sync);
  r.pos_ = bytes.size() - d.remaining();
  r.metadata_bytes_ = bytes.substr(4, r.pos_ - 4 - 16);

  const std::string* schema = r.Meta("avro.schema");
  if (!schema) return r.CorruptError("Avro header has no avro.schema");
  r.schema_json_ = *schema;
  auto parsed = schemas ? schemas->Parse(*schema) : Schema::ParseShared(*schema);
  if (!parsed) return r.CorruptError("bad avro.schema: " + parsed.error().message);
  r.schema_ = std::move(*parsed);
  if (const std::string* codec = r.Meta("avro.codec")) {
    auto c = ParseCodec(*codec);
    if (!c) return r.CorruptError(c.error().message);
    r.codec_ = *c;
  }
  return r;
}

Result<bool> FileReader::NextBlock(int64_t* count, Decoder* records) {
  if (pos_ == bytes_.size()) return false;
  ++block_index_;
  Decoder d(bytes_.substr(pos_));
  int64_t n = d.ReadLong();
  int64_t size = d.ReadLong();
  if (d.failed() || n < 0 || size < 0 || static_cast<uint64_t>(size) > d.remaining()) {
    return CorruptError("truncated or corrupt block header");
  }
  std::string_view payload = d.ReadFixedView(static_cast<size_t>(size));
  std::string_view sync = d.ReadFixedView(16);
  if (d.failed()) return CorruptError("truncated block (no sync marker)");
  if (sync != sync_) return CorruptError("sync marker mismatch");
  pos_ = bytes_.size() - d.remaining();
  if (codec_ == Codec::kNull) {
    *records = Decoder(payload);
  } else {
    std::string& block = shared_block_ ? *shared_block_ : own_block_;
    auto st = DecompressBlock(codec_, payload, &block, kMaxBlockBytes);
    if (!st) return CorruptError(st.error().message);
    *records = Decoder(block);
  }
  // Every record takes at least one byte in any schema this code reads.
  if (static_cast<uint64_t>(n) > records->remaining() + 1) return CorruptError("block record count exceeds its size");
  *count = n;
  return true;
}

}  // namespace floe::avro
