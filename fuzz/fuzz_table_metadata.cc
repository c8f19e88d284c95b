// libFuzzer target: table metadata documents, parsed, written back and parsed again.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "meta/metadata_json.h"
#include "meta/metadata_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto metadata = floe::ParseTableMetadata(text);
  if (!metadata) return 0;
  std::string written = floe::WriteTableMetadata(*metadata);
  (void)floe::ParseTableMetadata(written);
  (void)floe::TableMetadataToJson(*metadata).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return 0;
}
