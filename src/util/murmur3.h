// The 32-bit x86 variant of MurmurHash3 with seed 0: Iceberg's bucket hash (spec appendix B).
#pragma once

#include <cstdint>
#include <string_view>

namespace floe {

int32_t Murmur3Hash32(std::string_view bytes);
// Iceberg hashes every integer type (int, long, date, time, timestamp) as its 8-byte little-endian long.
int32_t Murmur3HashLong(int64_t value);

}  // namespace floe
