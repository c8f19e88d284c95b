// Puffin files (Iceberg's format for blobs beside a table: deletion vectors, statistics).
//
// Layout: the magic "PFA1", the blobs one after another, then the footer: the magic again, a
// JSON payload describing every blob (type, input fields, snapshot id, sequence number,
// offset, length, compression codec, properties) and the file's properties, the payload's
// size (4 bytes, little-endian), 4 bytes of flags (bit 0: payload LZ4-compressed), and the
// magic. A reader needs only the file's size and its tail to find every blob.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/result.h"

namespace floe::parquet {

inline constexpr std::string_view kPuffinMagic = "PFA1";
inline constexpr std::string_view kDeletionVectorBlobType = "deletion-vector-v1";
// The field id of the _pos metadata column: the input field of a deletion vector.
inline constexpr int kRowPositionFieldId = 2147483545;
// A Puffin footer's fixed tail: payload size, flags and magic.
inline constexpr int64_t kPuffinTrailerSize = 12;

struct PuffinBlobMetadata {
  std::string type;
  std::vector<int> fields;
  int64_t snapshot_id = -1;      // -1: assigned by inheritance (deletion vectors)
  int64_t sequence_number = -1;  // likewise
  int64_t offset = 0;
  int64_t length = 0;
  std::optional<std::string> compression_codec;  // absent: stored as is
  std::map<std::string, std::string> properties;
};

struct PuffinFooter {
  std::vector<PuffinBlobMetadata> blobs;
  std::map<std::string, std::string> properties;
  int64_t footer_size = 0;  // from the second magic to the end of the file
};

// Builds a Puffin file in memory (deletion-vector files are small: a few bytes a data file).
class PuffinWriter {
 public:
  explicit PuffinWriter(std::map<std::string, std::string> file_properties = {});
  // Appends a blob; `meta`'s offset and length are filled in. Returns the completed metadata.
  const PuffinBlobMetadata& Add(std::string_view bytes, PuffinBlobMetadata meta);
  // The whole file: header, blobs and an uncompressed footer.
  std::string Finish() const;

 private:
  std::string blobs_;
  std::vector<PuffinBlobMetadata> metadata_;
  std::map<std::string, std::string> properties_;
};

// The size of the footer of a file of `file_size` bytes whose last kPuffinTrailerSize bytes
// are `trailer`. Corrupt when the magic is missing or the size cannot fit in the file.
Result<int64_t> PuffinFooterSize(std::string_view trailer, int64_t file_size);
// Parses the footer (`footer`: the last footer_size bytes of the file). Every blob must lie
// between the header and the footer; a compressed footer is NotSupported (Iceberg's writers
// leave it uncompressed). Errors name `file` and the field.
Result<PuffinFooter> ParsePuffinFooter(std::string_view footer, int64_t file_size, std::string_view file);

// A deletion-vector blob's metadata, as Iceberg Java writes it.
PuffinBlobMetadata DeletionVectorBlob(const std::string& referenced_data_file, int64_t cardinality);

}  // namespace floe::parquet
