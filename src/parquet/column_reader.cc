#include "parquet/column_reader.h"

#include <cstring>

#include "parquet/compression.h"
#include "parquet/rle.h"

namespace floe::parquet {

namespace {

// Claimed sizes beyond these are lies, not data: refusing them keeps a hostile file from
// making the reader allocate without bound.
constexpr int64_t kMaxPageBytes = 1ll << 30;
constexpr int64_t kMaxPageValues = 1ll << 26;

enum class OutKind { kBool, kInt32, kInt64, kFloat, kDouble, kDecimal, kBytes };

struct Conversion {
  OutKind out = OutKind::kInt64;
  int32_t physical = 0;
  int type_length = 0;
  int64_t multiply = 1;  // integer unit scaling (e.g. millis -> micros)
  int64_t divide = 1;
  bool int96_nanos = false;  // INT96 -> nanoseconds (else microseconds)
};

Result<Conversion> PlanConversion(const LeafDescriptor& leaf, const TypePtr& target) {
  const SchemaElement& e = leaf.element;
  Conversion c;
  c.physical = *e.type;
  c.type_length = e.type_length.value_or(0);
  auto refuse = [&]() -> Result<Conversion> {
    return NotSupported("cannot read Parquet " + PhysicalTypeName(c.physical) + " column as " + target->ToString());
  };
  const int32_t p = c.physical;
  switch (target->id()) {
    case TypeId::kBoolean:
      if (p != physical::kBoolean) return refuse();
      c.out = OutKind::kBool;
      return c;
    case TypeId::kInt:
    case TypeId::kDate:
      if (p != physical::kInt32) return refuse();
      c.out = OutKind::kInt32;
      return c;
    case TypeId::kLong:
      if (p != physical::kInt32 && p != physical::kInt64) return refuse();
      c.out = OutKind::kInt64;
      return c;
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      bool nanos = target->id() == TypeId::kTimestampNs || target->id() == TypeId::kTimestampTzNs;
      c.out = OutKind::kInt64;
      if (p == physical::kInt96) {
        if (target->id() == TypeId::kTime) return refuse();
        c.int96_nanos = nanos;
        return c;
      }
      if (p != physical::kInt64 && p != physical::kInt32) return refuse();
      int unit = TimeUnitOf(e);
      if (unit == 0) unit = nanos ? LogicalType::kNanos : LogicalType::kMicros;
      int want = nanos ? LogicalType::kNanos : LogicalType::kMicros;
      for (int u = unit; u < want; ++u) c.multiply *= 1000;
      for (int u = want; u < unit; ++u) c.divide *= 1000;
      return c;
    }
    case TypeId::kFloat:
      if (p != physical::kFloat) return refuse();
      c.out = OutKind::kFloat;
      return c;
    case TypeId::kDouble:
      if (p != physical::kFloat && p != physical::kDouble) return refuse();
      c.out = OutKind::kDouble;
      return c;
    case TypeId::kDecimal:
      if (p != physical::kInt32 && p != physical::kInt64 && p != physical::kFixedLenByteArray && p != physical::kByteArray) return refuse();
      if (p == physical::kFixedLenByteArray && c.type_length > 16) return refuse();
      c.out = OutKind::kDecimal;
      return c;
    case TypeId::kString:
    case TypeId::kBinary:
      if (p != physical::kByteArray && p != physical::kFixedLenByteArray) return refuse();
      c.out = OutKind::kBytes;
      return c;
    case TypeId::kFixed:
      if (p != physical::kFixedLenByteArray || c.type_length != target->length()) return refuse();
      c.out = OutKind::kBytes;
      return c;
    case TypeId::kUuid:
      if (p != physical::kFixedLenByteArray || c.type_length != 16) return refuse();
      c.out = OutKind::kBytes;
      return c;
    default:
      return refuse();
  }
}

int64_t Int96ToTime(const uint8_t* p, bool nanos) {
  int64_t nanos_of_day;
  int32_t julian_day;
  std::memcpy(&nanos_of_day, p, 8);
  std::memcpy(&julian_day, p + 8, 4);
  constexpr int64_t kUnixEpochJulianDay = 2440588;
  int64_t days = static_cast<int64_t>(julian_day) - kUnixEpochJulianDay;
  if (nanos) return days * 86400ll * 1000000000ll + nanos_of_day;
  return days * 86400ll * 1000000ll + nanos_of_day / 1000;
}

__int128 BigEndianToInt128(const uint8_t* b, size_t n) {
  unsigned __int128 v = (n > 0 && (b[0] & 0x80)) ? ~static_cast<unsigned __int128>(0) : 0;
  for (size_t i = 0; i < n; ++i) v = (v << 8) | b[i];
  return static_cast<__int128>(v);
}

int64_t ScaleInt(int64_t v, const Conversion& c) {
  if (c.multiply != 1) v = static_cast<int64_t>(static_cast<uint64_t>(v) * static_cast<uint64_t>(c.multiply));
  if (c.divide != 1) {
    int64_t q = v / c.divide;
    if ((v % c.divide) < 0) --q;  // floor, so pre-epoch instants round down
    v = q;
  }
  return v;
}

// Decodes n PLAIN values (fixed-size outputs) from [p, p + size) into out; *consumed gets
// the bytes used.
template <typename T>
Status DecodePlain(const Conversion& c, const uint8_t* p, size_t size, size_t n, T* out, size_t* consumed) {
  auto need = [&](size_t bytes) -> Status {
    if (bytes > size) return Corrupt("PLAIN values reach past the end of the page");
    *consumed = bytes;
    return Ok();
  };
  if constexpr (std::is_same_v<T, uint8_t>) {  // booleans, one bit each
    FLOE_RETURN_IF_ERROR(need((n + 7) / 8));
    for (size_t i = 0; i < n; ++i) out[i] = (p[i >> 3] >> (i & 7)) & 1;
    return Ok();
  } else if constexpr (std::is_same_v<T, int32_t>) {
    FLOE_RETURN_IF_ERROR(need(n * 4));
    std::memcpy(out, p, n * 4);
    return Ok();
  } else if constexpr (std::is_same_v<T, int64_t>) {
    if (c.physical == physical::kInt96) {
      FLOE_RETURN_IF_ERROR(need(n * 12));
      for (size_t i = 0; i < n; ++i) out[i] = Int96ToTime(p + 12 * i, c.int96_nanos);
      return Ok();
    }
    if (c.physical == physical::kInt32) {
      FLOE_RETURN_IF_ERROR(need(n * 4));
      for (size_t i = 0; i < n; ++i) {
        int32_t v;
        std::memcpy(&v, p + 4 * i, 4);
        out[i] = ScaleInt(v, c);
      }
      return Ok();
    }
    FLOE_RETURN_IF_ERROR(need(n * 8));
    std::memcpy(out, p, n * 8);
    if (c.multiply != 1 || c.divide != 1)
      for (size_t i = 0; i < n; ++i) out[i] = ScaleInt(out[i], c);
    return Ok();
  } else if constexpr (std::is_same_v<T, float>) {
    FLOE_RETURN_IF_ERROR(need(n * 4));
    std::memcpy(out, p, n * 4);
    return Ok();
  } else if constexpr (std::is_same_v<T, double>) {
    if (c.physical == physical::kFloat) {
      FLOE_RETURN_IF_ERROR(need(n * 4));
      for (size_t i = 0; i < n; ++i) {
        float f;
        std::memcpy(&f, p + 4 * i, 4);
        out[i] = f;
      }
      return Ok();
    }
    FLOE_RETURN_IF_ERROR(need(n * 8));
    std::memcpy(out, p, n * 8);
    return Ok();
  } else {  // __int128 decimals
    if (c.physical == physical::kInt32 || c.physical == physical::kInt64) {
      size_t w = c.physical == physical::kInt32 ? 4 : 8;
      FLOE_RETURN_IF_ERROR(need(n * w));
      for (size_t i = 0; i < n; ++i) {
        if (w == 4) {
          int32_t v;
          std::memcpy(&v, p + 4 * i, 4);
          out[i] = v;
        } else {
          int64_t v;
          std::memcpy(&v, p + 8 * i, 8);
          out[i] = v;
        }
      }
      return Ok();
    }
    if (c.physical == physical::kFixedLenByteArray) {
      size_t w = static_cast<size_t>(c.type_length);
      FLOE_RETURN_IF_ERROR(need(n * w));
      for (size_t i = 0; i < n; ++i) out[i] = BigEndianToInt128(p + w * i, w);
      return Ok();
    }
    size_t pos = 0;  // BYTE_ARRAY decimals
    for (size_t i = 0; i < n; ++i) {
      if (size - pos < 4) return Corrupt("PLAIN byte array length reaches past the end of the page");
      uint32_t len;
      std::memcpy(&len, p + pos, 4);
      pos += 4;
      if (len > size - pos) return Corrupt("PLAIN byte array reaches past the end of the page");
      if (len > 16) return Corrupt("decimal wider than 16 bytes");
      out[i] = BigEndianToInt128(p + pos, len);
      pos += len;
    }
    *consumed = pos;
    return Ok();
  }
}

// Variable-length values: a list of (offset, length) views into a buffer.
struct ByteViews {
  std::vector<uint32_t> offsets{0};
  std::string bytes;
  size_t size() const { return offsets.size() - 1; }
};

class ChunkDecoder {
 public:
  ChunkDecoder(const ColumnChunkInput& in, const Conversion& conv, Column* out, std::vector<uint8_t>* def_out)
      : in_(in), conv_(conv), out_(out), def_out_(def_out), max_def_(in.leaf->max_def_level) {}

  Status Run() {
    if (in_.leaf->max_rep_level > 0) return NotSupported("repeated columns (lists, maps) are not supported yet");
    if (in_.meta->num_values != in_.num_rows)
      return Corrupt("column chunk has " + std::to_string(in_.meta->num_values) + " values but the row group has " +
                     std::to_string(in_.num_rows) + " rows");
    const uint8_t* p = reinterpret_cast<const uint8_t*>(in_.bytes.data());
    size_t left = in_.bytes.size();
    while (rows_ < static_cast<size_t>(in_.num_rows)) {
      if (left == 0) return Corrupt("column chunk ends after " + std::to_string(rows_) + " of " + std::to_string(in_.num_rows) + " values");
      size_t header_size = 0;
      auto ph = ReadPageHeader(p, left, &header_size);
      if (!ph) return std::unexpected(ph.error().WithContext("page header"));
      p += header_size;
      left -= header_size;
      if (static_cast<size_t>(ph->compressed_page_size) > left) return Corrupt("page reaches past the end of the column chunk");
      if (ph->uncompressed_page_size > kMaxPageBytes) return Corrupt("page claims an implausible uncompressed size");
      FLOE_RETURN_IF_ERROR(Page(*ph, p, static_cast<size_t>(ph->compressed_page_size)));
      p += ph->compressed_page_size;
      left -= ph->compressed_page_size;
    }
    return Ok();
  }

 private:
  Status Decompressed(const uint8_t* data, size_t size, size_t uncompressed, const uint8_t** out) {
    if (in_.meta->codec == codec::kUncompressed) {
      if (size != uncompressed) return Corrupt("uncompressed page size does not match its header");
      *out = data;
      return Ok();
    }
    page_buf_.resize(uncompressed);
    FLOE_RETURN_IF_ERROR(Decompress(in_.meta->codec, data, size, page_buf_.data(), uncompressed));
    *out = page_buf_.data();
    return Ok();
  }

  Status Page(const PageHeader& ph, const uint8_t* data, size_t size) {
    switch (ph.type) {
      case page_type::kDictionaryPage: {
        if (!ph.dictionary_page_header) return Corrupt("dictionary page without its header");
        if (has_dict_ || rows_ > 0) return Corrupt("dictionary page after data pages");
        const uint8_t* body;
        FLOE_RETURN_IF_ERROR(Decompressed(data, size, ph.uncompressed_page_size, &body));
        return Dictionary(*ph.dictionary_page_header, body, ph.uncompressed_page_size);
      }
      case page_type::kDataPage: {
        if (!ph.data_page_header) return Corrupt("data page without its header");
        const DataPageHeader& h = *ph.data_page_header;
        const uint8_t* body;
        FLOE_RETURN_IF_ERROR(Decompressed(data, size, ph.uncompressed_page_size, &body));
        size_t n = 0;
        FLOE_RETURN_IF_ERROR(CheckCount(h.num_values, &n));
        size_t len = ph.uncompressed_page_size, used = 0;
        FLOE_RETURN_IF_ERROR(LevelsV1(h.definition_level_encoding, body, len, n, &used));
        return Values(h.encoding, body + used, len - used, n);
      }
      case page_type::kDataPageV2: {
        if (!ph.data_page_header_v2) return Corrupt("v2 data page without its header");
        const DataPageHeaderV2& h = *ph.data_page_header_v2;
        size_t n = 0;
        FLOE_RETURN_IF_ERROR(CheckCount(h.num_values, &n));
        if (h.repetition_levels_byte_length != 0) return NotSupported("repeated columns are not supported yet");
        if (h.definition_levels_byte_length < 0 || static_cast<size_t>(h.definition_levels_byte_length) > size)
          return Corrupt("v2 page levels reach past the end of the page");
        size_t def_len = static_cast<size_t>(h.definition_levels_byte_length);
        FLOE_RETURN_IF_ERROR(LevelsRle(data, def_len, n));
        int64_t value_bytes = static_cast<int64_t>(ph.uncompressed_page_size) - static_cast<int64_t>(def_len);
        if (value_bytes < 0) return Corrupt("v2 page: levels longer than the page");
        const uint8_t* body = data + def_len;
        size_t body_size = size - def_len;
        if (h.is_compressed && in_.meta->codec != codec::kUncompressed) {
          page_buf_.resize(static_cast<size_t>(value_bytes));
          FLOE_RETURN_IF_ERROR(Decompress(in_.meta->codec, body, body_size, page_buf_.data(), static_cast<size_t>(value_bytes)));
          body = page_buf_.data();
          body_size = static_cast<size_t>(value_bytes);
        }
        return Values(h.encoding, body, body_size, n);
      }
      default:
        return Ok();  // index pages and unknown page types are skipped
    }
  }

  Status CheckCount(int32_t num_values, size_t* n) {
    if (num_values < 0 || num_values > kMaxPageValues) return Corrupt("page claims an implausible number of values");
    *n = static_cast<size_t>(num_values);
    if (rows_ + *n > static_cast<size_t>(in_.num_rows)) return Corrupt("pages hold more values than the row group has rows");
    return Ok();
  }

  // True when an RLE level stream starts with one repeat run of max_def covering all n
  // values: the page has no nulls and its levels need not be expanded.
  bool AllDefined(const uint8_t* p, size_t size, size_t n) const {
    uint64_t header = 0;
    size_t i = 0;
    for (int shift = 0; i < size && shift <= 35; shift += 7) {
      uint8_t b = p[i++];
      header |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) {
        if ((header & 1) || (header >> 1) < n) return false;
        size_t width = (BitWidth(static_cast<uint64_t>(max_def_)) + 7) / 8;
        if (size - i < width) return false;
        uint32_t v = 0;
        for (size_t k = 0; k < width; ++k) v |= static_cast<uint32_t>(p[i + k]) << (8 * k);
        return v == static_cast<uint32_t>(max_def_);
      }
    }
    return false;
  }

  Status AllPresent(size_t n) {
    present_ = n;
    all_present_ = true;
    if (def_out_) def_out_->insert(def_out_->end(), n, static_cast<uint8_t>(max_def_));
    if (track_nulls_) out_->nulls.resize(out_->nulls.size() + n, 0);
    return Ok();
  }

  // Definition levels of a v1 page; sets levels_/present_.
  Status LevelsV1(int32_t enc, const uint8_t* p, size_t size, size_t n, size_t* used) {
    *used = 0;
    if (max_def_ == 0) return LevelsNone(n);
    int width = BitWidth(static_cast<uint64_t>(max_def_));
    if (enc == encoding::kRle) {
      if (size < 4) return Corrupt("definition levels length reaches past the end of the page");
      uint32_t len;
      std::memcpy(&len, p, 4);
      if (len > size - 4) return Corrupt("definition levels reach past the end of the page");
      *used = 4 + len;
      if (AllDefined(p + 4, len, n)) return AllPresent(n);
      levels_.resize(n);
      RleDecoder d(p + 4, len, width);
      FLOE_RETURN_IF_ERROR(d.Decode(levels_.data(), n));
    } else if (enc == encoding::kBitPacked) {
      levels_.resize(n);
      FLOE_RETURN_IF_ERROR(BitPackedMsbDecode(p, size, width, levels_.data(), n, used));
    } else {
      return NotSupported("definition level encoding " + EncodingName(enc));
    }
    return CountPresent(n);
  }

  Status LevelsRle(const uint8_t* p, size_t size, size_t n) {
    if (max_def_ == 0) return LevelsNone(n);
    if (AllDefined(p, size, n)) return AllPresent(n);
    levels_.resize(n);
    RleDecoder d(p, size, BitWidth(static_cast<uint64_t>(max_def_)));
    FLOE_RETURN_IF_ERROR(d.Decode(levels_.data(), n));
    return CountPresent(n);
  }

  Status LevelsNone(size_t n) {
    present_ = n;
    all_present_ = true;
    if (def_out_) def_out_->insert(def_out_->end(), n, 0);
    return Ok();
  }

  Status CountPresent(size_t n) {
    size_t present = 0;
    uint8_t highest = 0;
    const uint8_t* lv = levels_.data();
    const uint8_t max = static_cast<uint8_t>(max_def_);
    for (size_t i = 0; i < n; ++i) {
      highest = lv[i] > highest ? lv[i] : highest;
      present += lv[i] == max;
    }
    if (highest > max_def_) return Corrupt("definition level above the column's maximum");
    present_ = present;
    all_present_ = present == n;
    if (def_out_) def_out_->insert(def_out_->end(), levels_.begin(), levels_.begin() + n);
    // Null flags: created on the first null, then kept in step with the rows.
    if (!all_present_ && !track_nulls_) {
      track_nulls_ = true;
      out_->nulls.assign(rows_, 0);
    }
    if (track_nulls_) {
      size_t base = out_->nulls.size();
      out_->nulls.resize(base + n);
      for (size_t i = 0; i < n; ++i) out_->nulls[base + i] = levels_[i] != max_def_;
    }
    return Ok();
  }

  void NoteRows(size_t n) {
    rows_ += n;
    out_->length = rows_;
    if (track_nulls_ && out_->nulls.size() < rows_) out_->nulls.resize(rows_, 0);
  }

  Status Dictionary(const DictionaryPageHeader& h, const uint8_t* body, size_t size) {
    if (h.encoding != encoding::kPlain && h.encoding != encoding::kPlainDictionary)
      return NotSupported("dictionary page encoding " + EncodingName(h.encoding));
    if (h.num_values < 0 || h.num_values > kMaxPageValues) return Corrupt("dictionary claims an implausible number of values");
    size_t n = static_cast<size_t>(h.num_values);
    size_t used = 0;
    has_dict_ = true;
    switch (conv_.out) {
      case OutKind::kBool: dict_bool_.resize(n); return DecodePlain(conv_, body, size, n, dict_bool_.data(), &used);
      case OutKind::kInt32: dict32_.resize(n); return DecodePlain(conv_, body, size, n, dict32_.data(), &used);
      case OutKind::kInt64: dict64_.resize(n); return DecodePlain(conv_, body, size, n, dict64_.data(), &used);
      case OutKind::kFloat: dictf_.resize(n); return DecodePlain(conv_, body, size, n, dictf_.data(), &used);
      case OutKind::kDouble: dictd_.resize(n); return DecodePlain(conv_, body, size, n, dictd_.data(), &used);
      case OutKind::kDecimal: dict128_.resize(n); return DecodePlain(conv_, body, size, n, dict128_.data(), &used);
      case OutKind::kBytes: {
        dict_bytes_ = ByteViews();
        size_t pos = 0;
        for (size_t i = 0; i < n; ++i) {
          std::string_view v;
          FLOE_RETURN_IF_ERROR(NextBytes(body, size, &pos, &v));
          dict_bytes_.bytes.append(v);
          dict_bytes_.offsets.push_back(static_cast<uint32_t>(dict_bytes_.bytes.size()));
        }
        dict_bytes_.bytes.reserve(dict_bytes_.bytes.size() + 16);
        dict_bytes_.bytes.append(16, '\0');  // slack for 16-byte copies; offsets bound the entries
        return Ok();
      }
    }
    return Ok();
  }

  // The next PLAIN BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY value at *pos.
  Status NextBytes(const uint8_t* p, size_t size, size_t* pos, std::string_view* v) const {
    size_t len;
    if (conv_.physical == physical::kFixedLenByteArray) {
      len = static_cast<size_t>(conv_.type_length);
    } else {
      if (size - *pos < 4) return Corrupt("PLAIN byte array length reaches past the end of the page");
      uint32_t l;
      std::memcpy(&l, p + *pos, 4);
      *pos += 4;
      len = l;
    }
    if (len > size - *pos) return Corrupt("PLAIN byte array reaches past the end of the page");
    *v = std::string_view(reinterpret_cast<const char*>(p + *pos), len);
    *pos += len;
    return Ok();
  }

  Status Indices(const uint8_t* p, size_t size, size_t dict_size) {
    if (!has_dict_) return Corrupt("dictionary-encoded page without a dictionary page");
    if (size < 1) return Corrupt("dictionary indices missing their bit width");
    int width = p[0];
    if (width > 32) return Corrupt("dictionary index bit width above 32");
    indices_.resize(present_);
    RleDecoder d(p + 1, size - 1, width);
    FLOE_RETURN_IF_ERROR(d.Decode(indices_.data(), present_));
    uint32_t max_index = 0;
    for (uint32_t i : indices_) max_index = i > max_index ? i : max_index;
    if (present_ > 0 && max_index >= dict_size)
      return Corrupt("dictionary index " + std::to_string(max_index) + " beyond the dictionary's " + std::to_string(dict_size) + " entries");
    return Ok();
  }

  template <typename T>
  Status FixedValues(int32_t enc, const uint8_t* p, size_t size, size_t n, std::vector<T>& out, const std::vector<T>& dict) {
    size_t base = out.size();
    out.resize(base + n);
    T* dense = out.data() + base;
    if (!all_present_) {
      scratch_.resize(present_ * sizeof(T));
      dense = reinterpret_cast<T*>(scratch_.data());
    }
    if (enc == encoding::kPlain) {
      size_t used;
      FLOE_RETURN_IF_ERROR(DecodePlain(conv_, p, size, present_, dense, &used));
    } else if (enc == encoding::kPlainDictionary || enc == encoding::kRleDictionary) {
      FLOE_RETURN_IF_ERROR(Indices(p, size, dict.size()));
      const T* d = dict.data();
      const uint32_t* idx = indices_.data();
      for (size_t i = 0; i < present_; ++i) dense[i] = d[idx[i]];
    } else if (enc == encoding::kRle && std::is_same_v<T, uint8_t>) {
      if (size < 4) return Corrupt("RLE boolean length reaches past the end of the page");
      uint32_t len;
      std::memcpy(&len, p, 4);
      if (len > size - 4) return Corrupt("RLE booleans reach past the end of the page");
      RleDecoder d(p + 4, len, 1);
      if constexpr (std::is_same_v<T, uint8_t>) FLOE_RETURN_IF_ERROR(d.Decode(dense, present_));
    } else {
      return NotSupported("value encoding " + EncodingName(enc));
    }
    if (!all_present_) {
      T* dst = out.data() + base;
      size_t j = 0;
      for (size_t i = 0; i < n; ++i) dst[i] = levels_[i] == max_def_ ? dense[j++] : T{};
    }
    return Ok();
  }

  Status ByteValues(int32_t enc, const uint8_t* p, size_t size, size_t n) {
    std::string& bytes = out_->bytes;
    std::vector<uint32_t>& offsets = out_->offsets;
    if (offsets.empty()) offsets.push_back(0);
    offsets.reserve(offsets.size() + n);
    auto append = [&](std::string_view v) -> Status {
      if (bytes.size() + v.size() > UINT32_MAX) return NotSupported("column holds more than 4 GiB of bytes in one row group");
      bytes.append(v);
      offsets.push_back(static_cast<uint32_t>(bytes.size()));
      return Ok();
    };
    if (enc == encoding::kPlain) {
      size_t pos = 0;
      for (size_t i = 0; i < n; ++i) {
        if (!all_present_ && levels_[i] != max_def_) {
          offsets.push_back(static_cast<uint32_t>(bytes.size()));
          continue;
        }
        std::string_view v;
        FLOE_RETURN_IF_ERROR(NextBytes(p, size, &pos, &v));
        FLOE_RETURN_IF_ERROR(append(v));
      }
      return Ok();
    }
    if (enc == encoding::kPlainDictionary || enc == encoding::kRleDictionary) {
      FLOE_RETURN_IF_ERROR(Indices(p, size, dict_bytes_.size()));
      const uint32_t* doff = dict_bytes_.offsets.data();
      const char* dbytes = dict_bytes_.bytes.data();
      const uint32_t* idx = indices_.data();
      // Size the output once, then copy each value; short values move as one 16-byte block
      // (both buffers carry 16 bytes of slack for it).
      uint64_t total = 0;
      for (size_t j = 0; j < present_; ++j) total += doff[idx[j] + 1] - doff[idx[j]];
      size_t base = bytes.size();
      if (base + total > UINT32_MAX) return NotSupported("column holds more than 4 GiB of bytes in one row group");
      bytes.resize(base + total + 16);
      size_t off_base = offsets.size();
      offsets.resize(off_base + n);
      char* dst = bytes.data() + base;
      uint32_t* o = offsets.data() + off_base;
      uint32_t pos = static_cast<uint32_t>(base);
      size_t j = 0;
      for (size_t i = 0; i < n; ++i) {
        if (all_present_ || levels_[i] == max_def_) {
          uint32_t k = idx[j++];
          uint32_t len = doff[k + 1] - doff[k];
          if (len <= 16) {
            std::memcpy(dst, dbytes + doff[k], 16);
          } else {
            std::memcpy(dst, dbytes + doff[k], len);
          }
          dst += len;
          pos += len;
        }
        o[i] = pos;
      }
      bytes.resize(base + total);
      return Ok();
    }
    return NotSupported("value encoding " + EncodingName(enc));
  }

  Status Values(int32_t enc, const uint8_t* p, size_t size, size_t n) {
    Status s;
    switch (conv_.out) {
      case OutKind::kBool: s = FixedValues(enc, p, size, n, out_->bools, dict_bool_); break;
      case OutKind::kInt32: s = FixedValues(enc, p, size, n, out_->ints, dict32_); break;
      case OutKind::kInt64: s = FixedValues(enc, p, size, n, out_->longs, dict64_); break;
      case OutKind::kFloat: s = FixedValues(enc, p, size, n, out_->floats, dictf_); break;
      case OutKind::kDouble: s = FixedValues(enc, p, size, n, out_->doubles, dictd_); break;
      case OutKind::kDecimal: s = FixedValues(enc, p, size, n, out_->decimals, dict128_); break;
      case OutKind::kBytes: s = ByteValues(enc, p, size, n); break;
    }
    if (!s) return s;
    NoteRows(n);
    return Ok();
  }

  const ColumnChunkInput& in_;
  Conversion conv_;
  Column* out_;
  std::vector<uint8_t>* def_out_;
  int max_def_;
  size_t rows_ = 0;
  std::vector<uint8_t> page_buf_;
  std::vector<uint8_t> levels_;
  std::vector<uint32_t> indices_;
  std::vector<uint8_t> scratch_;
  size_t present_ = 0;
  bool all_present_ = true;
  bool has_dict_ = false;
  bool track_nulls_ = false;  // out_->nulls is kept once the first null is seen
  std::vector<uint8_t> dict_bool_;
  std::vector<int32_t> dict32_;
  std::vector<int64_t> dict64_;
  std::vector<float> dictf_;
  std::vector<double> dictd_;
  std::vector<__int128> dict128_;
  ByteViews dict_bytes_;
};

}  // namespace

Status CheckReadable(const LeafDescriptor& leaf, const TypePtr& target) {
  auto c = PlanConversion(leaf, target);
  if (!c) return std::unexpected(c.error());
  return Ok();
}

Status ReadColumnChunk(const ColumnChunkInput& input, const TypePtr& target, Column* out,
                       std::vector<uint8_t>* def_levels) {
  auto conv = PlanConversion(*input.leaf, target);
  if (!conv) return std::unexpected(conv.error().WithContext(input.context));
  if (input.num_rows < 0 || input.num_rows > (1ll << 31)) return Corrupt(input.context + ": implausible row count");
  out->Reserve(static_cast<size_t>(std::min<int64_t>(input.num_rows, 1 << 20)));
  ChunkDecoder d(input, *conv, out, def_levels);
  Status s = d.Run();
  if (!s) return std::unexpected(s.error().WithContext(input.context));
  return Ok();
}

}  // namespace floe::parquet
