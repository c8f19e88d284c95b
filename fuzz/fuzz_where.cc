// libFuzzer target: the WHERE-text parser.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "expr/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)floe::ParseFilter(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
