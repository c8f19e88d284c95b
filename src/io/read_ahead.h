// Telling an InputFile which ranges are read next, for stores where every read is a request.
//
// An InputFile that also is a ReadAheadFile (S3's) fetches the ranges it is told about in as few
// requests as it can and serves the ReadAt calls they cover from memory it owns. Only a hint: the
// reads give the same bytes with or without it. Files where a read costs no round trip (local,
// memory) are not ReadAheadFiles; WillRead(file, ...) does nothing for them.
#pragma once

#include <cstdint>
#include <vector>

#include "floe/file_io.h"

namespace floe {

// Bytes [offset, offset + length) of a file.
struct ByteRange {
  int64_t offset = 0;
  int64_t length = 0;
};

class ReadAheadFile {
 public:
  virtual ~ReadAheadFile() = default;
  // An error is the one a ReadAt of those ranges would have given.
  virtual Status WillRead(const std::vector<ByteRange>& ranges) const = 0;
  // The reader is done with these ranges: views of them may become invalid, and their memory
  // is given back. Reading them again costs a request again.
  virtual void DoneReading(const std::vector<ByteRange>& ranges) const { (void)ranges; }
};

// `file`'s WillRead when it has one, else nothing.
inline Status WillRead(const InputFile& file, const std::vector<ByteRange>& ranges) {
  if (const auto* ahead = dynamic_cast<const ReadAheadFile*>(&file)) return ahead->WillRead(ranges);
  return Ok();
}

// `file`'s DoneReading when it has one, else nothing.
inline void DoneReading(const InputFile& file, const std::vector<ByteRange>& ranges) {
  if (const auto* ahead = dynamic_cast<const ReadAheadFile*>(&file)) ahead->DoneReading(ranges);
}

}  // namespace floe
