#include "parquet/chunk_dictionary.h"

#include <algorithm>

namespace floe::parquet {

Status ChunkDictionary::Decode(const Conversion& conv, const DictionaryPageHeader& h, const uint8_t* body, size_t size) {
  if (h.encoding != encoding::kPlain && h.encoding != encoding::kPlainDictionary)
    return NotSupported("dictionary page encoding " + EncodingName(h.encoding));
  if (h.num_values < 0 || h.num_values > kMaxPageValues) return Corrupt("dictionary claims an implausible number of values");
  size_t n = static_cast<size_t>(h.num_values);
  size_t used = 0;
  present = true;
  kind = conv.out;
  switch (conv.out) {
    case OutKind::kBool: bools.resize(n); return DecodePlain(conv, body, size, n, bools.data(), &used);
    case OutKind::kInt32: ints.resize(n); return DecodePlain(conv, body, size, n, ints.data(), &used);
    case OutKind::kInt64: longs.resize(n); return DecodePlain(conv, body, size, n, longs.data(), &used);
    case OutKind::kFloat: floats.resize(n); return DecodePlain(conv, body, size, n, floats.data(), &used);
    case OutKind::kDouble: doubles.resize(n); return DecodePlain(conv, body, size, n, doubles.data(), &used);
    case OutKind::kDecimal: decimals.resize(n); return DecodePlain(conv, body, size, n, decimals.data(), &used);
    case OutKind::kBytes: {
      bytes = ByteViews();
      size_t pos = 0;
      for (size_t i = 0; i < n; ++i) {
        std::string_view v;
        FLOE_RETURN_IF_ERROR(NextPlainBytes(conv, body, size, &pos, &v));
        bytes.bytes.append(v);
        bytes.offsets.push_back(static_cast<uint32_t>(bytes.bytes.size()));
      }
      bytes.bytes.reserve(bytes.bytes.size() + 16);
      bytes.bytes.append(16, '\0');  // slack for 16-byte copies; offsets bound the entries
      return Ok();
    }
  }
  return Ok();
}

size_t ChunkDictionary::size() const {
  switch (kind) {
    case OutKind::kBool: return bools.size();
    case OutKind::kInt32: return ints.size();
    case OutKind::kInt64: return longs.size();
    case OutKind::kFloat: return floats.size();
    case OutKind::kDouble: return doubles.size();
    case OutKind::kDecimal: return decimals.size();
    case OutKind::kBytes: return bytes.size();
  }
  return 0;
}

bool BytesIn(std::string_view v, const Column& set) {
  for (size_t k = 0; k < set.length; ++k)
    if (set.BytesAt(k) == v) return true;
  return false;
}

void ChunkDictionary::MatchAgainst(const Column& predicate) {
  size_t n = size();
  matches.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    switch (kind) {
      case OutKind::kBool: matches[i] = ValueIn(bools[i], predicate.bools); break;
      case OutKind::kInt32: matches[i] = ValueIn(ints[i], predicate.ints); break;
      case OutKind::kInt64: matches[i] = ValueIn(longs[i], predicate.longs); break;
      case OutKind::kDecimal: matches[i] = ValueIn(decimals[i], predicate.decimals); break;
      case OutKind::kBytes: matches[i] = BytesIn(bytes.At(i), predicate); break;
      case OutKind::kFloat:
      case OutKind::kDouble: break;  // floating-point predicates are refused before this
    }
  }
  any_match = std::find(matches.begin(), matches.end(), 1) != matches.end();
}

}  // namespace floe::parquet
