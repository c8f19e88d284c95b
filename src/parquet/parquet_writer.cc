#include "parquet/parquet_writer.h"

#include "types/variant.h"

#include <cstring>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "parquet/compression.h"
#include "parquet/nested_levels.h"
#include "parquet/round_queue.h"

namespace floe::parquet {

namespace {

// Rows handed to all column writers before checking the row group's size: at least this
// many, at most kMaxRoundRows (see RoundRows). Rounds of kParallelRoundRows or more encode
// the columns on two threads.
constexpr size_t kRowGroupCheckRows = 4096;
constexpr size_t kMaxRoundRows = 1 << 18;
constexpr size_t kParallelRoundRows = 1 << 14;

Result<int64_t> SizeProperty(const std::map<std::string, std::string>& props, const std::string& key, int64_t def) {
  auto it = props.find(key);
  if (it == props.end()) return def;
  try {
    size_t used = 0;
    long long v = std::stoll(it->second, &used);
    if (used != it->second.size() || v <= 0) throw std::invalid_argument("bad");
    return static_cast<int64_t>(v);
  } catch (...) {
    return InvalidArgument(key + ": expected a positive integer, got '" + it->second + "'");
  }
}

}  // namespace

struct ParquetWriter::Leaf {
  int field_id = 0;
  std::string name;                 // dotted
  TypePtr type;
  std::vector<int> field_ids;       // ids from the top-level field down to the leaf
  std::vector<bool> optional;       // parallel to field_ids (a variant part adds one, required)
  // A variant column is written as a group of two required binaries: 1 = its metadata, 2 = its
  // value (field_ids end at the variant; the part is split out of the packed bytes per write).
  int variant_part = 0;
  // Under a list or map: written with repetition levels; its metrics are its size alone.
  bool repeated = false;
  LeafDescriptor descriptor;
  std::unique_ptr<ColumnChunkWriter> writer;
  // Accumulated over row groups for the metrics.
  int64_t column_size = 0, value_count = 0, null_count = 0, nan_count = 0;
  Literal min, max;
  double round_seconds = 0;  // time its last parallel round took (for scheduling)
};

namespace {

// One part of a packed variant column (variant.h) as a binary column: part 1 the metadata, 2
// the value. Null variants are null in the part too (their required part sits under a null group).
Status SplitVariant(const Column& variant, size_t rows, int part, Column* out) {
  out->Reserve(rows);
  for (size_t r = 0; r < rows; ++r) {
    if (variant.IsNull(r)) {
      out->AppendNull();
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(VariantBytes v, UnpackVariant(variant.BytesAt(r)));
    FLOE_RETURN_IF_ERROR(out->Append(Literal::Binary(part == 1 ? std::move(v.metadata) : std::move(v.value))));
  }
  return Ok();
}

}  // namespace

ParquetWriter::~ParquetWriter() = default;

Result<std::unique_ptr<ParquetWriter>> ParquetWriter::Open(OutputSink* sink, const Schema& schema,
                                                           const std::map<std::string, std::string>& props) {
  std::unique_ptr<ParquetWriter> w(new ParquetWriter());
  w->sink_ = sink;
  w->schema_ = schema;
  FLOE_ASSIGN_OR_RETURN(w->elements_, ToParquetSchema(schema));
  FLOE_ASSIGN_OR_RETURN(FileSchema fs, BuildFileSchema(w->elements_));
  FLOE_ASSIGN_OR_RETURN(w->metrics_modes_, ResolveMetricsModes(schema, props));

  ColumnWriterOptions opts;
  FLOE_ASSIGN_OR_RETURN(int64_t rg, SizeProperty(props, "write.parquet.row-group-size-bytes", 128ll << 20));
  FLOE_ASSIGN_OR_RETURN(int64_t page, SizeProperty(props, "write.parquet.page-size-bytes", 1ll << 20));
  FLOE_ASSIGN_OR_RETURN(int64_t dict, SizeProperty(props, "write.parquet.dict-size-bytes", 2ll << 20));
  w->row_group_size_ = static_cast<size_t>(rg);
  opts.page_size = static_cast<size_t>(page);
  opts.dict_size_limit = static_cast<size_t>(dict);
  if (auto it = props.find("write.parquet.compression-codec"); it != props.end()) {
    FLOE_ASSIGN_OR_RETURN(opts.codec, CodecFromName(it->second));
  }
  if (auto it = props.find("write.parquet.compression-level"); it != props.end()) {
    try {
      opts.compression_level = std::stoi(it->second);
    } catch (...) {
      return InvalidArgument("write.parquet.compression-level: expected an integer, got '" + it->second + "'");
    }
  } else if (opts.codec == codec::kGzip) {
    opts.compression_level = 6;
  }

  w->codec_ = opts.codec;
  // Walk the Iceberg schema in the same depth-first order as the Parquet leaves.
  std::function<Status(const std::vector<NestedField>&, std::vector<int>&, std::vector<bool>&, const std::string&, bool)>
      walk = [&](const std::vector<NestedField>& fields, std::vector<int>& ids, std::vector<bool>& opt,
                 const std::string& prefix, bool repeated) -> Status {
        for (const auto& f : fields) {
          if (f.type->id() == TypeId::kUnknown) continue;  // no column in the file (always null)
          ids.push_back(f.id);
          opt.push_back(!f.required);
          std::string name = prefix.empty() ? f.name : prefix + "." + f.name;
          if (f.type->is_nested()) {
            const bool is_struct = f.type->id() == TypeId::kStruct;
            FLOE_RETURN_IF_ERROR(walk(f.type->fields(), ids, opt, name, repeated || !is_struct));
          } else if (f.type->id() == TypeId::kVariant) {
            for (int part : {1, 2}) {
              Leaf leaf;
              leaf.field_id = f.id;
              leaf.name = name + (part == 1 ? ".metadata" : ".value");
              leaf.type = Type::Binary();
              leaf.field_ids = ids;
              leaf.optional = opt;
              // Under a list or map the part stands in the variant's place on the path (it is
              // null exactly where the variant is, and required below it: no level of its own).
              if (!repeated) leaf.optional.push_back(false);
              leaf.variant_part = part;
              leaf.repeated = repeated;
              w->leaves_.push_back(std::move(leaf));
            }
          } else {
            Leaf leaf;
            leaf.field_id = f.id;
            leaf.name = name;
            leaf.type = f.type;
            leaf.field_ids = ids;
            leaf.optional = opt;
            leaf.repeated = repeated;
            w->leaves_.push_back(std::move(leaf));
          }
          ids.pop_back();
          opt.pop_back();
        }
        return Ok();
      };
  std::vector<int> ids;
  std::vector<bool> opt;
  FLOE_RETURN_IF_ERROR(walk(schema.fields(), ids, opt, "", false));
  if (w->leaves_.size() != fs.leaves.size()) return InvalidArgument("parquet writer: schema and Parquet leaves disagree");
  for (size_t i = 0; i < w->leaves_.size(); ++i) {
    Leaf& leaf = w->leaves_[i];
    leaf.descriptor = fs.leaves[i];
    FLOE_ASSIGN_OR_RETURN(leaf.writer, ColumnChunkWriter::Make(leaf.descriptor, leaf.type, opts));
    leaf.min = leaf.max = Literal::Null(leaf.type);
  }
  FLOE_RETURN_IF_ERROR(sink->Append(std::string_view(kParquetMagic, 4)));
  return w;
}

uint64_t ParquetWriter::EstimatedFileSize() const {
  uint64_t size = sink_->position();
  for (const auto& leaf : leaves_) size += leaf.writer->EstimatedSize();
  return size;
}

Status ParquetWriter::Write(const ColumnBatch& batch, size_t first_row, size_t end_row) {
  if (closed_) return InvalidArgument("parquet writer: Write after Close");
  if (first_row > end_row || end_row > batch.num_rows)
    return InvalidArgument("parquet writer: rows [" + std::to_string(first_row) + ", " + std::to_string(end_row) +
                           ") are not within the batch's " + std::to_string(batch.num_rows));
  // Resolve each leaf's Column chain by field id.
  std::vector<std::vector<const Column*>> chains(leaves_.size());
  std::vector<std::unique_ptr<Column>> variant_parts;  // split out of packed variant columns
  for (size_t li = 0; li < leaves_.size(); ++li) {
    const Leaf& leaf = leaves_[li];
    int top = batch.ColumnIndexById(leaf.field_ids[0]);
    if (top < 0) return InvalidArgument("parquet writer: batch lacks column '" + leaf.name + "' (field id " + std::to_string(leaf.field_ids[0]) + ")");
    const Column* col = &batch.columns[top];
    const std::vector<NestedField>* fields = nullptr;
    chains[li].push_back(col);
    size_t aligned = 1;  // chain nodes with one row per batch row (no list or map above them)
    for (size_t d = 1; d < leaf.field_ids.size(); ++d) {
      if (!col->type || !col->type->is_nested())
        return InvalidArgument("parquet writer: column '" + leaf.name + "' is not a struct, list or map in the batch");
      if (col->type->id() == TypeId::kStruct && aligned == d) ++aligned;
      // A struct's children are its fields; a list's child is its element, a map's its key and value.
      fields = &col->type->fields();
      size_t k = 0;
      while (k < fields->size() && (*fields)[k].id != leaf.field_ids[d]) ++k;
      if (k == fields->size() || k >= col->children.size())
        return InvalidArgument("parquet writer: batch lacks field id " + std::to_string(leaf.field_ids[d]) + " of '" + leaf.name + "'");
      col = &col->children[k];
      chains[li].push_back(col);
    }
    if (leaf.variant_part) {
      if (!col->type || col->type->id() != TypeId::kVariant)
        return InvalidArgument("parquet writer: column '" + leaf.name + "' is not a variant in the batch");
      auto part = std::make_unique<Column>(Type::Binary());
      // Under a list or map the variant column holds the elements' values, not the rows.
      FLOE_RETURN_IF_ERROR(SplitVariant(*col, leaf.repeated ? col->length : batch.num_rows, leaf.variant_part, part.get()));
      if (leaf.repeated) {
        chains[li].back() = part.get();
      } else {
        chains[li].push_back(part.get());
      }
      variant_parts.push_back(std::move(part));
      continue;
    }
    for (size_t d = 0; d < chains[li].size(); ++d) {
      const Column* c = chains[li][d];
      if (d < aligned && c->length < batch.num_rows) return InvalidArgument("parquet writer: column '" + leaf.name + "' is shorter than the batch");
      if (!c->nulls.empty() && c->nulls.size() < c->length) return InvalidArgument("parquet writer: column '" + leaf.name + "' has too few null flags");
    }
    if (!chains[li].back()->type || chains[li].back()->type->id() != leaf.type->id())
      return InvalidArgument("parquet writer: column '" + leaf.name + "' has type " +
                             (chains[li].back()->type ? chains[li].back()->type->ToString() : "?") + ", the schema says " + leaf.type->ToString());
  }

  for (size_t begin = first_row; begin < end_row;) {
    size_t end = std::min(end_row, begin + RoundRows());
    FLOE_RETURN_IF_ERROR(AppendRows(chains, begin, end));
    row_group_rows_ += static_cast<int64_t>(end - begin);
    total_rows_ += static_cast<int64_t>(end - begin);
    size_t buffered = 0;
    for (const auto& leaf : leaves_) buffered += leaf.writer->EstimatedSize();
    buffered_ = buffered;
    if (buffered >= row_group_size_) FLOE_RETURN_IF_ERROR(FlushRowGroup());
    begin = end;
  }
  return Ok();
}

size_t ParquetWriter::RoundRows() const {
  if (row_group_rows_ == 0 || buffered_ == 0 || buffered_ >= row_group_size_) return kRowGroupCheckRows;
  // Half the rows that would fill the row group at its bytes per row so far: sizes can grow
  // faster than they have (a dictionary falling back to PLAIN), and rounds shrink to 4096
  // rows as the row group nears its size, so it closes where a 4096-row check would.
  double per_row = static_cast<double>(buffered_) / static_cast<double>(row_group_rows_);
  double rows = static_cast<double>(row_group_size_ - buffered_) / per_row / 2;
  size_t round = static_cast<size_t>(std::min(rows, static_cast<double>(kMaxRoundRows)));
  return std::max(kRowGroupCheckRows, round / kRowGroupCheckRows * kRowGroupCheckRows);
}

Status ParquetWriter::AppendRows(const std::vector<std::vector<const Column*>>& chains, size_t begin, size_t end) {
  bool parallel = leaves_.size() > 1 && end - begin >= kParallelRoundRows && std::thread::hardware_concurrency() > 1;
  if (!parallel) {
    for (size_t li = 0; li < leaves_.size(); ++li) FLOE_RETURN_IF_ERROR(AppendLeaf(leaves_[li], chains[li], begin, end, &levels_[0]));
    return Ok();
  }
  // Both threads take tasks from one queue: first the columns to encode, the costliest of
  // the last round first (longest-first scheduling); each encoded column then queues its
  // round's pages to compress, which the other thread can take while a slower column still
  // encodes. Compression is most of a page's cost, and pages even out what columns cannot.
  // Pages are committed in order at the end of the round, so the bytes (and the row-group
  // size checks between rounds) are those of compressing page by page.
  std::vector<size_t> order(leaves_.size());
  for (size_t li = 0; li < order.size(); ++li) order[li] = li;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return leaves_[a].round_seconds > leaves_[b].round_seconds; });
  std::mutex status_mu;
  Status status = Ok();
  auto record = [&](Status s) {
    std::lock_guard lock(status_mu);
    if (status && !s) status = std::move(s);
  };
  RoundQueue queue;
  for (size_t li : order) {
    queue.Push([&, li](int thread) {
      Leaf& leaf = leaves_[li];
      auto start = std::chrono::steady_clock::now();
      Status encoded = AppendLeaf(leaf, chains[li], begin, end, &levels_[thread]);
      leaf.round_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!encoded) return record(std::move(encoded));
      for (size_t p = 0; p < leaf.writer->PendingPageCount(); ++p) {
        queue.Push([&leaf, &record, p](int) { record(leaf.writer->CompressPendingPage(p)); });
      }
    });
  }
  if (!helper_) helper_ = std::make_unique<HelperThread>();
  for (Leaf& leaf : leaves_) leaf.writer->SetDeferCompression(true);
  std::function<void(int)> work = [&](int thread) { queue.Work(thread); };
  helper_->Run(work);
  for (Leaf& leaf : leaves_) leaf.writer->SetDeferCompression(false);
  FLOE_RETURN_IF_ERROR(status);
  for (Leaf& leaf : leaves_) FLOE_RETURN_IF_ERROR(leaf.writer->CommitPendingPages());
  return Ok();
}

Status ParquetWriter::AppendLeaf(Leaf& leaf, const std::vector<const Column*>& chain, size_t begin, size_t end,
                                 std::vector<uint8_t>* levels_buffer) {
  if (leaf.repeated) {
    // A few thousand records at a time bounds the entries held; each call ends a record.
    ShreddedLeaf shredded;
    for (size_t b = begin; b < end; b += kRowGroupCheckRows) {
      const size_t e = std::min(end, b + kRowGroupCheckRows);
      FLOE_RETURN_IF_ERROR(ShredLeaf(chain, leaf.optional, b, e, leaf.name, &shredded));
      FLOE_RETURN_IF_ERROR(leaf.writer->AppendRepeated(shredded.entries, shredded.def_levels.data(),
                                                       shredded.rep_levels.data(), shredded.def_levels.size()));
    }
    return Ok();
  }
  bool any_nulls = false;
  for (const Column* c : chain) any_nulls |= !c->nulls.empty();
  const uint8_t* levels = nullptr;
  if (any_nulls) {
    // The definition level of a row counts the optional fields present on the path.
    std::vector<uint8_t>& lv = *levels_buffer;
    if (lv.size() < end) lv.resize(end);
    for (size_t r = begin; r < end; ++r) {
      uint8_t level = 0;
      for (size_t d = 0; d < chain.size(); ++d) {
        if (chain[d]->IsNull(r)) {
          if (!leaf.optional[d]) {
            // A null struct makes its required children null: that is fine only when
            // an optional ancestor is already null (d == 0 here means a real violation).
            return InvalidArgument("parquet writer: column '" + leaf.name + "' is required but row " +
                                   std::to_string(r) + " is null");
          }
          break;
        }
        if (leaf.optional[d]) ++level;
      }
      lv[r] = level;
    }
    levels = lv.data();
  }
  return leaf.writer->Append(*chain.back(), levels, begin, end);
}

Status ParquetWriter::FlushRowGroup() {
  if (row_group_rows_ == 0) return Ok();
  RowGroup rg;
  rg.num_rows = row_group_rows_;
  rg.file_offset = static_cast<int64_t>(sink_->position());
  int64_t compressed_total = 0;
  // Finishing a chunk compresses its last pages: done on both threads when the helper runs.
  std::vector<Result<ChunkResult>> chunks(leaves_.size(), Result<ChunkResult>(ChunkResult{}));
  std::atomic<size_t> next{0};
  std::function<void(int)> finish = [&](int) {
    for (size_t li = next++; li < leaves_.size(); li = next++) chunks[li] = leaves_[li].writer->Finish();
  };
  if (helper_) {
    helper_->Run(finish);
  } else {
    finish(0);
  }
  for (size_t li = 0; li < leaves_.size(); ++li) {
    Leaf& leaf = leaves_[li];
    FLOE_ASSIGN_OR_RETURN(ChunkResult chunk, std::move(chunks[li]));
    int64_t start = static_cast<int64_t>(sink_->position());
    FLOE_RETURN_IF_ERROR(sink_->Append(chunk.dictionary_page));
    for (const std::string& piece : chunk.data_pages) FLOE_RETURN_IF_ERROR(sink_->Append(piece));
    int64_t size = static_cast<int64_t>(chunk.dictionary_page.size()) + chunk.data_pages_size;
    ColumnChunk cc;
    cc.file_offset = start;
    ColumnMetaData& md = cc.meta_data.emplace();
    md.type = *leaf.descriptor.element.type;
    md.encodings = chunk.encodings;
    md.path_in_schema = leaf.descriptor.path;
    md.codec = codec_;
    md.num_values = chunk.num_values;
    md.total_uncompressed_size = chunk.total_uncompressed_size;
    md.total_compressed_size = size;
    if (!chunk.dictionary_page.empty()) md.dictionary_page_offset = start;
    md.data_page_offset = start + static_cast<int64_t>(chunk.dictionary_page.size());
    md.statistics = chunk.footer_stats;
    rg.columns.push_back(std::move(cc));
    rg.total_byte_size += chunk.total_uncompressed_size;
    compressed_total += size;

    leaf.column_size += size;
    leaf.value_count += chunk.num_values;
    leaf.null_count += chunk.null_count;
    leaf.nan_count += chunk.nan_count;
    if (!chunk.min.is_null() && (leaf.min.is_null() || Literal::Compare(chunk.min, leaf.min) < 0)) leaf.min = chunk.min;
    if (!chunk.max.is_null() && (leaf.max.is_null() || Literal::Compare(chunk.max, leaf.max) > 0)) leaf.max = chunk.max;
  }
  rg.total_compressed_size = compressed_total;
  rg.ordinal = static_cast<int16_t>(footer_.row_groups.size());
  footer_.row_groups.push_back(std::move(rg));
  row_group_rows_ = 0;
  buffered_ = 0;
  return Ok();
}

void ParquetWriter::SetKeyValueMetadata(const std::string& key, std::string value) {
  for (auto& kv : footer_.key_value_metadata) {
    if (kv.key == key) {
      kv.value = std::move(value);
      return;
    }
  }
  footer_.key_value_metadata.push_back(KeyValue{key, std::move(value)});
}

Result<DataFileMetrics> ParquetWriter::Close() {
  if (closed_) return InvalidArgument("parquet writer: Close called twice");
  closed_ = true;
  FLOE_RETURN_IF_ERROR(FlushRowGroup());
  footer_.version = 1;
  footer_.schema = elements_;
  footer_.num_rows = total_rows_;
  footer_.created_by = "floe version 0.1.0";
  footer_.column_orders = leaves_.size();
  std::string footer;
  WriteFileMetaData(footer_, &footer);
  uint32_t len = static_cast<uint32_t>(footer.size());
  footer.append(reinterpret_cast<const char*>(&len), 4);
  footer.append(kParquetMagic, 4);
  FLOE_RETURN_IF_ERROR(sink_->Append(footer));
  // Taken before Close: a sink need not know its position once closed (the in-memory one
  // hands its bytes over).
  const auto file_size = static_cast<int64_t>(sink_->position());
  FLOE_RETURN_IF_ERROR(sink_->Close());

  DataFileMetrics m;
  m.record_count = total_rows_;
  m.file_size_in_bytes = file_size;
  for (const auto& rg : footer_.row_groups) m.split_offsets.push_back(*rg.file_offset);
  for (const auto& leaf : leaves_) {
    MetricsMode mode = metrics_modes_.count(leaf.field_id) ? metrics_modes_[leaf.field_id] : MetricsMode{};
    // A variant under a list or map gets no metrics at all, as Iceberg Java's writers give it
    // (they key metrics by a leaf's field id, and a variant's binaries carry none).
    if (leaf.variant_part && leaf.repeated) continue;
    if (leaf.variant_part == 1) {  // counts come from the value part; sizes are both parts'
      m.column_sizes[leaf.field_id] = leaf.column_size;
      continue;
    }
    if (leaf.variant_part == 2) {
      m.column_sizes[leaf.field_id] += leaf.column_size;
      if (mode.kind == MetricsMode::kNone) continue;
      m.value_counts[leaf.field_id] = leaf.value_count;
      m.null_value_counts[leaf.field_id] = leaf.null_count;
      continue;  // a variant has no bounds
    }
    m.column_sizes[leaf.field_id] = leaf.column_size;
    // A leaf under a list or map gets its size only, as Iceberg's own Parquet metrics give it:
    // its entries are not rows, so counts and bounds of them would mislead row-level pruning.
    if (mode.kind == MetricsMode::kNone || leaf.repeated) continue;
    m.value_counts[leaf.field_id] = leaf.value_count;
    m.null_value_counts[leaf.field_id] = leaf.null_count;
    TypeId t = leaf.type->id();
    if (t == TypeId::kFloat || t == TypeId::kDouble) m.nan_value_counts[leaf.field_id] = leaf.nan_count;
    if (mode.kind == MetricsMode::kCounts || leaf.min.is_null()) continue;
    // Geospatial bounds are bounding-box points, not byte order: floe writes none.
    if (t == TypeId::kGeometry || t == TypeId::kGeography) continue;
    if (mode.kind == MetricsMode::kTruncate && (t == TypeId::kString || t == TypeId::kBinary)) {
      const std::string& lo = leaf.min.AsBytes();
      const std::string& hi = leaf.max.AsBytes();
      bool str = t == TypeId::kString;
      m.lower_bounds[leaf.field_id] = Literal(leaf.type, str ? TruncateLowerString(lo, mode.length) : TruncateLowerBinary(lo, mode.length));
      auto upper = str ? TruncateUpperString(hi, mode.length) : TruncateUpperBinary(hi, mode.length);
      if (upper) m.upper_bounds[leaf.field_id] = Literal(leaf.type, *upper);
      continue;
    }
    m.lower_bounds[leaf.field_id] = leaf.min;
    m.upper_bounds[leaf.field_id] = leaf.max;
  }
  return m;
}

}  // namespace floe::parquet
