// Avro's binary encoding of single values: zig-zag varints, length-prefixed bytes, little-endian
// floats. The encoder appends to a string; the decoder reads a byte range and never reads past it.
//
// The decoder keeps a sticky failure flag instead of returning a Result from every read: a
// record is decoded field by field and checked once at its end, which keeps the hot loop free of
// branches on error paths. Every read after a failure returns a zero value and reads nothing.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace floe::avro {

class Encoder {
 public:
  explicit Encoder(std::string* out) : out_(out) {}

  void WriteLong(int64_t v) {
    uint64_t n = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
    char buf[10];
    int len = 0;
    while (n >= 0x80) {
      buf[len++] = static_cast<char>((n & 0x7f) | 0x80);
      n >>= 7;
    }
    buf[len++] = static_cast<char>(n);
    out_->append(buf, len);
  }
  void WriteInt(int32_t v) { WriteLong(v); }
  void WriteBool(bool v) { out_->push_back(v ? 1 : 0); }
  void WriteFloat(float v) { AppendRaw(&v, sizeof v); }
  void WriteDouble(double v) { AppendRaw(&v, sizeof v); }
  void WriteBytes(std::string_view v) {
    WriteLong(static_cast<int64_t>(v.size()));
    out_->append(v.data(), v.size());
  }
  void WriteString(std::string_view v) { WriteBytes(v); }
  void WriteFixed(std::string_view v) { out_->append(v.data(), v.size()); }
  // Union branch index; for Iceberg's optional fields branch 0 is null and 1 the value.
  void WriteUnionIndex(int index) { WriteLong(index); }
  void WriteNull() {}

  std::string* out() { return out_; }

 private:
  void AppendRaw(const void* p, size_t n) {  // x86-64 and aarch64 are little-endian, as Avro is
    out_->append(static_cast<const char*>(p), n);
  }
  std::string* out_;
};

class Decoder {
 public:
  Decoder() = default;
  explicit Decoder(std::string_view data) : pos_(data.data()), end_(data.data() + data.size()) {}

  bool failed() const { return failed_; }
  void Fail() {
    failed_ = true;
    pos_ = end_;
  }
  size_t remaining() const { return static_cast<size_t>(end_ - pos_); }
  bool AtEnd() const { return pos_ == end_; }

  int64_t ReadLong() {
    uint64_t n = 0;
    int shift = 0;
    while (true) {
      if (pos_ == end_ || shift > 63) {
        Fail();
        return 0;
      }
      uint8_t b = static_cast<uint8_t>(*pos_++);
      n |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) break;
      shift += 7;
    }
    return static_cast<int64_t>((n >> 1) ^ (~(n & 1) + 1));
  }
  // Reads past one int or long without decoding it (a value nobody keeps).
  void SkipVarint() {
    for (int i = 0; i < 10; ++i) {
      if (pos_ == end_) break;
      if (!(static_cast<uint8_t>(*pos_++) & 0x80)) return;
    }
    Fail();
  }
  // Reads past `count` ints or longs without decoding them, eight bytes at a time: a varint
  // ends at each byte whose high bit is clear, so a word's ends are found at once. Fails as
  // SkipVarint does on bytes running out or a varint over 10 bytes.
  void SkipVarints(uint64_t count) {
    const char* p = pos_;
    size_t run = 0;  // continuation bytes since the last varint ended
    while (count > 0 && end_ - p >= 8) {
      uint64_t word;
      std::memcpy(&word, p, 8);
      uint64_t ends = ~word & 0x8080808080808080ULL;  // little-endian: byte i is bits 8i..8i+7
      if (ends == 0) {
        run += 8;
        if (run >= 10) return Fail();
        p += 8;
        continue;
      }
      if (run + (static_cast<size_t>(std::countr_zero(ends)) >> 3) >= 10) return Fail();
      uint64_t last;  // the lowest end not yet counted, then the last one counted
      do {
        last = ends & (~ends + 1);
        ends &= ends - 1;
      } while (--count > 0 && ends != 0);
      if (count == 0) {
        p += (static_cast<size_t>(std::countr_zero(last)) >> 3) + 1;
        break;
      }
      run = static_cast<size_t>(std::countl_zero(last)) >> 3;  // bytes after the word's last end
      p += 8;
    }
    for (; count > 0; ++p) {
      if (p == end_) return Fail();
      if (static_cast<uint8_t>(*p) & 0x80) {
        if (++run >= 10) return Fail();
      } else {
        run = 0;
        --count;
      }
    }
    pos_ = p;
  }
  // Reads past `count` map items of an int key and a bytes value without looking at them. Most
  // keys and lengths are one byte each (field ids and bounds under 64 bytes), read here without
  // the general varint loop; fails as SkipVarint, ReadLong and Skip would.
  void SkipIntBytesItems(uint64_t count) {
    for (; count > 0 && !failed_; --count) {
      if (end_ - pos_ >= 2 && !((pos_[0] | pos_[1]) & 0x80)) {
        auto zigzag = static_cast<uint8_t>(pos_[1]);
        if (zigzag & 1) return Fail();  // an odd zigzag byte is a negative length
        size_t len = zigzag >> 1;
        pos_ += 2;
        Skip(len);
        continue;
      }
      SkipVarint();
      int64_t len = ReadLong();
      if (len < 0) return Fail();
      Skip(static_cast<size_t>(len));
    }
  }
  int32_t ReadInt() {
    int64_t v = ReadLong();
    if (v < INT32_MIN || v > INT32_MAX) {
      Fail();
      return 0;
    }
    return static_cast<int32_t>(v);
  }
  bool ReadBool() {
    if (pos_ == end_) {
      Fail();
      return false;
    }
    uint8_t b = static_cast<uint8_t>(*pos_++);
    if (b > 1) Fail();
    return b == 1;
  }
  float ReadFloat() {
    float v = 0;
    ReadRaw(&v, sizeof v);
    return v;
  }
  double ReadDouble() {
    double v = 0;
    ReadRaw(&v, sizeof v);
    return v;
  }
  // A view into the decoder's buffer: valid as long as that buffer is.
  std::string_view ReadBytesView() {
    int64_t len = ReadLong();
    if (len < 0 || static_cast<uint64_t>(len) > remaining()) {
      Fail();
      return {};
    }
    std::string_view v(pos_, static_cast<size_t>(len));
    pos_ += len;
    return v;
  }
  std::string ReadBytes() { return std::string(ReadBytesView()); }
  std::string_view ReadFixedView(size_t size) {
    if (size > remaining()) {
      Fail();
      return {};
    }
    std::string_view v(pos_, size);
    pos_ += size;
    return v;
  }
  void Skip(size_t n) {
    if (n > remaining()) {
      Fail();
      return;
    }
    pos_ += n;
  }

  // The item count of the next array or map block; 0 ends the array. A negative count is followed
  // by the block's byte size, which we do not need. A count larger than the bytes left cannot be
  // honest (every item this code decodes takes at least one byte) and fails.
  int64_t ReadBlockCount() {
    int64_t count = ReadLong();
    if (count < 0) {
      if (count == INT64_MIN) {
        Fail();
        return 0;
      }
      count = -count;
      ReadLong();
    }
    if (static_cast<uint64_t>(count) > remaining()) {
      Fail();
      return 0;
    }
    return count;
  }

 private:
  void ReadRaw(void* out, size_t n) {
    if (n > remaining()) {
      Fail();
      return;
    }
    std::memcpy(out, pos_, n);
    pos_ += n;
  }

  const char* pos_ = nullptr;
  const char* end_ = nullptr;
  bool failed_ = false;
};

// An optional value as Iceberg's nullable fields are written: a union of null (branch 0) and
// the value (branch 1, written by `write`). `v` is a std::optional or reads like one
// (OptionalString).
template <typename Optional, typename Fn>
void WriteOptional(Encoder& e, const Optional& v, Fn write) {
  if (!v) return e.WriteUnionIndex(0);
  e.WriteUnionIndex(1);
  write(*v);
}

}  // namespace floe::avro
