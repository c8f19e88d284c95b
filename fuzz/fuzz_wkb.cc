// libFuzzer target: the WKB decoder (geometry and geography values) and its WKT printer. The
// first byte picks the input:
//   even  WKB bytes: printed as WKT; a geometry that prints is accepted again from its hex form,
//         giving back the same bytes;
//   odd   hex text as a user gives it (floe append), checked and decoded.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "types/wkb.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    auto wkt = floe::WkbToWkt(rest);
    if (!wkt) return 0;
    if (wkt->empty()) std::abort();
    auto back = floe::WkbFromHex(floe::WkbHex(rest));
    if (!back || *back != rest) std::abort();
  } else {
    auto bytes = floe::WkbFromHex(rest);
    if (bytes && !floe::WkbToWkt(*bytes)) std::abort();  // accepted hex is always a geometry
  }
  return 0;
}
