#include "write/csv_records.h"

#include <algorithm>
#include <cstring>

namespace floe {
namespace {

constexpr size_t kChunkBytes = 1 << 20;

// Ends an unquoted field: the first ',' or '\n' at or after `from`, or `n`.
size_t UnquotedEnd(const char* data, size_t from, size_t n) {
  for (size_t i = from; i < n; ++i)
    if (data[i] == ',' || data[i] == '\n') return i;
  return n;
}

}  // namespace

CsvRecordReader::CsvRecordReader(std::istream& in, std::string source_name)
    : in_(in), source_(std::move(source_name)) {}

Status CsvRecordReader::Refill() {
  buffer_.erase(0, pos_);
  pos_ = 0;
  const size_t old = buffer_.size();
  const size_t want = std::max(kChunkBytes, old);  // a record longer than a chunk doubles the buffer
  buffer_.resize(old + want);
  in_.read(buffer_.data() + old, static_cast<std::streamsize>(want));
  const size_t got = static_cast<size_t>(in_.gcount());
  buffer_.resize(old + got);
  if (in_.bad()) return IOError(source_ + ": read error");
  if (got < want) eof_ = true;
  return Ok();
}

CsvRecordReader::Parse CsvRecordReader::ParseRecord(std::vector<CsvField>* fields, size_t* end) {
  const char* data = buffer_.data();
  const size_t n = buffer_.size();
  size_t i = pos_;
  fields->clear();
  unescaped_.clear();
  struct Escaped {
    size_t field, offset, length;
  };
  std::vector<Escaped> escaped;
  int64_t newlines = 0;
  if (i >= n) return Parse::kNeedMore;
  if (data[i] == '\n' || (data[i] == '\r' && i + 1 < n && data[i + 1] == '\n')) {
    *end = i + (data[i] == '\n' ? 1 : 2);
    return Parse::kBlank;
  }
  if (data[i] == '\r' && i + 1 >= n && !eof_) return Parse::kNeedMore;
  while (true) {
    CsvField field;
    if (i < n && data[i] == '"') {
      field.quoted = true;
      const size_t start = ++i;
      bool has_escape = false;
      while (true) {
        const void* q = i < n ? std::memchr(data + i, '"', n - i) : nullptr;
        if (!q) return eof_ ? Parse::kUnterminated : Parse::kNeedMore;
        size_t at = static_cast<const char*>(q) - data;
        if (at + 1 >= n && !eof_) return Parse::kNeedMore;  // "" or the end: the next byte decides
        if (at + 1 < n && data[at + 1] == '"') {
          has_escape = true;
          i = at + 2;
          continue;
        }
        newlines += std::count(data + start, data + at, '\n');
        if (has_escape) {
          size_t offset = unescaped_.size();
          for (size_t k = start; k < at; ++k) {
            unescaped_.push_back(data[k]);
            if (data[k] == '"') ++k;
          }
          escaped.push_back({fields->size(), offset, unescaped_.size() - offset});
        } else {
          field.text = std::string_view(data + start, at - start);
        }
        i = at + 1;
        break;
      }
      if (i < n && data[i] == '\r') {  // CRLF, or a lone CR at the very end
        if (i + 1 < n ? data[i + 1] == '\n' : eof_) ++i;
        else if (i + 1 >= n) return Parse::kNeedMore;
      }
      if (i < n && data[i] != ',' && data[i] != '\n') return Parse::kStrayQuote;
    } else {
      const size_t start = i;
      i = UnquotedEnd(data, i, n);
      if (i >= n && !eof_) return Parse::kNeedMore;
      size_t stop = i;
      if (stop > start && data[stop - 1] == '\r' && (i >= n || data[i] == '\n')) --stop;
      field.text = std::string_view(data + start, stop - start);
    }
    fields->push_back(field);
    if (i < n && data[i] == ',') {
      ++i;
      continue;
    }
    if (i < n) {  // '\n'
      ++i;
      ++newlines;
    }
    break;
  }
  for (const Escaped& e : escaped) (*fields)[e.field].text = std::string_view(unescaped_).substr(e.offset, e.length);
  *end = i;
  newlines_ = newlines;
  return Parse::kRecord;
}

Result<bool> CsvRecordReader::Next(std::vector<CsvField>* fields) {
  while (true) {
    if (pos_ >= buffer_.size() && eof_) return false;
    size_t end = 0;
    switch (ParseRecord(fields, &end)) {
      case Parse::kNeedMore: {
        if (eof_) return false;
        FLOE_RETURN_IF_ERROR(Refill());
        continue;
      }
      case Parse::kBlank:
        pos_ = end;
        ++line_;
        continue;
      case Parse::kRecord:
        pos_ = end;
        record_line_ = line_;
        line_ += newlines_;
        return true;
      case Parse::kUnterminated:
        return InvalidArgument(source_ + " line " + std::to_string(line_) + ": unterminated quoted field");
      case Parse::kStrayQuote:
        return InvalidArgument(source_ + " line " + std::to_string(line_) +
                               ": text after a closing quote (a quoted field must end at ',' or the line's end)");
    }
  }
}

}  // namespace floe
