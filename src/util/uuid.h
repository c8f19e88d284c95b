// UUIDs: the random part of every file name floe writes, and Iceberg's
// table-uuid and uuid-typed values.
//
// Random UUIDs come from the kernel (getrandom) on every call rather than from
// a seeded generator: a generator's state is copied by fork(), and two
// processes must never produce the same file name.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "floe/result.h"

namespace floe {

struct Uuid {
  // Big-endian, in the order the text form prints them (RFC 4122); this is
  // also Iceberg's 16-byte binary form of a uuid value.
  std::array<uint8_t, 16> bytes{};

  // A random version-4 (variant 1) UUID.
  static Uuid Random();

  // Parses the 36-character form "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
  // upper- or lower-case hex. Anything else is InvalidArgument.
  static Result<Uuid> Parse(std::string_view text);

  // 16 raw bytes; InvalidArgument when the size is not 16.
  static Result<Uuid> FromBytes(std::string_view bytes);

  // Lower-case 36-character form.
  std::string ToString() const;

  friend bool operator==(const Uuid&, const Uuid&) = default;
  friend auto operator<=>(const Uuid&, const Uuid&) = default;
};

// Shorthand for Uuid::Random().ToString().
std::string RandomUuidString();

// Fills `out` with `size` bytes from the kernel's random source.
void FillRandom(void* out, size_t size);

}  // namespace floe
