// The announced ranges of one S3 object, received by a thread of their own while the reader
// decodes, in bounded memory.
//
// S3InputFile::WillRead hands over the ranges a reader will read next (a scan: the projected
// column chunks of the row groups it reads) and the runs covering them (CoalesceRanges: one GET
// each). One thread sends the runs' GETs one after another and takes each answer's body as it
// arrives (HttpBodySink): the bytes of an announced range go to a buffer of that range's own, the
// bytes between ranges (a gap read to save a request) are dropped as they pass. The reader's
// ReadAt of a range waits for its bytes and gets a view of its buffer; Release (the reader's
// DoneReading, after it decoded a row group) frees the buffers.
//
// Backpressure: before it takes a new range's bytes, the thread waits while the bytes held would
// pass `budget`, unless a reader waits for bytes of that range or before it (a row group's chunks are all
// held while it is decoded, so the reader must get them even past the budget). While the thread
// waits it reads nothing more from the connection and the server stops sending. So what one file
// holds stays under max(budget + its largest range, the ranges a reader holds at once: one row
// group's projected chunks): set by the file's layout, never by its size.
//
// A body cut short (a reset, a stall longer than S3Config::stall_timeout_ms while the reader was
// busy) is resumed by a GET of the rest of the run, sent once the budget has room again; after
// S3Config::max_attempts such GETs in a row that brought no byte, or an answer that is not the
// object's bytes, every waiting and later read of a range not yet received gets the error,
// naming the object.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "floe/result.h"
#include "io/read_ahead.h"
#include "io/s3_client.h"

namespace floe {

// "bytes FIRST-LAST/SIZE" of a 206 answer.
struct S3ContentRange {
  int64_t first = 0;
  int64_t last = 0;
  int64_t size = 0;
};
std::optional<S3ContentRange> ParseS3ContentRange(std::string_view text);

class S3StreamedRead {
 public:
  // `ranges`: sorted, not overlapping, each inside one of `runs` (sorted, not overlapping).
  // Starts the receiving thread.
  S3StreamedRead(std::shared_ptr<S3Client> client, S3Location location, std::vector<ByteRange> runs,
                 std::vector<ByteRange> ranges, int64_t budget);
  // Stops the transfer and joins the thread; frees every buffer.
  ~S3StreamedRead();
  S3StreamedRead(const S3StreamedRead&) = delete;
  S3StreamedRead& operator=(const S3StreamedRead&) = delete;

  // Whether [offset, offset + length) lies inside one announced range not yet released.
  bool Holds(int64_t offset, int64_t length) const;
  // Those bytes, once received (Holds must be true). The view stays valid until its range is
  // released or this object destroyed.
  Result<std::string_view> Read(int64_t offset, int64_t length);
  // Frees the buffers of the announced ranges lying inside the union of `ranges`; bytes of a
  // released range not received yet are dropped when they arrive.
  void Release(const std::vector<ByteRange>& ranges);
  // True once every announced range was released: nothing here can serve a read any more.
  bool Spent() const;

 private:
  struct Range {
    int64_t offset = 0;
    int64_t length = 0;
    std::unique_ptr<char[]> bytes;  // null until the thread reaches the range, and once released
    bool released = false;
  };

  void Receive();  // the thread
  // Takes body bytes that start at object offset position_; false stops the transfer.
  bool Take(std::string_view bytes);
  void Drop(Range& range);  // frees its buffer (mutex_ held)

  std::shared_ptr<S3Client> client_;
  S3Location location_;
  std::vector<ByteRange> runs_;
  int64_t budget_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;  // position_, held_, released ranges, stop_ or error_ moved
  std::vector<Range> ranges_;
  size_t next_ = 0;        // the first range not entirely received
  int64_t position_ = 0;   // the object offset of the next body byte expected
  int64_t held_ = 0;       // bytes of the buffers allocated and not freed
  std::multiset<int64_t> waited_ends_;  // per waiting reader, the end of the bytes it waits for
  bool stop_ = false;
  std::optional<Error> error_;
  std::thread thread_;
};

}  // namespace floe
