#include "parquet/puffin_describe.h"

#include "parquet/deletion_vector.h"
#include "parquet/puffin.h"

namespace floe::parquet {

bool LooksLikePuffin(std::string_view bytes) { return bytes.substr(0, kPuffinMagic.size()) == kPuffinMagic; }

Result<nlohmann::json> DescribePuffinBytes(std::string_view bytes, const std::string& name) {
  const auto size = static_cast<int64_t>(bytes.size());
  if (size < kPuffinTrailerSize) return Corrupt("Puffin file " + name + " is too short for a footer");
  auto footer_size = PuffinFooterSize(bytes.substr(bytes.size() - kPuffinTrailerSize), size);
  if (!footer_size) return std::unexpected(footer_size.error().WithContext("Puffin file " + name));
  FLOE_ASSIGN_OR_RETURN(PuffinFooter footer, ParsePuffinFooter(bytes.substr(bytes.size() - *footer_size), size, name));
  nlohmann::json out;
  out["file"] = name;
  out["blobs"] = nlohmann::json::array();
  for (size_t i = 0; i < footer.blobs.size(); ++i) {
    const PuffinBlobMetadata& b = footer.blobs[i];
    nlohmann::json j;
    j["type"] = b.type;
    j["fields"] = b.fields;
    j["snapshot-id"] = b.snapshot_id;
    j["sequence-number"] = b.sequence_number;
    j["offset"] = b.offset;
    j["length"] = b.length;
    if (b.compression_codec) j["compression-codec"] = *b.compression_codec;
    j["properties"] = b.properties;
    if (b.type == kDeletionVectorBlobType) {
      const std::string what = "Puffin file " + name + ": blobs[" + std::to_string(i) + "]";
      auto positions = DecodeDeletionVector(bytes.substr(b.offset, b.length));
      if (!positions) return std::unexpected(positions.error().WithContext(what));
      auto cardinality = b.properties.find("cardinality");
      if (cardinality != b.properties.end() && cardinality->second != std::to_string(positions->size()))
        return Corrupt(what + ": holds " + std::to_string(positions->size()) + " positions, its cardinality says " +
                       cardinality->second);
      j["positions"] = positions->size();
      if (!positions->empty()) {
        j["first_position"] = positions->front();
        j["last_position"] = positions->back();
      }
    }
    out["blobs"].push_back(std::move(j));
  }
  out["properties"] = footer.properties;
  return out;
}

}  // namespace floe::parquet
