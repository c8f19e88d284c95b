#include "parquet/column_writer.h"

#include <cmath>
#include <cstring>

#include "parquet/compression.h"
#include "parquet/dictionary.h"
#include "parquet/rle.h"

namespace floe::parquet {

namespace {

// Rows handed to the value loops at a time, so that page size is checked often enough.
constexpr size_t kSliceRows = 4096;
// Footer statistics larger than this are left out (as parquet-mr does), not truncated.
constexpr size_t kMaxFooterStatBytes = 4096;
// A chunk whose first this many values are all distinct is written PLAIN at once: such a
// column (an id, a timestamp) would fill the dictionary to its size limit and fall back
// anyway, after hashing hundreds of thousands of values for nothing. Only a column whose first
// values are all distinct and whose later values repeat them is written differently for it.
constexpr size_t kDistinctProbeValues = 1 << 15;
// The dictionary-or-PLAIN decision compresses this many of the first page's values both ways
// (and this many of the dictionary's entries), not the whole page: a page of a column with few
// distinct values holds millions of bit-packed indices, whose PLAIN form is tens of megabytes.
constexpr size_t kProbeValues = 1 << 16;
// A thread's compression scratch buffer larger than this is given back after use (an
// outsized page should not pin its bound for the thread's life).
constexpr size_t kKeptScratchBytes = 4u << 20;

// Shared page/chunk bookkeeping: levels, page assembly, compression, headers.
class ChunkWriterBase : public ColumnChunkWriter {
 public:
  ChunkWriterBase(const LeafDescriptor& leaf, TypePtr type, const ColumnWriterOptions& opts)
      : leaf_(leaf), type_(std::move(type)), opts_(opts), max_def_(leaf.max_def_level),
        level_width_(BitWidth(static_cast<uint64_t>(leaf.max_def_level))), max_rep_(leaf.max_rep_level),
        rep_level_width_(BitWidth(static_cast<uint64_t>(leaf.max_rep_level))) {}

  Status AppendRepeated(const Column& entries, const uint8_t* def_levels, const uint8_t* rep_levels,
                        size_t count) override {
    if (max_rep_ == 0 || def_levels == nullptr || rep_levels == nullptr)
      return InvalidArgument("parquet writer: column '" + Name() + "' is not repeated or lacks its levels");
    if (count > 0 && rep_levels[0] != 0)
      return InvalidArgument("parquet writer: levels of column '" + Name() + "' do not start a record");
    rep_ = rep_levels;
    Status st = Append(entries, def_levels, 0, count);
    rep_ = nullptr;
    return st;
  }

 protected:
  // Where the slice of rows (entries) starting at b ends: kSliceRows on, stretched to the next
  // record's start for a repeated leaf, so that a page, checked at slice ends, ends a record.
  size_t SliceEnd(size_t b, size_t end) const {
    size_t e = std::min(end, b + kSliceRows);
    if (rep_ != nullptr)
      while (e < end && rep_[e] != 0) ++e;
    return e;
  }
  // Whether a page may end before entry e of a call covering [.., end): pages split only
  // between records (a record starts where the repetition level is 0; each call ends one).
  bool RecordEndsAt(size_t e, size_t end) const { return rep_ == nullptr || e >= end || rep_[e] == 0; }

  std::string Name() const {
    std::string n;
    for (const auto& p : leaf_.path) n += (n.empty() ? "" : ".") + p;
    return n;
  }

  // Records levels of rows [begin, end); returns the number of present values.
  size_t AddLevels(const uint8_t* def_levels, size_t begin, size_t end) {
    size_t n = end - begin;
    page_num_values_ += n;
    chunk_num_values_ += n;
    if (rep_ != nullptr) page_rep_levels_.insert(page_rep_levels_.end(), rep_ + begin, rep_ + end);
    if (max_def_ == 0) return n;
    if (def_levels == nullptr) {
      page_levels_.insert(page_levels_.end(), n, static_cast<uint8_t>(max_def_));
      return n;
    }
    page_levels_.insert(page_levels_.end(), def_levels + begin, def_levels + end);
    size_t present = 0;
    for (size_t i = begin; i < end; ++i) present += def_levels[i] == max_def_;
    chunk_null_count_ += n - present;
    return present;
  }

  // Starts a page body: the repetition levels, then the definition levels, each
  // length-prefixed (data page v1); a level whose maximum is 0 is left out.
  void BeginPageBody() {
    body_.clear();
    if (max_rep_ > 0) AppendLevelRun(page_rep_levels_, rep_level_width_);
    if (max_def_ > 0) AppendLevelRun(page_levels_, level_width_);
  }

  void AppendLevelRun(const std::vector<uint8_t>& levels, int width) {
    const size_t start = body_.size();
    body_.resize(start + 4);
    RleEncode(levels.data(), levels.size(), width, &body_);
    uint32_t len = static_cast<uint32_t>(body_.size() - start - 4);
    std::memcpy(body_.data() + start, &len, 4);
  }

  void SetDeferCompression(bool on) override { defer_ = on; }
  size_t PendingPageCount() const override { return pending_.size(); }

  Status CompressPendingPage(size_t i) override {
    PendingPage& page = pending_[i];
    FLOE_RETURN_IF_ERROR(CompressExact(page.body, &page.compressed));
    page.is_compressed = true;
    return Ok();
  }

  Status CommitPendingPages() override {
    for (size_t i = 0; i < pending_.size(); ++i) {
      if (!pending_[i].is_compressed) FLOE_RETURN_IF_ERROR(CompressPendingPage(i));
      PendingPage& page = pending_[i];
      FLOE_RETURN_IF_ERROR(AddDataPage(page.value_encoding, page.num_values, page.body.size(), std::move(page.compressed)));
    }
    pending_.clear();
    return Ok();
  }

  // Compresses body_ as a data page of the chunk; or, while compression is deferred, keeps
  // the body for CompressPendingPage (the next body gets the same capacity at once, rather
  // than regrowing and copying itself up to a page's size).
  Status EmitDataPage(int32_t value_encoding, int32_t num_values) {
    if (defer_) {
      const size_t capacity = body_.capacity();
      pending_.push_back(PendingPage{value_encoding, num_values, std::move(body_), {}, false});
      body_ = std::string();
      body_.reserve(capacity);
      return Ok();
    }
    std::string compressed;
    FLOE_RETURN_IF_ERROR(CompressExact(body_, &compressed));
    return AddDataPage(value_encoding, num_values, body_.size(), std::move(compressed));
  }

  // The dictionary page of body_ (PLAIN entries): header and compressed body.
  Result<std::string> DictionaryPage(int32_t num_values) {
    std::string compressed;
    FLOE_RETURN_IF_ERROR(CompressExact(body_, &compressed));
    FLOE_ASSIGN_OR_RETURN(std::string page, PageHeaderBytes(page_type::kDictionaryPage, encoding::kPlain, num_values,
                                                            body_.size(), compressed.size()));
    total_uncompressed_ += static_cast<int64_t>(page.size() + body_.size());
    encodings_used_ |= 1u << encoding::kPlain;
    page += compressed;
    return page;
  }

  // Compresses raw under the chunk's codec into *out, sized to fit: the codec's worst-case
  // bound is taken in a scratch buffer of the thread's, so that the pages a row group holds
  // until it is flushed take their compressed size and no more.
  Status CompressExact(const std::string& raw, std::string* out) {
    thread_local std::string scratch;
    scratch.clear();
    FLOE_RETURN_IF_ERROR(
        Compress(opts_.codec, opts_.compression_level, reinterpret_cast<const uint8_t*>(raw.data()), raw.size(), &scratch));
    out->assign(scratch);
    if (scratch.capacity() > kKeptScratchBytes) std::string().swap(scratch);
    return Ok();
  }

  // Adds a data page (header, then compressed body) to the chunk's pages.
  Status AddDataPage(int32_t value_encoding, int32_t num_values, size_t uncompressed_size, std::string compressed) {
    FLOE_ASSIGN_OR_RETURN(std::string header, PageHeaderBytes(page_type::kDataPage, value_encoding, num_values,
                                                              uncompressed_size, compressed.size()));
    total_uncompressed_ += static_cast<int64_t>(header.size() + uncompressed_size);
    data_pages_size_ += header.size() + compressed.size();
    data_pages_.push_back(std::move(header));
    data_pages_.push_back(std::move(compressed));
    encodings_used_ |= 1u << value_encoding;
    return Ok();
  }

  // A page's header, encoded.
  Result<std::string> PageHeaderBytes(int32_t page_type, int32_t value_encoding, int32_t num_values,
                                      size_t uncompressed_size, size_t compressed_size) {
    if (uncompressed_size > INT32_MAX || compressed_size > INT32_MAX)
      return InvalidArgument("parquet writer: page of column '" + Name() + "' exceeds 2 GiB");
    PageHeader ph;
    ph.type = page_type;
    ph.uncompressed_page_size = static_cast<int32_t>(uncompressed_size);
    ph.compressed_page_size = static_cast<int32_t>(compressed_size);
    if (page_type == page_type::kDictionaryPage) {
      ph.dictionary_page_header = DictionaryPageHeader{num_values, encoding::kPlain, std::nullopt};
    } else {
      DataPageHeader d;
      d.num_values = num_values;
      d.encoding = value_encoding;
      d.definition_level_encoding = encoding::kRle;
      d.repetition_level_encoding = encoding::kRle;
      ph.data_page_header = d;
    }
    std::string header;
    WritePageHeader(ph, &header);
    return header;
  }

  // Compressed size of bytes under this chunk's codec (for encoding decisions).
  size_t CompressedSize(const std::string& bytes) {
    probe_.clear();
    if (!Compress(opts_.codec, opts_.compression_level, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &probe_))
      return bytes.size();
    return probe_.size();
  }

  // Whether dictionary encoding of the first page pays against PLAIN once both are
  // compressed: the codec may squeeze structured PLAIN values better than bit-packed indices.
  // Judged on a sample (kProbeValues): `plain` holds the page's first min(kProbeValues, its
  // values) values PLAIN, `dict_plain` the dictionary's first `dict_sampled` entries PLAIN. The
  // dictionary's compressed size is estimated from its sample, and the sample is charged the
  // share of it that its values are of the page's, as the whole page is charged the whole.
  bool DictionaryPaysAfterCompression(const std::string& plain, const std::string& dict_plain, size_t dict_sampled,
                                      size_t dict_size, const std::vector<uint32_t>& indices) {
    if (opts_.codec == codec::kUncompressed || indices.empty() || dict_sampled == 0) return true;
    const size_t sampled = std::min(indices.size(), kProbeValues);
    std::string encoded(1, '\0');
    RleEncode(indices.data(), sampled, BitWidth(dict_size > 0 ? dict_size - 1 : 0), &encoded);
    const double dict = static_cast<double>(CompressedSize(dict_plain)) * static_cast<double>(dict_size) /
                        static_cast<double>(dict_sampled);
    const double dict_share = dict * static_cast<double>(sampled) / static_cast<double>(indices.size());
    return static_cast<double>(CompressedSize(encoded)) + dict_share < static_cast<double>(CompressedSize(plain));
  }

  void ResetPage() {
    page_levels_.clear();
    page_rep_levels_.clear();
    page_num_values_ = 0;
  }

  ChunkResult TakeChunk() {
    ChunkResult r;
    r.data_pages = std::move(data_pages_);
    r.data_pages_size = static_cast<int64_t>(data_pages_size_);
    data_pages_.clear();
    data_pages_size_ = 0;
    r.num_values = chunk_num_values_;
    r.null_count = chunk_null_count_;
    r.total_uncompressed_size = total_uncompressed_;
    encodings_used_ |= 1u << encoding::kRle;  // the level encoding every data page declares
    for (int e = 0; e < 32; ++e)
      if (encodings_used_ & (1u << e)) r.encodings.push_back(e);
    r.footer_stats.null_count = chunk_null_count_;
    chunk_num_values_ = chunk_null_count_ = total_uncompressed_ = 0;
    encodings_used_ = 0;
    return r;
  }

  LeafDescriptor leaf_;
  TypePtr type_;
  ColumnWriterOptions opts_;
  int max_def_;
  int level_width_;
  int max_rep_;
  int rep_level_width_;
  const uint8_t* rep_ = nullptr;  // the repetition levels of the call in progress (repeated leaves)
  std::vector<uint8_t> page_levels_;
  std::vector<uint8_t> page_rep_levels_;
  size_t page_num_values_ = 0;
  std::string body_, probe_;
  std::vector<std::string> data_pages_;  // each page's header, then its compressed body
  size_t data_pages_size_ = 0;           // their bytes
  int64_t chunk_num_values_ = 0, chunk_null_count_ = 0, total_uncompressed_ = 0;
  uint32_t encodings_used_ = 0;

  struct PendingPage {
    int32_t value_encoding, num_values;
    std::string body, compressed;
    bool is_compressed;
  };
  bool defer_ = false;
  std::vector<PendingPage> pending_;
};

void SetFooterBound(std::string bytes, std::optional<std::string>* slot) {
  if (bytes.size() <= kMaxFooterStatBytes) *slot = std::move(bytes);
}

// ---- numeric columns: INT32, INT64, FLOAT, DOUBLE (P) from a Column vector of S ----

template <typename P, typename S>
class NumericWriter : public ChunkWriterBase {
 public:
  NumericWriter(const LeafDescriptor& leaf, TypePtr type, const ColumnWriterOptions& opts,
                const std::vector<S> Column::*source)
      : ChunkWriterBase(leaf, std::move(type), opts), source_(source), dict_mode_(opts.dictionary_enabled) {}

  Status Append(const Column& column, const uint8_t* def_levels, size_t begin, size_t end) override {
    const std::vector<S>& src = column.*source_;
    if (src.size() < end) return InvalidArgument("parquet writer: column '" + Name() + "' holds fewer values than rows");
    for (size_t b = begin, e; b < end; b = e) {
      e = SliceEnd(b, end);
      size_t present = AddLevels(def_levels, b, e);
      const S* s = src.data();
      if (def_levels == nullptr || present == e - b) {
        for (size_t i = b; i < e; ++i) Add(static_cast<P>(s[i]));
      } else {
        for (size_t i = b; i < e; ++i)
          if (def_levels[i] == max_def_) Add(static_cast<P>(s[i]));
      }
      if (dict_mode_ && (dict_.byte_size() > opts_.dict_size_limit || AllDistinctSoFar())) FallBackToPlain();
      if (PageBytes() >= opts_.page_size && RecordEndsAt(e, end)) FLOE_RETURN_IF_ERROR(FlushPage());
    }
    return Ok();
  }

  size_t EstimatedSize() const override {
    return data_pages_size_ + PageBytes() + (dict_mode_ || dict_pages_ > 0 ? dict_.byte_size() : 0);
  }

  Result<ChunkResult> Finish() override {
    FLOE_RETURN_IF_ERROR(FlushPage());
    std::string dict_page;
    if (dict_pages_ > 0) {
      body_.assign(reinterpret_cast<const char*>(dict_.values().data()), dict_.byte_size());
      FLOE_ASSIGN_OR_RETURN(dict_page, DictionaryPage(static_cast<int32_t>(dict_.size())));
      for (P v : dict_.values()) UpdateBounds(v);
    }
    ChunkResult r = TakeChunk();
    r.dictionary_page = std::move(dict_page);
    r.nan_count = nan_count_;
    if (has_bounds_) {
      r.min = MakeLiteral(min_);
      r.max = MakeLiteral(max_);
      SetFooterBound(std::string(reinterpret_cast<const char*>(&min_), sizeof(P)), &r.footer_stats.min_value);
      SetFooterBound(std::string(reinterpret_cast<const char*>(&max_), sizeof(P)), &r.footer_stats.max_value);
    } else {
      r.min = r.max = Literal::Null(type_);
    }
    dict_.Clear();
    dict_pages_ = 0;
    dict_mode_ = opts_.dictionary_enabled;
    has_bounds_ = false;
    nan_count_ = 0;
    return r;
  }

 private:
  void Add(P v) {
    if constexpr (std::is_floating_point_v<P>) {
      if (std::isnan(v)) ++nan_count_;
    }
    if (dict_mode_) {
      bool inserted;
      indices_.push_back(dict_.Insert(v, &inserted));
    } else {
      values_.push_back(v);
      UpdateBounds(v);
    }
  }

  void UpdateBounds(P v) {
    if constexpr (std::is_floating_point_v<P>) {
      if (std::isnan(v)) return;
    }
    if (!has_bounds_) {
      min_ = max_ = v;
      has_bounds_ = true;
      return;
    }
    if (v < min_) min_ = v;
    if (v > max_) max_ = v;
    if constexpr (std::is_floating_point_v<P>) {
      // Zero bounds: -0.0 as the minimum and +0.0 as the maximum cover both zeros.
      if (v == 0 && min_ == 0 && std::signbit(v)) min_ = v;
      if (v == 0 && max_ == 0 && !std::signbit(v)) max_ = v;
    }
  }

  Literal MakeLiteral(P v) const {
    if (type_->id() == TypeId::kDecimal) return Literal(type_, static_cast<__int128>(v));
    if constexpr (std::is_same_v<P, int32_t>) return Literal(type_, v);
    if constexpr (std::is_same_v<P, int64_t>) return Literal(type_, v);
    if constexpr (std::is_same_v<P, float>) return Literal(type_, v);
    if constexpr (std::is_same_v<P, double>) return Literal(type_, v);
  }

  size_t PageBytes() const {
    if (dict_mode_) return indices_.size() * BitWidth(dict_.size()) / 8 + page_levels_.size() / 8;
    return values_.size() * sizeof(P) + page_levels_.size() / 8;
  }

  // The chunk's first kDistinctProbeValues values, or more, and no two equal (see there).
  bool AllDistinctSoFar() const {
    return dict_pages_ == 0 && indices_.size() >= kDistinctProbeValues && dict_.size() == indices_.size();
  }

  void FallBackToPlain() {
    for (uint32_t i : indices_) values_.push_back(dict_.values()[i]);
    indices_.clear();
    dict_mode_ = false;
    if (dict_pages_ == 0) {
      for (P v : dict_.values()) UpdateBounds(v);
      dict_.Clear();
    }
  }

  Status FlushPage() {
    if (page_num_values_ == 0) return Ok();
    // The first page tells whether a dictionary pays: if entries plus indices are no smaller
    // than the plain values, write PLAIN for the whole chunk.
    if (dict_mode_ && dict_pages_ == 0) {
      size_t dict_cost = dict_.byte_size() + indices_.size() * BitWidth(dict_.size()) / 8;
      if (dict_cost >= indices_.size() * sizeof(P)) {
        FallBackToPlain();
      } else {
        const size_t sampled = std::min(indices_.size(), kProbeValues);
        std::string plain(sampled * sizeof(P), '\0');
        P* out = reinterpret_cast<P*>(plain.data());
        for (size_t i = 0; i < sampled; ++i) out[i] = dict_.values()[indices_[i]];
        const size_t dict_sampled = std::min(dict_.size(), kProbeValues);
        std::string dict_plain(reinterpret_cast<const char*>(dict_.values().data()), dict_sampled * sizeof(P));
        if (!DictionaryPaysAfterCompression(plain, dict_plain, dict_sampled, dict_.size(), indices_)) FallBackToPlain();
      }
    }
    BeginPageBody();
    int32_t enc;
    if (dict_mode_) {
      int width = BitWidth(dict_.size() > 0 ? dict_.size() - 1 : 0);
      body_.push_back(static_cast<char>(width));
      RleEncode(indices_.data(), indices_.size(), width, &body_);
      enc = encoding::kRleDictionary;
      ++dict_pages_;
    } else {
      body_.append(reinterpret_cast<const char*>(values_.data()), values_.size() * sizeof(P));
      enc = encoding::kPlain;
    }
    FLOE_RETURN_IF_ERROR(EmitDataPage(enc, static_cast<int32_t>(page_num_values_)));
    indices_.clear();
    values_.clear();
    ResetPage();
    return Ok();
  }

  const std::vector<S> Column::*source_;
  bool dict_mode_;
  int dict_pages_ = 0;  // data pages written with the dictionary in this chunk
  FixedDictionary<P> dict_;
  std::vector<uint32_t> indices_;
  std::vector<P> values_;
  bool has_bounds_ = false;
  P min_{}, max_{};
  int64_t nan_count_ = 0;
};

// ---- BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY ----

// Big-endian two's complement of v in n bytes (decimals stored as FIXED_LEN_BYTE_ARRAY).
void DecimalToFixed(__int128 v, int n, char* out) {
  for (int i = 0; i < n; ++i) out[n - 1 - i] = static_cast<char>((static_cast<unsigned __int128>(v) >> (8 * i)) & 0xff);
}

__int128 FixedToDecimal(std::string_view b) {
  unsigned __int128 v = (!b.empty() && (static_cast<unsigned char>(b[0]) & 0x80)) ? ~static_cast<unsigned __int128>(0) : 0;
  for (unsigned char c : b) v = (v << 8) | c;
  return static_cast<__int128>(v);
}

class BytesWriter : public ChunkWriterBase {
 public:
  BytesWriter(const LeafDescriptor& leaf, TypePtr type, const ColumnWriterOptions& opts)
      : ChunkWriterBase(leaf, std::move(type), opts), dict_mode_(opts.dictionary_enabled) {
    fixed_len_ = leaf.element.type == physical::kFixedLenByteArray ? leaf.element.type_length.value_or(0) : -1;
    decimal_ = type_->id() == TypeId::kDecimal;
  }

  Status Append(const Column& column, const uint8_t* def_levels, size_t begin, size_t end) override {
    if (decimal_ ? column.decimals.size() < end : column.offsets.size() < end + 1)
      return InvalidArgument("parquet writer: column '" + Name() + "' holds fewer values than rows");
    char dec[16];
    for (size_t b = begin, e; b < end; b = e) {
      e = SliceEnd(b, end);
      AddLevels(def_levels, b, e);
      for (size_t i = b; i < e; ++i) {
        if (def_levels != nullptr && def_levels[i] != max_def_) continue;
        std::string_view v;
        if (decimal_) {
          DecimalToFixed(column.decimals[i], fixed_len_, dec);
          v = std::string_view(dec, fixed_len_);
        } else {
          v = column.BytesAt(i);
          if (fixed_len_ >= 0 && static_cast<int>(v.size()) != fixed_len_)
            return InvalidArgument("parquet writer: column '" + Name() + "' expects " + std::to_string(fixed_len_) +
                                   "-byte values, row " + std::to_string(i) + " has " + std::to_string(v.size()));
        }
        Add(v);
      }
      if (dict_mode_ && (dict_.byte_size() > opts_.dict_size_limit || AllDistinctSoFar())) FallBackToPlain();
      if (PageBytes() >= opts_.page_size && RecordEndsAt(e, end)) FLOE_RETURN_IF_ERROR(FlushPage());
    }
    return Ok();
  }

  size_t EstimatedSize() const override {
    return data_pages_size_ + PageBytes() + (dict_mode_ || dict_pages_ > 0 ? dict_.byte_size() : 0);
  }

  Result<ChunkResult> Finish() override {
    FLOE_RETURN_IF_ERROR(FlushPage());
    std::string dict_page;
    if (dict_pages_ > 0) {
      body_.clear();
      for (size_t i = 0; i < dict_.size(); ++i) {
        AppendPlain(dict_.At(i), &body_);
        UpdateBounds(dict_.At(i));
      }
      FLOE_ASSIGN_OR_RETURN(dict_page, DictionaryPage(static_cast<int32_t>(dict_.size())));
    }
    ChunkResult r = TakeChunk();
    r.dictionary_page = std::move(dict_page);
    if (has_bounds_) {
      if (decimal_) {
        r.min = Literal(type_, FixedToDecimal(min_));
        r.max = Literal(type_, FixedToDecimal(max_));
      } else {
        r.min = Literal(type_, min_);
        r.max = Literal(type_, max_);
      }
      SetFooterBound(min_, &r.footer_stats.min_value);
      SetFooterBound(max_, &r.footer_stats.max_value);
    } else {
      r.min = r.max = Literal::Null(type_);
    }
    dict_.Clear();
    dict_pages_ = 0;
    dict_mode_ = opts_.dictionary_enabled;
    has_bounds_ = false;
    return r;
  }

 private:
  void AppendPlain(std::string_view v, std::string* out) const {
    if (fixed_len_ < 0) {
      uint32_t len = static_cast<uint32_t>(v.size());
      out->append(reinterpret_cast<const char*>(&len), 4);
    }
    out->append(v);
  }

  void Add(std::string_view v) {
    if (dict_mode_) {
      bool inserted;
      indices_.push_back(dict_.Insert(v, &inserted));
    } else {
      AppendPlain(v, &plain_);
      UpdateBounds(v);
    }
  }

  // Unsigned byte order; decimals compare as signed big-endian numbers.
  bool Less(std::string_view a, std::string_view b) const {
    if (decimal_) return FixedToDecimal(a) < FixedToDecimal(b);
    return a < b;  // std::string_view compares char_traits<char>, which is unsigned per byte
  }

  void UpdateBounds(std::string_view v) {
    if (!has_bounds_) {
      min_.assign(v);
      max_.assign(v);
      has_bounds_ = true;
      return;
    }
    if (Less(v, min_)) min_.assign(v);
    if (Less(max_, v)) max_.assign(v);
  }

  size_t PageBytes() const {
    if (dict_mode_) return indices_.size() * BitWidth(dict_.size()) / 8 + page_levels_.size() / 8;
    return plain_.size() + page_levels_.size() / 8;
  }

  // The chunk's first kDistinctProbeValues values, or more, and no two equal (see there).
  bool AllDistinctSoFar() const {
    return dict_pages_ == 0 && indices_.size() >= kDistinctProbeValues && dict_.size() == indices_.size();
  }

  void FallBackToPlain() {
    for (uint32_t i : indices_) AppendPlain(dict_.At(i), &plain_);
    indices_.clear();
    dict_mode_ = false;
    if (dict_pages_ == 0) {
      for (size_t i = 0; i < dict_.size(); ++i) UpdateBounds(dict_.At(i));
      dict_.Clear();
    }
  }

  Status FlushPage() {
    if (page_num_values_ == 0) return Ok();
    if (dict_mode_ && dict_pages_ == 0) {
      size_t plain_size = 0;
      for (uint32_t i : indices_) plain_size += dict_.At(i).size() + (fixed_len_ < 0 ? 4 : 0);
      size_t dict_cost = dict_.byte_size() + indices_.size() * BitWidth(dict_.size()) / 8;
      if (dict_cost >= plain_size && !indices_.empty()) {
        FallBackToPlain();
      } else if (!indices_.empty()) {
        std::string plain, dict_plain;
        const size_t sampled = std::min(indices_.size(), kProbeValues);
        for (size_t k = 0; k < sampled; ++k) AppendPlain(dict_.At(indices_[k]), &plain);
        const size_t dict_sampled = std::min(dict_.size(), kProbeValues);
        for (size_t i = 0; i < dict_sampled; ++i) AppendPlain(dict_.At(i), &dict_plain);
        if (!DictionaryPaysAfterCompression(plain, dict_plain, dict_sampled, dict_.size(), indices_)) FallBackToPlain();
      }
    }
    BeginPageBody();
    int32_t enc;
    if (dict_mode_) {
      int width = BitWidth(dict_.size() > 0 ? dict_.size() - 1 : 0);
      body_.push_back(static_cast<char>(width));
      RleEncode(indices_.data(), indices_.size(), width, &body_);
      enc = encoding::kRleDictionary;
      ++dict_pages_;
    } else {
      body_.append(plain_);
      enc = encoding::kPlain;
    }
    FLOE_RETURN_IF_ERROR(EmitDataPage(enc, static_cast<int32_t>(page_num_values_)));
    indices_.clear();
    plain_.clear();
    ResetPage();
    return Ok();
  }

  int fixed_len_;  // -1 for BYTE_ARRAY
  bool decimal_;
  bool dict_mode_;
  int dict_pages_ = 0;
  BytesDictionary dict_;
  std::vector<uint32_t> indices_;
  std::string plain_;
  bool has_bounds_ = false;
  std::string min_, max_;
};

// ---- BOOLEAN: PLAIN, one bit per value ----

class BoolWriter : public ChunkWriterBase {
 public:
  using ChunkWriterBase::ChunkWriterBase;

  Status Append(const Column& column, const uint8_t* def_levels, size_t begin, size_t end) override {
    if (column.bools.size() < end) return InvalidArgument("parquet writer: column '" + Name() + "' holds fewer values than rows");
    for (size_t b = begin, e; b < end; b = e) {
      e = SliceEnd(b, end);
      AddLevels(def_levels, b, e);
      for (size_t i = b; i < e; ++i) {
        if (def_levels != nullptr && def_levels[i] != max_def_) continue;
        uint8_t v = column.bools[i] != 0;
        values_.push_back(v);
        seen_[v] = true;
      }
      if (values_.size() / 8 >= opts_.page_size && RecordEndsAt(e, end)) FLOE_RETURN_IF_ERROR(FlushPage());
    }
    return Ok();
  }

  size_t EstimatedSize() const override { return data_pages_size_ + values_.size() / 8; }

  Result<ChunkResult> Finish() override {
    FLOE_RETURN_IF_ERROR(FlushPage());
    ChunkResult r = TakeChunk();
    if (seen_[0] || seen_[1]) {
      bool lo = !seen_[0], hi = seen_[1];
      r.min = Literal::Boolean(lo);
      r.max = Literal::Boolean(hi);
      r.footer_stats.min_value = std::string(1, static_cast<char>(lo));
      r.footer_stats.max_value = std::string(1, static_cast<char>(hi));
    } else {
      r.min = r.max = Literal::Null(type_);
    }
    seen_[0] = seen_[1] = false;
    return r;
  }

 private:
  Status FlushPage() {
    if (page_num_values_ == 0) return Ok();
    BeginPageBody();
    size_t start = body_.size();
    body_.resize(start + (values_.size() + 7) / 8, '\0');
    for (size_t i = 0; i < values_.size(); ++i)
      body_[start + i / 8] = static_cast<char>(body_[start + i / 8] | (values_[i] << (i % 8)));
    FLOE_RETURN_IF_ERROR(EmitDataPage(encoding::kPlain, static_cast<int32_t>(page_num_values_)));
    values_.clear();
    ResetPage();
    return Ok();
  }

  std::vector<uint8_t> values_;
  bool seen_[2] = {false, false};
};

}  // namespace

Result<std::unique_ptr<ColumnChunkWriter>> ColumnChunkWriter::Make(const LeafDescriptor& leaf, TypePtr type,
                                                                   const ColumnWriterOptions& opts) {
  const int32_t p = leaf.element.type.value_or(-1);
  std::unique_ptr<ColumnChunkWriter> w;
  bool decimal = type->id() == TypeId::kDecimal;
  switch (p) {
    case physical::kBoolean: w = std::make_unique<BoolWriter>(leaf, type, opts); break;
    case physical::kInt32:
      if (decimal) w = std::make_unique<NumericWriter<int32_t, __int128>>(leaf, type, opts, &Column::decimals);
      else w = std::make_unique<NumericWriter<int32_t, int32_t>>(leaf, type, opts, &Column::ints);
      break;
    case physical::kInt64:
      if (decimal) w = std::make_unique<NumericWriter<int64_t, __int128>>(leaf, type, opts, &Column::decimals);
      else w = std::make_unique<NumericWriter<int64_t, int64_t>>(leaf, type, opts, &Column::longs);
      break;
    case physical::kFloat: w = std::make_unique<NumericWriter<float, float>>(leaf, type, opts, &Column::floats); break;
    case physical::kDouble: w = std::make_unique<NumericWriter<double, double>>(leaf, type, opts, &Column::doubles); break;
    case physical::kByteArray:
    case physical::kFixedLenByteArray: w = std::make_unique<BytesWriter>(leaf, type, opts); break;
    default: return InvalidArgument("parquet writer: no writer for physical type " + PhysicalTypeName(p));
  }
  return w;
}

}  // namespace floe::parquet
