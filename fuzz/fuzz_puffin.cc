// libFuzzer target: Puffin files and deletion-vector blobs. The first byte picks the input:
//   0  a deletion-vector blob: decoded; one that decodes must encode back to the same positions;
//   1  a Puffin file: its footer parsed, each deletion-vector blob it places decoded;
//   2  positions (8 bytes each): encoded, written into a Puffin file, found again through its
//      footer and decoded, which must give them back sorted and once each.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "parquet/deletion_vector.h"
#include "parquet/puffin.h"

namespace {

void Blob(std::string_view bytes) {
  auto positions = floe::parquet::DecodeDeletionVector(bytes);
  if (!positions) return;
  if (!std::is_sorted(positions->begin(), positions->end())) std::abort();
  auto again = floe::parquet::EncodeDeletionVector(*positions);
  if (!again) std::abort();  // positions a valid blob held are always encodable
  auto back = floe::parquet::DecodeDeletionVector(*again);
  if (!back || *back != *positions) std::abort();
}

void File(std::string_view bytes) {
  const auto size = static_cast<int64_t>(bytes.size());
  if (size < floe::parquet::kPuffinTrailerSize) return;
  auto footer_size = floe::parquet::PuffinFooterSize(bytes.substr(bytes.size() - floe::parquet::kPuffinTrailerSize), size);
  if (!footer_size) return;
  auto footer = floe::parquet::ParsePuffinFooter(bytes.substr(bytes.size() - *footer_size), size, "fuzz.puffin");
  if (!footer) return;
  for (const auto& blob : footer->blobs) {
    if (blob.offset < 0 || blob.length < 0 || blob.offset > size - blob.length) std::abort();  // the parser checked
    if (blob.type == floe::parquet::kDeletionVectorBlobType)
      (void)floe::parquet::DecodeDeletionVector(bytes.substr(blob.offset, blob.length));
  }
}

void RoundTrip(std::string_view bytes) {
  std::vector<int64_t> positions;
  for (size_t i = 0; i + 8 <= bytes.size(); i += 8) {
    uint64_t v = 0;
    std::memcpy(&v, bytes.data() + i, 8);
    positions.push_back(static_cast<int64_t>(v & ((uint64_t{1} << 40) - 1)));  // a few high keys
  }
  auto blob = floe::parquet::EncodeDeletionVector(positions);
  if (!blob) std::abort();
  floe::parquet::PuffinWriter writer;
  writer.Add(*blob, floe::parquet::DeletionVectorBlob("data/a.parquet", static_cast<int64_t>(positions.size())));
  const std::string file = writer.Finish();
  const auto size = static_cast<int64_t>(file.size());
  auto footer_size =
      floe::parquet::PuffinFooterSize(std::string_view(file).substr(file.size() - floe::parquet::kPuffinTrailerSize), size);
  if (!footer_size) std::abort();
  auto footer = floe::parquet::ParsePuffinFooter(std::string_view(file).substr(file.size() - *footer_size), size, "x");
  if (!footer || footer->blobs.size() != 1) std::abort();
  auto back = floe::parquet::DecodeDeletionVector(std::string_view(file).substr(footer->blobs[0].offset, footer->blobs[0].length));
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  if (!back || *back != positions) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0: Blob(rest); break;
    case 1: File(rest); break;
    default: RoundTrip(rest); break;
  }
  return 0;
}
