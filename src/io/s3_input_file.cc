#include "io/s3_input_file.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>

#include "io/s3_xml.h"

namespace floe {
namespace {

std::optional<int64_t> ParseCount(std::string_view text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

}  // namespace

Error S3ObjectNotFound(const S3Response& response, const std::string& uri, const S3Config& config) {
  Error e = S3Error(response, "reading " + uri, config);
  if (XmlText(response.body, "Code") == "NoSuchBucket") return e;
  return Error{ErrorKind::kNotFound, "no such file: " + uri};
}

Result<std::string> S3GetRange(S3Client& client, const S3Location& location, int64_t offset, int64_t length) {
  const std::string uri = location.Uri();
  S3Request get{"GET", location.bucket, location.key};
  get.headers = {{"Range", "bytes=" + std::to_string(offset) + "-" + std::to_string(offset + length - 1)}};
  FLOE_ASSIGN_OR_RETURN(S3Response response, client.Send(get, "GET " + uri));
  if (response.status == 404) return std::unexpected(S3ObjectNotFound(response, uri, client.config()));
  if (response.status == 416) {
    return InvalidArgument("read of " + std::to_string(length) + " bytes at offset " + std::to_string(offset) +
                           " is outside " + uri);
  }
  if (response.status == 200 && static_cast<int64_t>(response.body.size()) >= offset + length) {
    return response.body.substr(static_cast<size_t>(offset), static_cast<size_t>(length));  // range ignored
  }
  if (response.status != 206 && response.status != 200) {
    return std::unexpected(S3Error(response, "GET " + uri, client.config()));
  }
  if (static_cast<int64_t>(response.body.size()) != length) {
    std::string size = "?";
    if (const std::string* range = response.Header("content-range")) size = range->substr(range->find('/') + 1);
    return InvalidArgument("read of " + std::to_string(length) + " bytes at offset " + std::to_string(offset) +
                           " is outside " + uri + " (size " + size + ")");
  }
  return std::move(response.body);
}

int64_t GapWorthReading(const S3ReadCoalescing& rules, const S3ReadSpeed& speed) {
  if (!rules.measured_gap || speed.first_byte_ms <= 0) return rules.max_gap;
  const double bytes_per_ms = speed.bytes_per_ms > 0 ? speed.bytes_per_ms : static_cast<double>(rules.assumed_bytes_per_ms);
  const double gap = bytes_per_ms * speed.first_byte_ms;
  if (gap >= static_cast<double>(rules.max_measured_gap)) return std::max(rules.max_gap, rules.max_measured_gap);
  return std::max(rules.max_gap, static_cast<int64_t>(gap));
}

std::vector<ByteRange> CoalesceRanges(std::vector<ByteRange> ranges, const S3ReadCoalescing& rules) {
  std::erase_if(ranges, [](const ByteRange& r) { return r.length <= 0; });
  std::sort(ranges.begin(), ranges.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
  std::vector<ByteRange> out;
  for (const ByteRange& r : ranges) {
    if (!out.empty()) {
      ByteRange& last = out.back();
      const int64_t last_end = last.offset + last.length;
      const int64_t end = std::max(last_end, r.offset + r.length);
      if (r.offset - last_end <= rules.max_gap && end - last.offset <= rules.max_request) {
        last.length = end - last.offset;
        continue;
      }
    }
    out.push_back(r);
  }
  return out;
}

Result<std::unique_ptr<S3InputFile>> S3InputFile::Open(std::shared_ptr<S3Client> client, S3Location location,
                                                       std::string path, S3ReadCoalescing rules) {
  const std::string uri = location.Uri();
  S3Request get{"GET", location.bucket, location.key};
  get.headers = {{"Range", "bytes=-" + std::to_string(std::max<int64_t>(rules.tail_bytes, 1))}};
  FLOE_ASSIGN_OR_RETURN(S3Response response, client->Send(get, "GET " + uri));
  if (response.status == 404) return std::unexpected(S3ObjectNotFound(response, uri, client->config()));
  Block tail;
  int64_t size = 0;
  const double first_byte_ms = response.first_byte_us / 1000.0;
  if (response.status == 206) {
    const std::string* header = response.Header("content-range");
    auto range = header ? ParseS3ContentRange(*header) : std::nullopt;
    if (!range || range->first + static_cast<int64_t>(response.body.size()) != range->size) {
      return IOError("GET " + uri + ": the answer to a read of the object's end has no usable Content-Range (" +
                     (header ? "'" + *header + "'" : std::string("none")) + ")");
    }
    size = range->size;
    tail = Block{range->first, std::move(response.body)};
  } else if (response.status == 200) {  // a store that ignores ranges sends the whole object
    size = static_cast<int64_t>(response.body.size());
    tail = Block{0, std::move(response.body)};
  } else if (response.status == 416) {  // no suffix to send: the object is empty (a HEAD says so)
    FLOE_ASSIGN_OR_RETURN(S3Response head, client->Send({"HEAD", location.bucket, location.key}, "HEAD " + uri));
    if (head.status == 404) return NotFound("no such file: " + uri);
    const std::string* length = head.Header("content-length");
    if (head.status != 200 || length == nullptr || !ParseCount(*length)) {
      return std::unexpected(S3Error(head, "HEAD " + uri, client->config()));
    }
    size = *ParseCount(*length);
  } else {
    return std::unexpected(S3Error(response, "GET " + uri, client->config()));
  }
  std::unique_ptr<S3InputFile> file(
      new S3InputFile(std::move(client), std::move(location), std::move(path), size, rules, first_byte_ms));
  if (!tail.bytes.empty()) {
    file->client_->AddHeldReadBytes(static_cast<int64_t>(tail.bytes.size()));
    file->blocks_.push_back(std::move(tail));
  }
  return file;
}

S3InputFile::~S3InputFile() {
  streams_.clear();  // stops their transfers first
  for (const Block& b : blocks_) client_->AddHeldReadBytes(-static_cast<int64_t>(b.bytes.size()));
}

S3StreamedRead* S3InputFile::StreamHolding(int64_t offset, int64_t length) const {
  for (const auto& stream : streams_) {
    if (stream->Holds(offset, length)) return stream.get();
  }
  return nullptr;
}

const S3InputFile::Block* S3InputFile::Covering(int64_t offset, int64_t length) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const Block& b : blocks_) {
    if (offset >= b.offset && offset + length <= b.offset + static_cast<int64_t>(b.bytes.size())) return &b;
  }
  return nullptr;
}

Result<std::string_view> S3InputFile::ReadAt(int64_t offset, int64_t length, char* scratch) const {
  FLOE_RETURN_IF_ERROR(CheckReadRange(path_, size_, offset, length));
  if (length == 0) return std::string_view(scratch, 0);
  if (const Block* b = Covering(offset, length)) {
    return std::string_view(b->bytes).substr(static_cast<size_t>(offset - b->offset), static_cast<size_t>(length));
  }
  S3StreamedRead* stream = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stream = StreamHolding(offset, length);
  }
  // A stream lives until its ranges are released, which its reader does only after this read.
  if (stream != nullptr) return stream->Read(offset, length);
  FLOE_ASSIGN_OR_RETURN(std::string bytes, S3GetRange(*client_, location_, offset, length));
  std::memcpy(scratch, bytes.data(), bytes.size());
  return std::string_view(scratch, bytes.size());
}

Status S3InputFile::WillRead(const std::vector<ByteRange>& ranges) const {
  std::vector<ByteRange> wanted;
  for (const ByteRange& r : ranges) {
    FLOE_RETURN_IF_ERROR(CheckReadRange(path_, size_, r.offset, r.length));
    if (r.length <= 0 || Covering(r.offset, r.length) != nullptr) continue;
    std::lock_guard<std::mutex> lock(mutex_);
    if (StreamHolding(r.offset, r.length) == nullptr) wanted.push_back(r);
  }
  if (wanted.empty()) return Ok();
  // The ranges to keep: overlapping ones (a chunk announced twice) joined, so each byte has one home.
  std::sort(wanted.begin(), wanted.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
  std::vector<ByteRange> keep;
  for (const ByteRange& r : wanted) {
    if (!keep.empty() && r.offset < keep.back().offset + keep.back().length) {
      keep.back().length = std::max(keep.back().offset + keep.back().length, r.offset + r.length) - keep.back().offset;
    } else {
      keep.push_back(r);
    }
  }
  S3ReadCoalescing rules = rules_;
  S3ReadSpeed speed = client_->ReadSpeed();
  if (first_byte_ms_ > 0) speed.first_byte_ms = first_byte_ms_;
  rules.max_gap = GapWorthReading(rules_, speed);
  std::vector<ByteRange> runs = CoalesceRanges(keep, rules);
  auto stream = std::make_unique<S3StreamedRead>(client_, location_, std::move(runs), std::move(keep),
                                                 rules_.max_buffered);
  std::lock_guard<std::mutex> lock(mutex_);
  streams_.push_back(std::move(stream));
  return Ok();
}

void S3InputFile::DoneReading(const std::vector<ByteRange>& ranges) const {
  std::vector<std::unique_ptr<S3StreamedRead>> spent;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& stream : streams_) {
      stream->Release(ranges);
      if (stream->Spent()) spent.push_back(std::move(stream));
    }
    std::erase(streams_, nullptr);
  }
  // `spent` is destroyed here, outside the lock: a transfer still running is stopped and joined.
}

}  // namespace floe
