// Reading one S3 object in few requests: the ranged GETs behind S3FileIO's reads and its
// InputFile.
//
// Opening an InputFile is one GET of the object's last `tail_bytes` (a suffix range,
// `Range: bytes=-N`): the answer's Content-Range gives the size, which a HEAD would otherwise
// have cost a round trip of its own, and the tail is where a Parquet footer lives. A file no
// longer than the tail is then read without another request. WillRead merges the ranges it is
// told about, where the gaps between them are small, into as few GETs as it can, whose bodies a
// thread receives while the reader decodes (s3_streamed_read.h), holding a bounded number of
// bytes; DoneReading frees them. ReadAt serves every read inside the tail or an announced range
// from memory and GETs the rest.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "floe/file_io.h"
#include "io/read_ahead.h"
#include "io/s3_client.h"
#include "io/s3_streamed_read.h"

namespace floe {

// NotFound naming `uri` for a 404 on an object, or the bucket's error when the bucket is missing.
Error S3ObjectNotFound(const S3Response& response, const std::string& uri, const S3Config& config);

// Bytes [offset, offset + length) of an object; a range past its end is InvalidArgument.
Result<std::string> S3GetRange(S3Client& client, const S3Location& location, int64_t offset, int64_t length);

// How WillRead merges ranges. The rule: two ranges are one GET when receiving the gap between
// them takes less time than a request of its own costs before its first byte, that is when
//   gap <= bandwidth of one connection x first-byte latency.
// Both are measured: the latency by the tail GET that opened this file (a store's first byte can
// depend on the object: moto reads all of it for every ranged GET), the bandwidth by the client on
// its bodies of 1 MiB or more (S3ReadSpeed; `assumed_bytes_per_ms` stands in until one came), and
// the gap is kept within [max_gap, max_measured_gap]. On S3 (about 100 MB/s a
// connection, 10-30 ms to the first byte) that is 1-3 MB; on moto, which reads the whole object
// for every ranged GET (~300 ms on a 134 MB object), tens of MB. A gap's bytes are dropped as
// they arrive, so reading across one costs time, never memory. `measured_gap` false: `max_gap`
// alone. A scan announces the projected chunks of all the row groups it reads at once: a file
// whose chunks lie together (every column read) costs the tail GET and one more; a few columns
// of many cost one GET per row group when the gaps are over the rule's, sent one after another
// by one thread. `max_request` only caps one answer's length (memory does not depend on it).
// `max_buffered`: the budget of bytes one file's announced ranges hold (s3_streamed_read.h); the
// reader still gets a row group whose projected chunks alone pass it.
struct S3ReadCoalescing {
  int64_t tail_bytes = 64 << 10;
  int64_t max_gap = 1 << 20;
  bool measured_gap = true;
  int64_t assumed_bytes_per_ms = 100'000;  // 100 MB/s
  int64_t max_measured_gap = 64 << 20;
  int64_t max_request = int64_t{1} << 30;
  int64_t max_buffered = 32 << 20;
};

// The largest gap worth reading across at `speed` by `rules` (see above).
int64_t GapWorthReading(const S3ReadCoalescing& rules, const S3ReadSpeed& speed);

// [begin, end) runs covering `ranges` (sorted, empty ones dropped), merged by `rules`.
std::vector<ByteRange> CoalesceRanges(std::vector<ByteRange> ranges, const S3ReadCoalescing& rules);

class S3InputFile : public InputFile, public ReadAheadFile {
 public:
  // One suffix-range GET; a missing object is NotFound. An empty object (which has no suffix to
  // GET) costs a HEAD after the refused range.
  static Result<std::unique_ptr<S3InputFile>> Open(std::shared_ptr<S3Client> client, S3Location location,
                                                   std::string path, S3ReadCoalescing rules = {});

  const std::string& path() const override { return path_; }
  int64_t Size() const override { return size_; }
  Result<std::string_view> ReadAt(int64_t offset, int64_t length, char* scratch) const override;
  Status WillRead(const std::vector<ByteRange>& ranges) const override;
  void DoneReading(const std::vector<ByteRange>& ranges) const override;
  ~S3InputFile() override;

 private:
  struct Block {
    int64_t offset = 0;
    std::string bytes;
  };
  S3InputFile(std::shared_ptr<S3Client> client, S3Location location, std::string path, int64_t size,
              S3ReadCoalescing rules, double first_byte_ms)
      : client_(std::move(client)), location_(std::move(location)), path_(std::move(path)), size_(size),
        rules_(rules), first_byte_ms_(first_byte_ms) {}
  // The fetched block holding all of [offset, offset + length), or null.
  const Block* Covering(int64_t offset, int64_t length) const;
  // The streamed read whose announced range holds all of it, or null (mutex_ held).
  S3StreamedRead* StreamHolding(int64_t offset, int64_t length) const;

  std::shared_ptr<S3Client> client_;
  S3Location location_;
  std::string path_;
  int64_t size_ = 0;
  S3ReadCoalescing rules_;
  double first_byte_ms_ = 0;  // the opening GET's, 0 if unknown
  mutable std::mutex mutex_;
  mutable std::deque<Block> blocks_;  // a deque: views into a block stay valid as blocks are added
  // One per WillRead that asked for something; dropped once all its ranges are released.
  mutable std::vector<std::unique_ptr<S3StreamedRead>> streams_;
};

}  // namespace floe
