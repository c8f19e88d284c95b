// Thrift compact protocol: the serialization of Parquet's footer and page headers.
//
// Only what Parquet needs: structs of i8/i16/i32/i64/double/bool/binary fields, lists, and
// skipping of anything unknown. The reader never trusts its input: every length, count and
// nesting depth is checked against the buffer, and malformed input is a Corrupt error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "floe/result.h"

namespace floe::parquet {

// Compact protocol wire types.
enum class ThriftType : uint8_t {
  kStop = 0,
  kBoolTrue = 1,
  kBoolFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

struct ThriftFieldHeader {
  ThriftType type = ThriftType::kStop;  // kStop ends a struct
  int16_t id = 0;
};

struct ThriftListHeader {
  ThriftType element_type = ThriftType::kStop;
  uint32_t size = 0;
};

class ThriftReader {
 public:
  ThriftReader(const uint8_t* data, size_t size) : pos_(data), end_(data + size), begin_(data) {}

  size_t position() const { return static_cast<size_t>(pos_ - begin_); }

  // Struct framing: BeginStruct/EndStruct bracket each nested struct so that field id
  // deltas are tracked per nesting level and depth stays bounded.
  Status BeginStruct();
  void EndStruct();
  // The next field header; type kStop at the struct's end. For a bool field the value is
  // carried in the header: call ReadBool with the header's type.
  Result<ThriftFieldHeader> ReadFieldHeader();

  Result<bool> ReadBool(ThriftType header_type);  // header_type: the field's type
  Result<int8_t> ReadByte();
  Result<int16_t> ReadI16();
  Result<int32_t> ReadI32();
  Result<int64_t> ReadI64();
  Result<double> ReadDouble();
  Result<std::string_view> ReadBinary();  // a view into the input buffer
  Result<ThriftListHeader> ReadListHeader();
  // A bool inside a list is a whole byte (1 = true).
  Result<bool> ReadListBool();

  // Skips one value of the given type (nested structs and containers included).
  Status Skip(ThriftType type);

 private:
  Result<uint64_t> ReadVarint();
  Status Need(size_t n) const;

  const uint8_t* pos_;
  const uint8_t* end_;
  const uint8_t* begin_;
  static constexpr int kMaxDepth = 64;
  int depth_ = 0;
  int16_t last_field_id_[kMaxDepth + 1] = {};
};

class ThriftWriter {
 public:
  explicit ThriftWriter(std::string* out) : out_(out) {}

  void BeginStruct();
  void EndStruct();  // writes the stop byte

  void FieldI32(int16_t id, int32_t v);
  void FieldI64(int16_t id, int64_t v);
  void FieldI16(int16_t id, int16_t v);
  void FieldByte(int16_t id, int8_t v);
  void FieldBool(int16_t id, bool v);
  void FieldBinary(int16_t id, std::string_view v);
  void FieldDouble(int16_t id, double v);
  // Starts a nested struct field: follow with the struct's fields, then EndStruct().
  void FieldStructBegin(int16_t id);
  // Starts a list field; follow with `size` elements written by the element writers below.
  void FieldListBegin(int16_t id, ThriftType element_type, uint32_t size);

  // List elements.
  void ElementI32(int32_t v) { WriteVarint(ZigZag(v)); }
  void ElementI64(int64_t v) { WriteVarint(ZigZag(v)); }
  void ElementBinary(std::string_view v);
  void ElementStructBegin() { BeginStruct(); }

 private:
  void FieldHeader(int16_t id, ThriftType type);
  void WriteVarint(uint64_t v);
  static uint64_t ZigZag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }

  std::string* out_;
  static constexpr int kMaxDepth = 64;
  int depth_ = 0;
  int16_t last_field_id_[kMaxDepth + 1] = {};
};

}  // namespace floe::parquet
