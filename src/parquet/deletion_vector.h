// Iceberg's deletion vectors (format 3): a Puffin blob of type deletion-vector-v1 holding the
// deleted row positions of one data file as a 64-bit Roaring bitmap in its portable form.
//
// Blob layout: a 4-byte big-endian length of what follows up to the checksum, the magic bytes
// D1 D3 39 64, the bitmap (an 8-byte little-endian count of 32-bit bitmaps, each a 4-byte
// little-endian key holding the positions' high 32 bits and a 32-bit Roaring bitmap in the
// portable serialization), then a 4-byte big-endian CRC-32 of the magic and the bitmap.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "floe/result.h"

namespace floe::parquet {

// The positions a deletion-vector blob holds, ascending. Anything that does not follow the
// layout (a bad length, magic or checksum, a container running past the blob, keys out of
// order) is Corrupt, naming what was wrong.
//
// Reading is ours rather than CRoaring's: Debian 12's CRoaring (0.2.66) bounds its reads in
// portable_deserialize_safe but takes a container's contents on trust (unsorted arrays,
// overlapping runs, runs past 65535 are accepted), and a blob another engine wrote is input
// to check. Every rule of the portable format is checked here instead.
Result<std::vector<int64_t>> DecodeDeletionVector(std::string_view blob);

// The blob of `positions` (any order, duplicates allowed; each in [0, 2^63)): one 32-bit
// Roaring bitmap per distinct high half, built and serialized by CRoaring with run containers
// where they are smaller, as Iceberg Java writes them. InvalidArgument for a negative
// position or a high half past 2^31 - 1 (the spec's limit on keys).
Result<std::string> EncodeDeletionVector(const std::vector<int64_t>& positions);

}  // namespace floe::parquet
