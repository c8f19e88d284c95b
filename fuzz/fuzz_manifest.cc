// libFuzzer target: manifest and manifest-list Avro files (the first byte picks which).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "avro/manifest_list.h"
#include "avro/manifest_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] & 1) {
    (void)floe::ReadManifestList(bytes, "fuzz-list.avro");
  } else {
    (void)floe::ReadManifest(bytes, "fuzz-manifest.avro", floe::ManifestReadOptions{});
  }
  return 0;
}
