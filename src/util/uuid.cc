#include "util/uuid.h"

#include <sys/random.h>

#include <cerrno>
#include <cstdlib>

namespace floe {

void FillRandom(void* out, size_t size) {
  auto* p = static_cast<unsigned char*>(out);
  while (size > 0) {
    ssize_t n = getrandom(p, size, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      // No randomness means no unique names; continuing would risk overwriting
      // files, so this is the one place floe gives up.
      std::abort();
    }
    p += n;
    size -= static_cast<size_t>(n);
  }
}

Uuid Uuid::Random() {
  Uuid uuid;
  FillRandom(uuid.bytes.data(), uuid.bytes.size());
  uuid.bytes[6] = static_cast<uint8_t>((uuid.bytes[6] & 0x0F) | 0x40);  // version 4
  uuid.bytes[8] = static_cast<uint8_t>((uuid.bytes[8] & 0x3F) | 0x80);  // variant 1
  return uuid;
}

namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsDashPosition(size_t i) { return i == 8 || i == 13 || i == 18 || i == 23; }

}  // namespace

Result<Uuid> Uuid::Parse(std::string_view text) {
  auto bad = [&] {
    return InvalidArgument("not a UUID (want xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx): '" +
                           std::string(text.substr(0, 64)) + "'");
  };
  if (text.size() != 36) return bad();
  Uuid uuid;
  size_t out = 0;
  for (size_t i = 0; i < text.size();) {
    if (IsDashPosition(i)) {
      if (text[i] != '-') return bad();
      ++i;
      continue;
    }
    int hi = HexValue(text[i]);
    int lo = HexValue(text[i + 1]);
    if (hi < 0 || lo < 0) return bad();
    uuid.bytes[out++] = static_cast<uint8_t>(hi << 4 | lo);
    i += 2;
  }
  return uuid;
}

Result<Uuid> Uuid::FromBytes(std::string_view bytes) {
  if (bytes.size() != 16) {
    return InvalidArgument("a UUID has 16 bytes, got " + std::to_string(bytes.size()));
  }
  Uuid uuid;
  for (size_t i = 0; i < 16; ++i) uuid.bytes[i] = static_cast<uint8_t>(bytes[i]);
  return uuid;
}

std::string Uuid::ToString() const {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  text.reserve(36);
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text.push_back('-');
    text.push_back(kHex[bytes[i] >> 4]);
    text.push_back(kHex[bytes[i] & 0x0F]);
  }
  return text;
}

std::string RandomUuidString() { return Uuid::Random().ToString(); }

}  // namespace floe
