#include "parquet/thrift_compact.h"

#include <cstring>

namespace floe::parquet {

namespace {
int64_t UnZigZag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

template <typename V>
Status Discard(const Result<V>& r) {
  if (!r) return std::unexpected(r.error());
  return Ok();
}

bool ValidWireType(uint8_t t) { return t <= static_cast<uint8_t>(ThriftType::kStruct); }
}  // namespace

Status ThriftReader::Need(size_t n) const {
  if (static_cast<size_t>(end_ - pos_) < n) return Corrupt("thrift: unexpected end of data");
  return Ok();
}

Result<uint64_t> ThriftReader::ReadVarint() {
  uint64_t result = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (pos_ >= end_) return Corrupt("thrift: truncated varint");
    uint8_t b = *pos_++;
    if (shift == 63 && (b & 0x7e) != 0) return Corrupt("thrift: varint overflows 64 bits");
    result |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return result;
  }
  return Corrupt("thrift: varint too long");
}

Status ThriftReader::BeginStruct() {
  if (depth_ >= kMaxDepth) return Corrupt("thrift: structs nested too deeply");
  ++depth_;
  last_field_id_[depth_] = 0;
  return Ok();
}

void ThriftReader::EndStruct() {
  if (depth_ > 0) --depth_;
}

Result<ThriftFieldHeader> ThriftReader::ReadFieldHeader() {
  if (pos_ >= end_) return Corrupt("thrift: truncated struct");
  uint8_t b = *pos_++;
  ThriftFieldHeader h;
  uint8_t type = b & 0x0f;
  if (type == 0) {
    if (b != 0) return Corrupt("thrift: bad stop byte");
    return h;  // stop
  }
  if (!ValidWireType(type)) return Corrupt("thrift: unknown field type " + std::to_string(type));
  h.type = static_cast<ThriftType>(type);
  uint8_t delta = b >> 4;
  if (delta != 0) {
    h.id = static_cast<int16_t>(last_field_id_[depth_] + delta);
  } else {
    FLOE_ASSIGN_OR_RETURN(int16_t id, ReadI16());
    h.id = id;
  }
  last_field_id_[depth_] = h.id;
  return h;
}

Result<bool> ThriftReader::ReadBool(ThriftType header_type) {
  if (header_type == ThriftType::kBoolTrue) return true;
  if (header_type == ThriftType::kBoolFalse) return false;
  return Corrupt("thrift: expected a bool field");
}

Result<bool> ThriftReader::ReadListBool() {
  FLOE_RETURN_IF_ERROR(Need(1));
  uint8_t b = *pos_++;
  return b == 1;
}

Result<int8_t> ThriftReader::ReadByte() {
  FLOE_RETURN_IF_ERROR(Need(1));
  return static_cast<int8_t>(*pos_++);
}

Result<int16_t> ThriftReader::ReadI16() {
  FLOE_ASSIGN_OR_RETURN(uint64_t v, ReadVarint());
  int64_t s = UnZigZag(v);
  if (s < INT16_MIN || s > INT16_MAX) return Corrupt("thrift: i16 out of range");
  return static_cast<int16_t>(s);
}

Result<int32_t> ThriftReader::ReadI32() {
  FLOE_ASSIGN_OR_RETURN(uint64_t v, ReadVarint());
  int64_t s = UnZigZag(v);
  if (s < INT32_MIN || s > INT32_MAX) return Corrupt("thrift: i32 out of range");
  return static_cast<int32_t>(s);
}

Result<int64_t> ThriftReader::ReadI64() {
  FLOE_ASSIGN_OR_RETURN(uint64_t v, ReadVarint());
  return UnZigZag(v);
}

Result<double> ThriftReader::ReadDouble() {
  FLOE_RETURN_IF_ERROR(Need(8));
  double d;
  std::memcpy(&d, pos_, 8);
  pos_ += 8;
  return d;
}

Result<std::string_view> ThriftReader::ReadBinary() {
  FLOE_ASSIGN_OR_RETURN(uint64_t len, ReadVarint());
  if (len > static_cast<uint64_t>(end_ - pos_)) return Corrupt("thrift: binary length beyond end of data");
  std::string_view v(reinterpret_cast<const char*>(pos_), len);
  pos_ += len;
  return v;
}

Result<ThriftListHeader> ThriftReader::ReadListHeader() {
  FLOE_RETURN_IF_ERROR(Need(1));
  uint8_t b = *pos_++;
  ThriftListHeader h;
  uint8_t type = b & 0x0f;
  if (!ValidWireType(type) || type == 0) return Corrupt("thrift: bad list element type");
  h.element_type = static_cast<ThriftType>(type);
  uint64_t size = b >> 4;
  if (size == 15) {
    FLOE_ASSIGN_OR_RETURN(size, ReadVarint());
  }
  // Every element takes at least one byte, so a larger count than bytes left is a lie.
  if (size > static_cast<uint64_t>(end_ - pos_)) return Corrupt("thrift: list size beyond end of data");
  h.size = static_cast<uint32_t>(size);
  return h;
}

Status ThriftReader::Skip(ThriftType type) {
  switch (type) {
    case ThriftType::kBoolTrue:
    case ThriftType::kBoolFalse:
      return Ok();  // in a field the value lives in the header
    case ThriftType::kByte:
      return Discard(ReadByte());
    case ThriftType::kI16:
    case ThriftType::kI32:
    case ThriftType::kI64:
      return Discard(ReadVarint());
    case ThriftType::kDouble:
      FLOE_RETURN_IF_ERROR(Need(8));
      pos_ += 8;
      return Ok();
    case ThriftType::kBinary:
      return Discard(ReadBinary());
    case ThriftType::kList:
    case ThriftType::kSet: {
      FLOE_ASSIGN_OR_RETURN(ThriftListHeader h, ReadListHeader());
      if (depth_ >= kMaxDepth) return Corrupt("thrift: nesting too deep");
      ++depth_;
      for (uint32_t i = 0; i < h.size; ++i) {
        if (h.element_type == ThriftType::kBoolTrue || h.element_type == ThriftType::kBoolFalse) {
          FLOE_RETURN_IF_ERROR(ReadListBool());
        } else {
          Status s = Skip(h.element_type);
          if (!s) { --depth_; return s; }
        }
      }
      --depth_;
      return Ok();
    }
    case ThriftType::kMap: {
      FLOE_ASSIGN_OR_RETURN(uint64_t size, ReadVarint());
      if (size == 0) return Ok();
      if (size > static_cast<uint64_t>(end_ - pos_)) return Corrupt("thrift: map size beyond end of data");
      FLOE_RETURN_IF_ERROR(Need(1));
      uint8_t kv = *pos_++;
      uint8_t kt = kv >> 4, vt = kv & 0x0f;
      if (!ValidWireType(kt) || !ValidWireType(vt) || kt == 0 || vt == 0) return Corrupt("thrift: bad map types");
      if (depth_ >= kMaxDepth) return Corrupt("thrift: nesting too deep");
      ++depth_;
      for (uint64_t i = 0; i < size; ++i) {
        for (uint8_t t : {kt, vt}) {
          auto tt = static_cast<ThriftType>(t);
          Status s = (tt == ThriftType::kBoolTrue || tt == ThriftType::kBoolFalse) ? Discard(ReadListBool())
                                                                                    : Skip(tt);
          if (!s) { --depth_; return s; }
        }
      }
      --depth_;
      return Ok();
    }
    case ThriftType::kStruct: {
      FLOE_RETURN_IF_ERROR(BeginStruct());
      while (true) {
        auto h = ReadFieldHeader();
        if (!h) { EndStruct(); return std::unexpected(h.error()); }
        if (h->type == ThriftType::kStop) break;
        Status s = Skip(h->type);
        if (!s) { EndStruct(); return s; }
      }
      EndStruct();
      return Ok();
    }
    case ThriftType::kStop:
      break;
  }
  return Corrupt("thrift: cannot skip a value of unknown type");
}

// ---- writer ----

void ThriftWriter::WriteVarint(uint64_t v) {
  while (v >= 0x80) {
    out_->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out_->push_back(static_cast<char>(v));
}

void ThriftWriter::BeginStruct() {
  ++depth_;
  last_field_id_[depth_] = 0;
}

void ThriftWriter::EndStruct() {
  out_->push_back(0);
  --depth_;
}

void ThriftWriter::FieldHeader(int16_t id, ThriftType type) {
  int delta = id - last_field_id_[depth_];
  if (delta > 0 && delta <= 15) {
    out_->push_back(static_cast<char>((delta << 4) | static_cast<uint8_t>(type)));
  } else {
    out_->push_back(static_cast<char>(type));
    WriteVarint(ZigZag(id));
  }
  last_field_id_[depth_] = id;
}

void ThriftWriter::FieldI32(int16_t id, int32_t v) { FieldHeader(id, ThriftType::kI32); WriteVarint(ZigZag(v)); }
void ThriftWriter::FieldI64(int16_t id, int64_t v) { FieldHeader(id, ThriftType::kI64); WriteVarint(ZigZag(v)); }
void ThriftWriter::FieldI16(int16_t id, int16_t v) { FieldHeader(id, ThriftType::kI16); WriteVarint(ZigZag(v)); }
void ThriftWriter::FieldByte(int16_t id, int8_t v) { FieldHeader(id, ThriftType::kByte); out_->push_back(static_cast<char>(v)); }
void ThriftWriter::FieldBool(int16_t id, bool v) { FieldHeader(id, v ? ThriftType::kBoolTrue : ThriftType::kBoolFalse); }

void ThriftWriter::FieldBinary(int16_t id, std::string_view v) {
  FieldHeader(id, ThriftType::kBinary);
  ElementBinary(v);
}

void ThriftWriter::FieldDouble(int16_t id, double v) {
  FieldHeader(id, ThriftType::kDouble);
  char buf[8];
  std::memcpy(buf, &v, 8);
  out_->append(buf, 8);
}

void ThriftWriter::FieldStructBegin(int16_t id) {
  FieldHeader(id, ThriftType::kStruct);
  BeginStruct();
}

void ThriftWriter::FieldListBegin(int16_t id, ThriftType element_type, uint32_t size) {
  FieldHeader(id, ThriftType::kList);
  if (size < 15) {
    out_->push_back(static_cast<char>((size << 4) | static_cast<uint8_t>(element_type)));
  } else {
    out_->push_back(static_cast<char>(0xf0 | static_cast<uint8_t>(element_type)));
    WriteVarint(size);
  }
}

void ThriftWriter::ElementBinary(std::string_view v) {
  WriteVarint(v.size());
  out_->append(v.data(), v.size());
}

}  // namespace floe::parquet
