#include "util/murmur3.h"

#include <cstring>

namespace floe {
namespace {

inline uint32_t RotateLeft(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

inline uint32_t MixBlock(uint32_t k) {
  k *= 0xcc9e2d51u;
  k = RotateLeft(k, 15);
  return k * 0x1b873593u;
}

inline uint32_t Finalize(uint32_t h, uint32_t length) {
  h ^= length;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

}  // namespace

int32_t Murmur3Hash32(std::string_view bytes) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t blocks = bytes.size() / 4;
  uint32_t h = 0;
  for (size_t i = 0; i < blocks; ++i) {
    uint32_t k;
    std::memcpy(&k, data + i * 4, 4);  // little-endian block
    h ^= MixBlock(k);
    h = RotateLeft(h, 13);
    h = h * 5 + 0xe6546b64u;
  }
  const uint8_t* tail = data + blocks * 4;
  uint32_t k = 0;
  switch (bytes.size() & 3) {
    case 3: k ^= static_cast<uint32_t>(tail[2]) << 16; [[fallthrough]];
    case 2: k ^= static_cast<uint32_t>(tail[1]) << 8; [[fallthrough]];
    case 1:
      k ^= tail[0];
      h ^= MixBlock(k);
  }
  return static_cast<int32_t>(Finalize(h, static_cast<uint32_t>(bytes.size())));
}

int32_t Murmur3HashLong(int64_t value) {
  char buf[8];
  std::memcpy(buf, &value, 8);
  return Murmur3Hash32(std::string_view(buf, 8));
}

}  // namespace floe
