#include "io/s3_streamed_read.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "io/s3_input_file.h"

namespace floe {
namespace {

std::optional<int64_t> ParseRangeNumber(std::string_view text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

// The union of `ranges` as sorted, disjoint ranges (touching ones joined).
std::vector<ByteRange> JoinedRanges(std::vector<ByteRange> ranges) {
  std::sort(ranges.begin(), ranges.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
  std::vector<ByteRange> out;
  for (const ByteRange& r : ranges) {
    if (r.length <= 0) continue;
    if (!out.empty() && r.offset <= out.back().offset + out.back().length) {
      out.back().length = std::max(out.back().offset + out.back().length, r.offset + r.length) - out.back().offset;
    } else {
      out.push_back(r);
    }
  }
  return out;
}

}  // namespace

std::optional<S3ContentRange> ParseS3ContentRange(std::string_view text) {
  if (!text.starts_with("bytes ")) return std::nullopt;
  text.remove_prefix(6);
  size_t dash = text.find('-'), slash = text.find('/');
  if (dash == std::string_view::npos || slash == std::string_view::npos || dash > slash) return std::nullopt;
  auto first = ParseRangeNumber(text.substr(0, dash));
  auto last = ParseRangeNumber(text.substr(dash + 1, slash - dash - 1));
  auto size = ParseRangeNumber(text.substr(slash + 1));
  if (!first || !last || !size || *first > *last || *last >= *size) return std::nullopt;
  return S3ContentRange{*first, *last, *size};
}

S3StreamedRead::S3StreamedRead(std::shared_ptr<S3Client> client, S3Location location, std::vector<ByteRange> runs,
                               std::vector<ByteRange> ranges, int64_t budget)
    : client_(std::move(client)), location_(std::move(location)), runs_(std::move(runs)), budget_(budget) {
  ranges_.reserve(ranges.size());
  for (const ByteRange& r : ranges) ranges_.push_back(Range{r.offset, r.length, nullptr, false});
  if (!runs_.empty()) position_ = runs_.front().offset;
  thread_ = std::thread([this] { Receive(); });
}

S3StreamedRead::~S3StreamedRead() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
  std::lock_guard lock(mutex_);
  for (Range& r : ranges_) Drop(r);
}

void S3StreamedRead::Drop(Range& range) {
  if (!range.bytes) return;
  range.bytes.reset();
  held_ -= range.length;
  client_->AddHeldReadBytes(-range.length);
}

bool S3StreamedRead::Take(std::string_view bytes) {
  std::unique_lock lock(mutex_);
  while (!bytes.empty()) {
    if (stop_) return false;
    while (next_ < ranges_.size() && ranges_[next_].offset + ranges_[next_].length <= position_) ++next_;
    if (next_ == ranges_.size()) {  // past the last range: nothing more to keep
      position_ += static_cast<int64_t>(bytes.size());
      return true;
    }
    Range& r = ranges_[next_];
    if (position_ < r.offset || r.released) {  // a gap's bytes, or a range nobody will read: dropped
      const int64_t skip_to = r.released ? r.offset + r.length : r.offset;
      const int64_t skip = std::min<int64_t>(static_cast<int64_t>(bytes.size()), skip_to - position_);
      position_ += skip;
      bytes.remove_prefix(static_cast<size_t>(skip));
      continue;
    }
    if (!r.bytes) {
      // The backpressure (see the header): a range larger than the budget alone is still taken.
      changed_.wait(lock, [&] {
        return stop_ || r.released || held_ == 0 || held_ + r.length <= budget_ ||
               (!waited_ends_.empty() && r.offset < *waited_ends_.rbegin());
      });
      if (stop_) return false;
      if (r.released) continue;
      r.bytes = std::make_unique_for_overwrite<char[]>(static_cast<size_t>(r.length));
      held_ += r.length;
      client_->AddHeldReadBytes(r.length);
    }
    const int64_t n = std::min<int64_t>(static_cast<int64_t>(bytes.size()), r.offset + r.length - position_);
    std::memcpy(r.bytes.get() + (position_ - r.offset), bytes.data(), static_cast<size_t>(n));
    position_ += n;
    bytes.remove_prefix(static_cast<size_t>(n));
    if (!waited_ends_.empty() && position_ >= *waited_ends_.begin()) changed_.notify_all();
  }
  return true;
}

void S3StreamedRead::Receive() {
  const std::string uri = location_.Uri();
  auto fail = [&](Error e) {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = std::move(e);
    changed_.notify_all();
  };
  // GETs in a row that brought nothing: an answer cut after some progress is not a failure (a
  // reader that pauses longer than the stall timeout cuts the connection on purpose).
  int fruitless = 0;
  for (const ByteRange& run : runs_) {
    const int64_t end = run.offset + run.length;
    for (;;) {
      int64_t from = 0;
      {
        std::unique_lock lock(mutex_);
        // No GET while the budget is full and nobody waits: it would only stall again.
        changed_.wait(lock, [&] { return stop_ || held_ == 0 || held_ < budget_ || !waited_ends_.empty(); });
        if (stop_) return;
        position_ = std::max(position_, run.offset);  // the bytes between runs are never asked for
        // A run whose ranges were all released before it began is not sent at all.
        bool wanted = false;
        for (size_t i = next_; i < ranges_.size() && ranges_[i].offset < end; ++i) {
          wanted = wanted || (!ranges_[i].released && ranges_[i].offset + ranges_[i].length > position_);
        }
        if (!wanted) position_ = std::max(position_, end);
        from = position_;
      }
      if (from >= end) break;
      if (fruitless >= std::max(1, client_->config().max_attempts)) {
        return fail(Error{ErrorKind::kUnavailable, "GET " + uri + ": " + std::to_string(fruitless) +
                                                       " answers in a row for bytes " + std::to_string(from) + "-" +
                                                       std::to_string(end - 1) + " ended before their first byte"});
      }
      S3Request get{"GET", location_.bucket, location_.key};
      get.headers = {{"Range", "bytes=" + std::to_string(from) + "-" + std::to_string(end - 1)}};
      int64_t body_at = -1;  // the object offset of this answer's next body byte
      std::string refused;
      get.body_sink = [&](const HttpResponse& head, std::string_view bytes) {
        if (body_at < 0) {
          if (head.status == 206) {
            const std::string* header = head.Header("content-range");
            auto range = header ? ParseS3ContentRange(*header) : std::nullopt;
            if (!range || range->first != from) {
              refused = "the answer to a read of bytes " + std::to_string(from) + "-" + std::to_string(end - 1) +
                        " has Content-Range " + (header ? "'" + *header + "'" : std::string("none"));
              return false;
            }
            body_at = from;
          } else {
            body_at = 0;  // a store that ignores ranges sends the whole object
          }
        }
        if (body_at < from) {
          const int64_t skip = std::min<int64_t>(static_cast<int64_t>(bytes.size()), from - body_at);
          body_at += skip;
          bytes.remove_prefix(static_cast<size_t>(skip));
        }
        if (body_at >= end) return false;  // all of the run is here; a whole object's rest is not needed
        if (body_at + static_cast<int64_t>(bytes.size()) > end) bytes = bytes.substr(0, static_cast<size_t>(end - body_at));
        body_at += static_cast<int64_t>(bytes.size());
        return Take(bytes);
      };
      Result<S3Response> response = client_->Send(get, "GET " + uri);
      {
        std::lock_guard lock(mutex_);
        if (stop_) return;
        if (position_ >= end) break;
        fruitless = position_ > from ? 0 : fruitless + 1;
      }
      if (!refused.empty()) return fail(Error{ErrorKind::kIOError, "GET " + uri + ": " + refused});
      if (!response) return fail(response.error());
      if (response->status == 404) return fail(S3ObjectNotFound(*response, uri, client_->config()));
      if (response->status != 0 && response->status != 200 && response->status != 206) {
        return fail(S3Error(*response, "GET " + uri, client_->config()));
      }
      // Cut short (no answer, or an answer that ended early): the rest is asked for again.
    }
  }
  std::lock_guard lock(mutex_);
  if (!error_) {
    // Every run is received; a range still short of its bytes cannot be (an answer lied about its length).
    for (size_t i = next_; i < ranges_.size(); ++i) {
      if (!ranges_[i].released && ranges_[i].offset + ranges_[i].length > position_) {
        error_ = Error{ErrorKind::kIOError, "GET " + uri + ": bytes from " + std::to_string(position_) + " never came"};
        break;
      }
    }
  }
  changed_.notify_all();
}

bool S3StreamedRead::Holds(int64_t offset, int64_t length) const {
  std::lock_guard lock(mutex_);
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), offset,
                             [](int64_t o, const Range& r) { return o < r.offset; });
  if (it == ranges_.begin()) return false;
  const Range& r = *std::prev(it);
  return !r.released && offset + length <= r.offset + r.length;
}

Result<std::string_view> S3StreamedRead::Read(int64_t offset, int64_t length) {
  std::unique_lock lock(mutex_);
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), offset,
                             [](int64_t o, const Range& r) { return o < r.offset; });
  if (it == ranges_.begin()) return IOError("GET " + location_.Uri() + ": a read outside the announced ranges");
  Range& r = *std::prev(it);
  const int64_t end = offset + length;
  auto waiting = waited_ends_.insert(end);
  changed_.notify_all();  // the thread may wait on the budget: a reader needs bytes now
  changed_.wait(lock, [&] { return (position_ >= end && r.bytes) || r.released || error_ || stop_; });
  waited_ends_.erase(waiting);
  if (!r.released && r.bytes && position_ >= end) {
    return std::string_view(r.bytes.get() + (offset - r.offset), static_cast<size_t>(length));
  }
  if (error_) return std::unexpected(*error_);
  return IOError("GET " + location_.Uri() + ": bytes " + std::to_string(offset) + "-" + std::to_string(end - 1) +
                 " were released before they were read");
}

void S3StreamedRead::Release(const std::vector<ByteRange>& ranges) {
  const std::vector<ByteRange> done = JoinedRanges(ranges);
  if (done.empty()) return;
  {
    std::lock_guard lock(mutex_);
    for (Range& r : ranges_) {
      if (r.released) continue;
      auto it = std::upper_bound(done.begin(), done.end(), r.offset,
                                 [](int64_t o, const ByteRange& d) { return o < d.offset; });
      if (it == done.begin()) continue;
      const ByteRange& d = *std::prev(it);
      if (r.offset + r.length <= d.offset + d.length) {
        r.released = true;
        Drop(r);
      }
    }
  }
  changed_.notify_all();
}

bool S3StreamedRead::Spent() const {
  std::lock_guard lock(mutex_);
  return std::all_of(ranges_.begin(), ranges_.end(), [](const Range& r) { return r.released; });
}

}  // namespace floe
