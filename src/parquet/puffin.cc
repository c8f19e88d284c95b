#include "parquet/puffin.h"

#include <nlohmann/json.hpp>

#include "util/strict_json.h"

namespace floe::parquet {

namespace {

constexpr int64_t kMagicSize = 4;
constexpr int kMaxFooterJsonDepth = 16;

uint32_t LittleEndian32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return uint32_t{u[0]} | (uint32_t{u[1]} << 8) | (uint32_t{u[2]} << 16) | (uint32_t{u[3]} << 24);
}

void PutLittleEndian32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

nlohmann::ordered_json BlobToJson(const PuffinBlobMetadata& b) {
  nlohmann::ordered_json j;
  j["type"] = b.type;
  j["fields"] = b.fields;
  j["snapshot-id"] = b.snapshot_id;
  j["sequence-number"] = b.sequence_number;
  j["offset"] = b.offset;
  j["length"] = b.length;
  if (b.compression_codec) j["compression-codec"] = *b.compression_codec;
  if (!b.properties.empty()) j["properties"] = b.properties;
  return j;
}

// A JSON integer of the footer; `what` names it in the error.
Result<int64_t> Integer(const nlohmann::json& blob, const char* key, const std::string& what) {
  auto it = blob.find(key);
  if (it == blob.end()) return Corrupt(what + ": missing required field '" + key + "'");
  if (!it->is_number_integer()) return Corrupt(what + ": field '" + key + "' must be an integer");
  return it->get<int64_t>();
}

Result<std::map<std::string, std::string>> StringMap(const nlohmann::json& j, const char* key,
                                                      const std::string& what) {
  std::map<std::string, std::string> out;
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return out;
  if (!it->is_object()) return Corrupt(what + ": field '" + key + "' must be an object of strings");
  for (const auto& [k, v] : it->items()) {
    if (!v.is_string()) return Corrupt(what + ": " + key + "." + k + " must be a string");
    out[k] = v.get<std::string>();
  }
  return out;
}

}  // namespace

PuffinWriter::PuffinWriter(std::map<std::string, std::string> file_properties)
    : properties_(std::move(file_properties)) {}

const PuffinBlobMetadata& PuffinWriter::Add(std::string_view bytes, PuffinBlobMetadata meta) {
  meta.offset = kMagicSize + static_cast<int64_t>(blobs_.size());
  meta.length = static_cast<int64_t>(bytes.size());
  blobs_.append(bytes);
  metadata_.push_back(std::move(meta));
  return metadata_.back();
}

std::string PuffinWriter::Finish() const {
  nlohmann::ordered_json payload;
  payload["blobs"] = nlohmann::ordered_json::array();
  for (const auto& b : metadata_) payload["blobs"].push_back(BlobToJson(b));
  if (!properties_.empty()) payload["properties"] = properties_;
  const std::string text = payload.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out(kPuffinMagic);
  out += blobs_;
  out += kPuffinMagic;
  out += text;
  PutLittleEndian32(out, static_cast<uint32_t>(text.size()));
  PutLittleEndian32(out, 0);  // flags: not compressed
  out += kPuffinMagic;
  return out;
}

Result<int64_t> PuffinFooterSize(std::string_view trailer, int64_t file_size) {
  if (file_size < 2 * kMagicSize + kPuffinTrailerSize || trailer.size() != kPuffinTrailerSize)
    return Corrupt("Puffin file of " + std::to_string(file_size) + " bytes is too short for a footer");
  if (trailer.substr(8) != kPuffinMagic) return Corrupt("Puffin file does not end with the magic PFA1");
  const int64_t payload = LittleEndian32(trailer.data());
  const int64_t footer = kMagicSize + payload + kPuffinTrailerSize;
  if (footer + kMagicSize > file_size)
    return Corrupt("Puffin footer of " + std::to_string(footer) + " bytes does not fit in a file of " +
                   std::to_string(file_size) + " bytes");
  return footer;
}

Result<PuffinFooter> ParsePuffinFooter(std::string_view footer, int64_t file_size, std::string_view file) {
  const std::string where = "Puffin file " + std::string(file);
  if (static_cast<int64_t>(footer.size()) < kMagicSize + kPuffinTrailerSize)
    return Corrupt(where + ": footer too short");
  auto footer_size = PuffinFooterSize(footer.substr(footer.size() - kPuffinTrailerSize), file_size);
  if (!footer_size) return std::unexpected(footer_size.error().WithContext(where));
  const int64_t size = *footer_size;
  if (size != static_cast<int64_t>(footer.size())) return Corrupt(where + ": footer size does not match");
  if (footer.substr(0, kMagicSize) != kPuffinMagic) return Corrupt(where + ": no magic PFA1 before the footer");
  const uint32_t flags = LittleEndian32(footer.data() + footer.size() - 8);
  if (flags & 1) return NotSupported(where + ": its footer is LZ4-compressed, which floe does not read");
  const std::string_view payload = footer.substr(kMagicSize, footer.size() - kMagicSize - kPuffinTrailerSize);

  JsonLimits limits;
  limits.max_depth = kMaxFooterJsonDepth;
  auto parsed = ParseStrictJson(payload, where + " footer", limits);
  if (!parsed) return Corrupt(parsed.error().message);
  const nlohmann::json& j = *parsed;
  if (!j.is_object()) return Corrupt(where + ": footer payload is not a JSON object");
  auto blobs = j.find("blobs");
  if (blobs == j.end() || !blobs->is_array()) return Corrupt(where + ": footer has no 'blobs' array");

  PuffinFooter out;
  out.footer_size = size;
  const int64_t blobs_end = file_size - size;
  for (const auto& blob : *blobs) {
    const std::string what = where + ": blobs[" + std::to_string(out.blobs.size()) + "]";
    if (!blob.is_object()) return Corrupt(what + " is not an object");
    PuffinBlobMetadata b;
    auto type = blob.find("type");
    if (type == blob.end() || !type->is_string()) return Corrupt(what + ": missing required field 'type'");
    b.type = type->get<std::string>();
    auto fields = blob.find("fields");
    if (fields == blob.end() || !fields->is_array()) return Corrupt(what + ": missing required field 'fields'");
    for (const auto& f : *fields) {
      if (!f.is_number_integer()) return Corrupt(what + ": fields must be integers");
      b.fields.push_back(f.get<int>());
    }
    FLOE_ASSIGN_OR_RETURN(b.snapshot_id, Integer(blob, "snapshot-id", what));
    FLOE_ASSIGN_OR_RETURN(b.sequence_number, Integer(blob, "sequence-number", what));
    FLOE_ASSIGN_OR_RETURN(b.offset, Integer(blob, "offset", what));
    FLOE_ASSIGN_OR_RETURN(b.length, Integer(blob, "length", what));
    if (b.offset < kMagicSize || b.length < 0 || b.length > blobs_end || b.offset > blobs_end - b.length)
      return Corrupt(what + ": offset " + std::to_string(b.offset) + " and length " + std::to_string(b.length) +
                     " lie outside the blobs of a file of " + std::to_string(file_size) + " bytes");
    if (auto codec = blob.find("compression-codec"); codec != blob.end() && !codec->is_null()) {
      if (!codec->is_string()) return Corrupt(what + ": compression-codec must be a string");
      b.compression_codec = codec->get<std::string>();
    }
    FLOE_ASSIGN_OR_RETURN(b.properties, StringMap(blob, "properties", what));
    out.blobs.push_back(std::move(b));
  }
  FLOE_ASSIGN_OR_RETURN(out.properties, StringMap(j, "properties", where));
  return out;
}

PuffinBlobMetadata DeletionVectorBlob(const std::string& referenced_data_file, int64_t cardinality) {
  PuffinBlobMetadata b;
  b.type = std::string(kDeletionVectorBlobType);
  b.fields = {kRowPositionFieldId};
  b.properties = {{"referenced-data-file", referenced_data_file}, {"cardinality", std::to_string(cardinality)}};
  return b;
}

}  // namespace floe::parquet
