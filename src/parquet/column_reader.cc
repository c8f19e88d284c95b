#include "parquet/column_reader.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "parquet/chunk_dictionary.h"
#include "parquet/compression.h"
#include "parquet/rle.h"
#include "parquet/value_conversion.h"

namespace floe::parquet {

namespace {



class ChunkDecoder {
 public:
  static constexpr uint32_t kNullId = ColumnChunkDecoder::kNullId;

  ChunkDecoder(ColumnChunkInput in, const Conversion& conv)
      : in_(std::move(in)), conv_(conv), max_def_(in_.leaf->max_def_level), max_rep_(in_.leaf->max_rep_level),
        entries_(max_rep_ > 0 ? static_cast<size_t>(std::max<int64_t>(in_.meta->num_values, 0)) : static_cast<size_t>(in_.num_rows)),
        pos_(reinterpret_cast<const uint8_t*>(in_.bytes.data())), left_(in_.bytes.size()) {}

  Status Check() const {
    if (max_rep_ > 0) {
      // A repeated column has a level entry per element (at least one per row): its pages
      // hold num_values entries, and the rows are the entries of repetition level 0.
      if (in_.meta->num_values < in_.num_rows || in_.meta->num_values > (1ll << 31))
        return Corrupt("repeated column chunk has " + std::to_string(in_.meta->num_values) + " level entries for " +
                       std::to_string(in_.num_rows) + " rows");
      return Ok();
    }
    if (in_.meta->num_values != in_.num_rows)
      return Corrupt("column chunk has " + std::to_string(in_.meta->num_values) + " values but the row group has " +
                     std::to_string(in_.num_rows) + " rows");
    return Ok();
  }

  const std::string& context() const { return in_.context; }

  // Reads page headers up to the next data page (decoding any dictionary page on the way)
  // and holds it as pending; false once the chunk's rows are all read.
  Result<bool> PeekPage() {
    while (!pending_) {
      if (rows_ >= entries_) return false;
      if (left_ == 0) return Corrupt("column chunk ends after " + std::to_string(rows_) + " of " + std::to_string(entries_) + " values");
      size_t header_size = 0;
      auto ph = ReadPageHeader(pos_, left_, &header_size);
      if (!ph) return std::unexpected(ph.error().WithContext("page header"));
      pos_ += header_size;
      left_ -= header_size;
      if (static_cast<size_t>(ph->compressed_page_size) > left_) return Corrupt("page reaches past the end of the column chunk");
      if (ph->uncompressed_page_size > kMaxPageBytes) return Corrupt("page claims an implausible uncompressed size");
      const uint8_t* body = pos_;
      size_t size = static_cast<size_t>(ph->compressed_page_size);
      pos_ += size;
      left_ -= size;
      int32_t num_values = 0;
      if (ph->type == page_type::kDataPage) {
        if (!ph->data_page_header) return Corrupt("data page without its header");
        num_values = ph->data_page_header->num_values;
      } else if (ph->type == page_type::kDataPageV2) {
        if (!ph->data_page_header_v2) return Corrupt("v2 data page without its header");
        num_values = ph->data_page_header_v2->num_values;
      } else {
        FLOE_RETURN_IF_ERROR(Page(*ph, body, size));  // a dictionary page; others are skipped
        continue;
      }
      FLOE_RETURN_IF_ERROR(CheckCount(num_values, &pending_rows_));
      pending_ = std::move(*ph);
      pending_body_ = body;
      pending_size_ = size;
    }
    return true;
  }

  // Rows of the pending page (after PeekPage returned true).
  size_t pending_rows() const { return pending_rows_; }

  // Whether no row of the pending page can match the predicate: the page holds dictionary
  // indices and no dictionary entry matches. (Its indices are then never checked.)
  bool PendingCannotMatch() const {
    return pending_ && has_predicate_ && dict_.present && !dict_.any_match && PendingHoldsIds();
  }

  bool PendingHoldsIds() const {
    if (!pending_) return false;
    int32_t enc = pending_->data_page_header ? pending_->data_page_header->encoding
                                             : pending_->data_page_header_v2->encoding;
    return enc == encoding::kPlainDictionary || enc == encoding::kRleDictionary;
  }

  Status SkipPage() {
    FLOE_ASSIGN_OR_RETURN(bool more, PeekPage());
    if (!more) return Corrupt("read past the last page of the column chunk");
    rows_ += pending_rows_;
    pending_.reset();
    return Ok();
  }

  // Appends the next page's rows to *out (and their definition levels to *def_out).
  // A repeated column's repetition levels go to *rep_out (required for one).
  Status ReadPage(Column* out, std::vector<uint8_t>* def_out, std::vector<uint8_t>* rep_out = nullptr) {
    rep_out_ = rep_out;
    return DecodeInto(out, def_out, nullptr, nullptr);
  }

  // (*match)[i] = 1 when row i of the next page is not null and equals a predicate value.
  Status MatchPage(std::vector<uint8_t>* match) {
    if (max_rep_ > 0) return NotSupported("value predicates on repeated columns");
    return DecodeInto(nullptr, nullptr, match, nullptr); }

  // A dictionary-encoded page: its ids into *ids (kNullId for a null row), *as_ids = true.
  // Any other page: its values appended to *out, *as_ids = false.
  Status ReadPageOrIds(Column* out, std::vector<uint32_t>* ids, bool* as_ids) {
    if (max_rep_ > 0) return NotSupported("dictionary-id reads of repeated columns");
    FLOE_ASSIGN_OR_RETURN(bool more, PeekPage());
    if (!more) return Corrupt("read past the last page of the column chunk");
    *as_ids = PendingHoldsIds();
    return *as_ids ? DecodeInto(nullptr, nullptr, nullptr, ids) : DecodeInto(out, nullptr, nullptr, nullptr);
  }

  // Appends to *out the dictionary values of ids[i] for i < k with sel[i] != 0 (all when
  // sel is null). The ids come from ReadPageOrIds, so each is checked or kNullId.
  void AppendDictionaryValues(const uint32_t* ids, size_t k, const uint8_t* sel, Column* out) {
    if (sel == nullptr) return AppendDictionaryRows(ids, k, [](size_t j) { return j; }, out);
    // The selected rows' positions first, so the gather touches the dictionary only for
    // them and has no data-dependent branch.
    positions_.resize(k);
    uint32_t* pos = positions_.data();
    size_t m = 0;
    for (size_t i = 0; i < k; ++i) {
      pos[m] = static_cast<uint32_t>(i);
      m += sel[i];
    }
    AppendDictionaryRows(ids, m, [pos](size_t j) { return pos[j]; }, out);
  }

  // Appends the dictionary values of ids[row(j)] for j < m.
  template <typename Row>
  void AppendDictionaryRows(const uint32_t* ids, size_t m, Row row, Column* out) {
    bool nulls = false;
    auto gather = [&](const auto& dict, auto& values) {
      size_t base = values.size();
      values.resize(base + m);
      auto* dst = values.data() + base;
      for (size_t j = 0; j < m; ++j) {
        uint32_t id = ids[row(j)];
        if (id == kNullId) {
          nulls = true;
          dst[j] = {};
        } else {
          dst[j] = dict[id];
        }
      }
    };
    switch (conv_.out) {
      case OutKind::kBool: gather(dict_.bools, out->bools); break;
      case OutKind::kInt32: gather(dict_.ints, out->ints); break;
      case OutKind::kInt64: gather(dict_.longs, out->longs); break;
      case OutKind::kFloat: gather(dict_.floats, out->floats); break;
      case OutKind::kDouble: gather(dict_.doubles, out->doubles); break;
      case OutKind::kDecimal: gather(dict_.decimals, out->decimals); break;
      case OutKind::kBytes:
        if (out->offsets.empty()) out->offsets.push_back(0);
        for (size_t j = 0; j < m; ++j) {
          uint32_t id = ids[row(j)];
          if (id == kNullId) {
            nulls = true;
          } else {
            out->bytes.append(dict_.bytes.At(id));
          }
          out->offsets.push_back(static_cast<uint32_t>(out->bytes.size()));
        }
        break;
    }
    if (nulls || !out->nulls.empty()) {
      out->nulls.resize(out->length, 0);
      for (size_t j = 0; j < m; ++j) out->nulls.push_back(ids[row(j)] == kNullId);
    }
    out->length += m;
  }

  Status SetPredicate(const Column& values) {
    if (conv_.out == OutKind::kFloat || conv_.out == OutKind::kDouble)
      return NotSupported("value predicates on floating-point columns");
    if (rows_ > 0 || dict_.present) return InvalidArgument("predicate set after the chunk's first page");
    predicate_ = values;
    has_predicate_ = true;
    return Ok();
  }

 private:
  // Decodes the next page into exactly one destination: values (out, with levels into
  // def_out when given), match flags, or dictionary ids.
  Status DecodeInto(Column* out, std::vector<uint8_t>* def_out, std::vector<uint8_t>* match, std::vector<uint32_t>* ids) {
    out_ = out;
    def_out_ = def_out;
    match_ = match;
    ids_ = ids;
    track_nulls_ = out != nullptr && !out->nulls.empty();
    return DecodePending();
  }

  Status DecodePending() {
    FLOE_ASSIGN_OR_RETURN(bool more, PeekPage());
    if (!more) return Corrupt("read past the last page of the column chunk");
    PageHeader ph = std::move(*pending_);
    pending_.reset();
    return Page(ph, pending_body_, pending_size_);
  }

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
        if (dict_.present || rows_ > 0) return Corrupt("dictionary page after data pages");
        const uint8_t* body;
        FLOE_RETURN_IF_ERROR(Decompressed(data, size, ph.uncompressed_page_size, &body));
        FLOE_RETURN_IF_ERROR(dict_.Decode(conv_, *ph.dictionary_page_header, body, ph.uncompressed_page_size));
        if (has_predicate_) dict_.MatchAgainst(predicate_);
        return Ok();
      }
      case page_type::kDataPage: {
        if (!ph.data_page_header) return Corrupt("data page without its header");
        const DataPageHeader& h = *ph.data_page_header;
        const uint8_t* body;
        FLOE_RETURN_IF_ERROR(Decompressed(data, size, ph.uncompressed_page_size, &body));
        size_t n = 0;
        FLOE_RETURN_IF_ERROR(CheckCount(h.num_values, &n));
        size_t len = ph.uncompressed_page_size, used = 0;
        if (max_rep_ > 0) {
          FLOE_RETURN_IF_ERROR(RepLevelsV1(h.repetition_level_encoding, body, len, n, &used));
          body += used;
          len -= used;
        }
        FLOE_RETURN_IF_ERROR(LevelsV1(h.definition_level_encoding, body, len, n, &used));
        return Values(h.encoding, body + used, len - used, n);
      }
      case page_type::kDataPageV2: {
        if (!ph.data_page_header_v2) return Corrupt("v2 data page without its header");
        const DataPageHeaderV2& h = *ph.data_page_header_v2;
        size_t n = 0;
        FLOE_RETURN_IF_ERROR(CheckCount(h.num_values, &n));
        if (h.repetition_levels_byte_length < 0 || static_cast<size_t>(h.repetition_levels_byte_length) > size)
          return Corrupt("v2 page levels reach past the end of the page");
        size_t rep_len = static_cast<size_t>(h.repetition_levels_byte_length);
        if (max_rep_ == 0 && rep_len != 0) return Corrupt("v2 page of a column that is not repeated has repetition levels");
        if (max_rep_ > 0) FLOE_RETURN_IF_ERROR(RepLevels(data, rep_len, n));
        data += rep_len;
        size -= rep_len;
        if (h.definition_levels_byte_length < 0 || static_cast<size_t>(h.definition_levels_byte_length) > size)
          return Corrupt("v2 page levels reach past the end of the page");
        size_t def_len = static_cast<size_t>(h.definition_levels_byte_length);
        FLOE_RETURN_IF_ERROR(LevelsRle(data, def_len, n));
        int64_t value_bytes = static_cast<int64_t>(ph.uncompressed_page_size) - static_cast<int64_t>(def_len + rep_len);
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
    if (rows_ + *n > entries_) {
      return Corrupt(max_rep_ > 0 ? "pages hold more level entries than the column chunk's value count"
                                  : "pages hold more values than the row group has rows");
    }
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

  // Repetition levels of a v1 page (RLE with a length prefix, or BIT_PACKED).
  Status RepLevelsV1(int32_t enc, const uint8_t* p, size_t size, size_t n, size_t* used) {
    *used = 0;
    if (enc == encoding::kRle) {
      if (size < 4) return Corrupt("repetition levels length reaches past the end of the page");
      uint32_t len;
      std::memcpy(&len, p, 4);
      if (len > size - 4) return Corrupt("repetition levels reach past the end of the page");
      *used = 4 + len;
      return RepLevels(p + 4, len, n);
    }
    if (enc == encoding::kBitPacked) {
      rep_levels_.resize(n);
      FLOE_RETURN_IF_ERROR(BitPackedMsbDecode(p, size, BitWidth(static_cast<uint64_t>(max_rep_)), rep_levels_.data(), n, used));
      return CheckRepLevels(n);
    }
    return NotSupported("repetition level encoding " + EncodingName(enc));
  }

  // RLE repetition levels (no length prefix), checked and handed to rep_out_.
  Status RepLevels(const uint8_t* p, size_t size, size_t n) {
    rep_levels_.resize(n);
    RleDecoder d(p, size, BitWidth(static_cast<uint64_t>(max_rep_)));
    FLOE_RETURN_IF_ERROR(d.Decode(rep_levels_.data(), n));
    return CheckRepLevels(n);
  }

  Status CheckRepLevels(size_t n) {
    uint8_t highest = 0;
    for (size_t i = 0; i < n; ++i) highest = rep_levels_[i] > highest ? rep_levels_[i] : highest;
    if (highest > max_rep_) return Corrupt("repetition level above the column's maximum");
    // The chunk's first entry starts a row.
    if (rows_ == 0 && n > 0 && rep_levels_[0] != 0) return Corrupt("column chunk starts inside a row (repetition level not 0)");
    if (rep_out_) rep_out_->insert(rep_out_->end(), rep_levels_.begin(), rep_levels_.begin() + n);
    return Ok();
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
    if (out_ && !all_present_ && !track_nulls_) {
      track_nulls_ = true;
      out_->nulls.assign(out_->length, 0);
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
    if (!out_) return;
    out_->length += n;
    if (track_nulls_ && out_->nulls.size() < out_->length) out_->nulls.resize(out_->length, 0);
  }

  // Decodes the page's present_ dictionary ids a block at a time (the block stays in
  // cache), checks each block against the dictionary's size, and hands it to
  // use(ids, count, first) where `first` is the block's position among the present values.
  template <typename Use>
  Status ForEachIdBlock(const uint8_t* p, size_t size, size_t dict_size, Use&& use) {
    if (!dict_.present) return Corrupt("dictionary-encoded page without a dictionary page");
    if (size < 1) return Corrupt("dictionary indices missing their bit width");
    int width = p[0];
    if (width > 32) return Corrupt("dictionary index bit width above 32");
    constexpr size_t kBlock = 1024;
    uint32_t ids[kBlock];
    RleDecoder d(p + 1, size - 1, width);
    for (size_t first = 0; first < present_; first += kBlock) {
      size_t k = std::min(kBlock, present_ - first);
      FLOE_RETURN_IF_ERROR(d.Decode(ids, k));
      uint32_t max_index = 0;
      for (size_t j = 0; j < k; ++j) max_index = ids[j] > max_index ? ids[j] : max_index;
      if (max_index >= dict_size)
        return Corrupt("dictionary index " + std::to_string(max_index) + " beyond the dictionary's " + std::to_string(dict_size) + " entries");
      use(ids, k, first);
    }
    return Ok();
  }

  // All of the page's dictionary ids, into indices_.
  Status Indices(const uint8_t* p, size_t size, size_t dict_size) {
    indices_.resize(present_);
    return ForEachIdBlock(p, size, dict_size, [&](const uint32_t* ids, size_t k, size_t first) {
      std::memcpy(indices_.data() + first, ids, k * sizeof(uint32_t));
    });
  }

  // Decodes the page's present_ non-null values into dense (any encoding of a fixed-size type).
  template <typename T>
  Status DenseValues(int32_t enc, const uint8_t* p, size_t size, T* dense, const std::vector<T>& dict) {
    if (enc == encoding::kPlain) {
      size_t used;
      return DecodePlain(conv_, p, size, present_, dense, &used);
    }
    if (enc == encoding::kPlainDictionary || enc == encoding::kRleDictionary) {
      const T* d = dict.data();
      return ForEachIdBlock(p, size, dict.size(), [&](const uint32_t* ids, size_t k, size_t first) {
        for (size_t j = 0; j < k; ++j) dense[first + j] = d[ids[j]];
      });
    }
    if constexpr (std::is_same_v<T, uint8_t>) {
      if (enc == encoding::kRle) {
        if (size < 4) return Corrupt("RLE boolean length reaches past the end of the page");
        uint32_t len;
        std::memcpy(&len, p, 4);
        if (len > size - 4) return Corrupt("RLE booleans reach past the end of the page");
        RleDecoder d(p + 4, len, 1);
        return d.Decode(dense, present_);
      }
    }
    return NotSupported("value encoding " + EncodingName(enc));
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
    FLOE_RETURN_IF_ERROR(DenseValues(enc, p, size, dense, dict));
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
        FLOE_RETURN_IF_ERROR(NextPlainBytes(conv_, p, size, &pos, &v));
        FLOE_RETURN_IF_ERROR(append(v));
      }
      return Ok();
    }
    if (enc == encoding::kPlainDictionary || enc == encoding::kRleDictionary) {
      FLOE_RETURN_IF_ERROR(Indices(p, size, dict_.bytes.size()));
      const uint32_t* doff = dict_.bytes.offsets.data();
      const char* dbytes = dict_.bytes.bytes.data();
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

  // Predicate matching (MatchPage): one flag per row, computed on dictionary ids when the
  // page holds them, so that no value is materialized.

  template <typename T>
  Status DenseMatches(int32_t enc, const uint8_t* p, size_t size, const std::vector<T>& dict, const std::vector<T>& set, uint8_t* dense) {
    scratch_.resize(present_ * sizeof(T));
    T* v = reinterpret_cast<T*>(scratch_.data());
    FLOE_RETURN_IF_ERROR(DenseValues(enc, p, size, v, dict));
    for (size_t j = 0; j < present_; ++j) dense[j] = ValueIn(v[j], set);
    return Ok();
  }

  Status Matches(int32_t enc, const uint8_t* p, size_t size, size_t n) {
    std::vector<uint8_t>& m = *match_;
    m.resize(n);
    uint8_t* dense = m.data();
    if (!all_present_) {
      match_dense_.resize(present_);
      dense = match_dense_.data();
    }
    if (enc == encoding::kPlainDictionary || enc == encoding::kRleDictionary) {
      const uint8_t* table = dict_.matches.data();
      FLOE_RETURN_IF_ERROR(ForEachIdBlock(p, size, dict_.size(), [&](const uint32_t* ids, size_t k, size_t first) {
        for (size_t j = 0; j < k; ++j) dense[first + j] = table[ids[j]];
      }));
    } else {
      switch (conv_.out) {
        case OutKind::kBool: FLOE_RETURN_IF_ERROR(DenseMatches(enc, p, size, dict_.bools, predicate_.bools, dense)); break;
        case OutKind::kInt32: FLOE_RETURN_IF_ERROR(DenseMatches(enc, p, size, dict_.ints, predicate_.ints, dense)); break;
        case OutKind::kInt64: FLOE_RETURN_IF_ERROR(DenseMatches(enc, p, size, dict_.longs, predicate_.longs, dense)); break;
        case OutKind::kDecimal: FLOE_RETURN_IF_ERROR(DenseMatches(enc, p, size, dict_.decimals, predicate_.decimals, dense)); break;
        case OutKind::kBytes: {
          if (enc != encoding::kPlain) return NotSupported("value encoding " + EncodingName(enc));
          size_t pos = 0;
          for (size_t j = 0; j < present_; ++j) {
            std::string_view v;
            FLOE_RETURN_IF_ERROR(NextPlainBytes(conv_, p, size, &pos, &v));
            dense[j] = BytesIn(v, predicate_);
          }
          break;
        }
        case OutKind::kFloat:
        case OutKind::kDouble: return NotSupported("value predicates on floating-point columns");
      }
    }
    if (!all_present_) {
      size_t j = 0;
      for (size_t i = 0; i < n; ++i) m[i] = levels_[i] == max_def_ ? dense[j++] : 0;
    }
    NoteRows(n);
    return Ok();
  }

  // ReadPageOrIds on a dictionary-encoded page: one id per row, kNullId at nulls.
  Status IdValues(const uint8_t* p, size_t size, size_t n) {
    ids_->resize(n);
    uint32_t* dense = ids_->data();
    if (!all_present_) {
      id_scratch_.resize(present_);
      dense = id_scratch_.data();
    }
    FLOE_RETURN_IF_ERROR(ForEachIdBlock(p, size, dict_.size(), [&](const uint32_t* ids, size_t k, size_t first) {
      std::memcpy(dense + first, ids, k * sizeof(uint32_t));
    }));
    if (!all_present_) {
      uint32_t* dst = ids_->data();
      size_t j = 0;
      for (size_t i = 0; i < n; ++i) dst[i] = levels_[i] == max_def_ ? dense[j++] : kNullId;
    }
    NoteRows(n);
    return Ok();
  }

  Status Values(int32_t enc, const uint8_t* p, size_t size, size_t n) {
    Status s;
    if (match_) return Matches(enc, p, size, n);
    if (ids_) return IdValues(p, size, n);
    switch (conv_.out) {
      case OutKind::kBool: s = FixedValues(enc, p, size, n, out_->bools, dict_.bools); break;
      case OutKind::kInt32: s = FixedValues(enc, p, size, n, out_->ints, dict_.ints); break;
      case OutKind::kInt64: s = FixedValues(enc, p, size, n, out_->longs, dict_.longs); break;
      case OutKind::kFloat: s = FixedValues(enc, p, size, n, out_->floats, dict_.floats); break;
      case OutKind::kDouble: s = FixedValues(enc, p, size, n, out_->doubles, dict_.doubles); break;
      case OutKind::kDecimal: s = FixedValues(enc, p, size, n, out_->decimals, dict_.decimals); break;
      case OutKind::kBytes: s = ByteValues(enc, p, size, n); break;
    }
    if (!s) return s;
    NoteRows(n);
    return Ok();
  }

  ColumnChunkInput in_;
  Conversion conv_;
  int max_def_;
  int max_rep_;
  size_t entries_;      // level entries of the chunk: its rows, or for a repeated column its values
  const uint8_t* pos_;  // the next page header
  size_t left_;         // bytes from pos_ to the chunk's end
  size_t rows_ = 0;     // rows of the pages read or skipped
  // The next data page, read by PeekPage but not yet decoded or skipped.
  std::optional<PageHeader> pending_;
  const uint8_t* pending_body_ = nullptr;
  size_t pending_size_ = 0;
  size_t pending_rows_ = 0;
  // The current page's destination: values into out_ (levels into def_out_), or match flags.
  Column* out_ = nullptr;
  std::vector<uint8_t>* def_out_ = nullptr;
  std::vector<uint8_t>* rep_out_ = nullptr;
  std::vector<uint8_t> rep_levels_;
  std::vector<uint8_t>* match_ = nullptr;
  std::vector<uint32_t>* ids_ = nullptr;
  std::vector<uint32_t> id_scratch_;
  std::vector<uint32_t> positions_;
  bool has_predicate_ = false;
  Column predicate_;                 // the values a matching row equals (IN list)
  std::vector<uint8_t> match_dense_;
  std::vector<uint8_t> page_buf_;
  std::vector<uint8_t> levels_;
  std::vector<uint32_t> indices_;
  std::vector<uint8_t> scratch_;
  size_t present_ = 0;
  bool all_present_ = true;
  bool track_nulls_ = false;  // out_->nulls is kept once the first null is seen
  ChunkDictionary dict_;
};

}  // namespace

Status CheckReadable(const LeafDescriptor& leaf, const TypePtr& target) {
  auto c = PlanConversion(leaf, target);
  if (!c) return std::unexpected(c.error());
  return Ok();
}

// The public decoder is a thin shell over ChunkDecoder; every error names the chunk.
struct ColumnChunkDecoder::Impl : ChunkDecoder {
  using ChunkDecoder::ChunkDecoder;
};

namespace {
Status Named(Status s, const ChunkDecoder& d) {
  if (!s) return std::unexpected(s.error().WithContext(d.context()));
  return s;
}
}  // namespace

ColumnChunkDecoder::ColumnChunkDecoder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ColumnChunkDecoder::~ColumnChunkDecoder() = default;

Result<std::unique_ptr<ColumnChunkDecoder>> ColumnChunkDecoder::Make(ColumnChunkInput input, const TypePtr& target) {
  auto conv = PlanConversion(*input.leaf, target);
  if (!conv) return std::unexpected(conv.error().WithContext(input.context));
  if (input.num_rows < 0 || input.num_rows > (1ll << 31)) return Corrupt(input.context + ": implausible row count");
  auto impl = std::make_unique<Impl>(std::move(input), *conv);
  FLOE_RETURN_IF_ERROR(Named(impl->Check(), *impl));
  return std::unique_ptr<ColumnChunkDecoder>(new ColumnChunkDecoder(std::move(impl)));
}

Result<bool> ColumnChunkDecoder::PeekPage() {
  auto more = impl_->PeekPage();
  if (!more) return std::unexpected(more.error().WithContext(impl_->context()));
  return *more;
}

size_t ColumnChunkDecoder::page_rows() const { return impl_->pending_rows(); }
bool ColumnChunkDecoder::PageCannotMatch() const { return impl_->PendingCannotMatch(); }
Status ColumnChunkDecoder::SkipPage() { return Named(impl_->SkipPage(), *impl_); }
Status ColumnChunkDecoder::ReadPage(Column* out, std::vector<uint8_t>* def_levels, std::vector<uint8_t>* rep_levels) {
  return Named(impl_->ReadPage(out, def_levels, rep_levels), *impl_);
}
Status ColumnChunkDecoder::ReadPageOrIds(Column* out, std::vector<uint32_t>* ids, bool* as_ids) {
  return Named(impl_->ReadPageOrIds(out, ids, as_ids), *impl_);
}
void ColumnChunkDecoder::AppendDictionaryValues(const uint32_t* ids, size_t k, const uint8_t* sel, Column* out) {
  impl_->AppendDictionaryValues(ids, k, sel, out);
}
Status ColumnChunkDecoder::SetPredicate(const Column& values) { return Named(impl_->SetPredicate(values), *impl_); }
Status ColumnChunkDecoder::MatchPage(std::vector<uint8_t>* match) { return Named(impl_->MatchPage(match), *impl_); }

Status ReadColumnChunk(const ColumnChunkInput& input, const TypePtr& target, Column* out,
                       std::vector<uint8_t>* def_levels, std::vector<uint8_t>* rep_levels) {
  if (input.leaf->max_rep_level > 0 && rep_levels == nullptr)
    return InvalidArgument(input.context + ": a repeated column is read with its repetition levels");
  FLOE_ASSIGN_OR_RETURN(auto decoder, ColumnChunkDecoder::Make(input, target));
  out->Reserve(static_cast<size_t>(std::min<int64_t>(input.num_rows, 1 << 20)));
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, decoder->PeekPage());
    if (!more) return Ok();
    FLOE_RETURN_IF_ERROR(decoder->ReadPage(out, def_levels, rep_levels));
  }
}

}  // namespace floe::parquet
