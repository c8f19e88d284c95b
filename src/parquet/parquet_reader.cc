#include "parquet/parquet_reader.h"

#include "types/variant.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <thread>

#include "parquet/batch_append.h"
#include "parquet/column_reader.h"
#include "parquet/nested_assembly.h"
#include "parquet/value_conversion.h"
#include "parquet/variant_shredded.h"

namespace floe::parquet {

namespace {

// How much of a file's end ParquetFile::Open reads at once, footer and all: most footers fit.
constexpr uint64_t kFooterReadAhead = 64 << 10;

// A footer statistic's integer in the target's unit, as the column's values are read
// (value_conversion.h: millis to micros, and days to micros for a date promoted to timestamp).
int64_t ScaleToTarget(int64_t v, const LeafDescriptor& leaf, const TypePtr& target) {
  auto conversion = PlanConversion(leaf, target);
  return conversion ? ScaleInt(v, *conversion) : v;
}

// A footer statistic (PLAIN bytes of the leaf's physical type) as a Literal of the target
// type; a null Literal when it cannot be interpreted.
Literal StatToLiteral(const LeafDescriptor& leaf, const TypePtr& target, std::string_view b) {
  const SchemaElement& e = leaf.element;
  const int32_t p = *e.type;
  if (CheckReadable(leaf, target).has_value() == false) return Literal::Null(target);
  auto be_decimal = [&](std::string_view bytes) {
    unsigned __int128 v = (!bytes.empty() && (static_cast<unsigned char>(bytes[0]) & 0x80)) ? ~static_cast<unsigned __int128>(0) : 0;
    for (unsigned char c : bytes) v = (v << 8) | c;
    return static_cast<__int128>(v);
  };
  switch (p) {
    case physical::kBoolean:
      if (b.size() != 1) break;
      return Literal(target, b[0] != 0);
    case physical::kInt32: {
      if (b.size() != 4) break;
      int32_t v;
      std::memcpy(&v, b.data(), 4);
      switch (target->id()) {
        case TypeId::kInt:
        case TypeId::kDate: return Literal(target, v);
        case TypeId::kDecimal: return Literal(target, static_cast<__int128>(v));
        case TypeId::kLong: return Literal(target, static_cast<int64_t>(v));
        default: return Literal(target, ScaleToTarget(v, leaf, target));
      }
    }
    case physical::kInt64: {
      if (b.size() != 8) break;
      int64_t v;
      std::memcpy(&v, b.data(), 8);
      if (target->id() == TypeId::kDecimal) return Literal(target, static_cast<__int128>(v));
      if (target->id() == TypeId::kLong) return Literal(target, v);
      return Literal(target, ScaleToTarget(v, leaf, target));
    }
    case physical::kFloat: {
      if (b.size() != 4) break;
      float v;
      std::memcpy(&v, b.data(), 4);
      if (v != v) break;  // a NaN bound says nothing
      if (target->id() == TypeId::kDouble) return Literal(target, static_cast<double>(v));
      return Literal(target, v);
    }
    case physical::kDouble: {
      if (b.size() != 8) break;
      double v;
      std::memcpy(&v, b.data(), 8);
      if (v != v) break;
      return Literal(target, v);
    }
    case physical::kByteArray:
    case physical::kFixedLenByteArray:
      if (target->id() == TypeId::kDecimal) {
        if (b.size() > 16) break;
        return Literal(target, be_decimal(b));
      }
      return Literal(target, std::string(b));
    default:
      break;
  }
  return Literal::Null(target);
}

// Where a column chunk's bytes begin: its dictionary page when it has one before the data pages.
int64_t ChunkStart(const ColumnMetaData& md) {
  int64_t start = md.data_page_offset;
  if (md.dictionary_page_offset && *md.dictionary_page_offset > 0 && *md.dictionary_page_offset < start)
    start = *md.dictionary_page_offset;
  return start;
}

void FillNulls(Column* c, size_t n) {
  for (size_t i = 0; i < n; ++i) c->AppendNull();
}

}  // namespace

Result<std::shared_ptr<ParquetFile>> ParquetFile::OpenPath(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(auto source, MappedFileSource::Open(path));
  return Open(std::shared_ptr<const InputSource>(std::move(source)));
}

Result<std::shared_ptr<ParquetFile>> ParquetFile::Open(std::shared_ptr<const InputSource> source) {
  const std::string& name = source->name();
  uint64_t size = source->size();
  if (size < 12) return Corrupt(name + ": not a Parquet file (only " + std::to_string(size) + " bytes)");
  // One read of the file's end usually holds the whole footer: on an object store that is one
  // request. The leading magic is checked when that read reaches it (every file up to
  // kFooterReadAhead bytes); a larger file's start is not read for it (as in parquet-mr and
  // Arrow, which check only the trailing magic): a damaged start shows in its chunks' pages.
  const uint64_t tail_len = std::min<uint64_t>(size, kFooterReadAhead);
  FLOE_ASSIGN_OR_RETURN(std::string_view tail, source->Read(size - tail_len, tail_len));
  std::string_view end = tail.substr(tail_len - 8);
  if (end.substr(4) == "PARE") return NotSupported(name + ": encrypted Parquet files are not supported");
  const std::string_view magic(kParquetMagic, 4);
  if (end.substr(4) != magic || (tail_len == size && tail.substr(0, 4) != magic))
    return Corrupt(name + ": not a Parquet file (magic bytes missing)");
  uint32_t footer_len;
  std::memcpy(&footer_len, end.data(), 4);
  if (footer_len > size - 12) return Corrupt(name + ": footer length " + std::to_string(footer_len) + " exceeds the file");
  std::string_view footer;
  if (footer_len + 8 <= tail_len) {
    footer = tail.substr(tail_len - 8 - footer_len, footer_len);
  } else {
    FLOE_ASSIGN_OR_RETURN(footer, source->Read(size - 8 - footer_len, footer_len));
  }

  std::shared_ptr<ParquetFile> f(new ParquetFile());
  f->source_ = std::move(source);
  auto meta = ReadFileMetaData(reinterpret_cast<const uint8_t*>(footer.data()), footer.size());
  if (!meta) return std::unexpected(meta.error().WithContext(name));
  f->meta_ = std::move(*meta);
  auto schema = BuildFileSchema(f->meta_.schema);
  if (!schema) return std::unexpected(schema.error().WithContext(name));
  f->schema_ = std::move(*schema);
  if (f->meta_.num_rows < 0) return Corrupt(name + ": negative row count");
  int64_t rows = 0;
  for (size_t i = 0; i < f->meta_.row_groups.size(); ++i) {
    const RowGroup& rg = f->meta_.row_groups[i];
    std::string where = name + ": row group " + std::to_string(i);
    if (rg.num_rows < 0) return Corrupt(where + " has a negative row count");
    if (rg.columns.size() != f->schema_.leaves.size())
      return Corrupt(where + " has " + std::to_string(rg.columns.size()) + " column chunks, the schema has " +
                     std::to_string(f->schema_.leaves.size()) + " columns");
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      const ColumnChunk& cc = rg.columns[c];
      if (cc.file_path) return NotSupported(where + ": column chunks in other files are not supported");
      if (!cc.meta_data) return Corrupt(where + ": column chunk without metadata");
      if (cc.meta_data->type != *f->schema_.leaves[c].element.type)
        return Corrupt(where + ": column chunk type disagrees with the schema");
    }
    rows += rg.num_rows;
  }
  if (rows != f->meta_.num_rows)
    return Corrupt(name + ": row groups hold " + std::to_string(rows) + " rows, the footer says " + std::to_string(f->meta_.num_rows));
  for (const auto& leaf : f->schema_.leaves) f->has_field_ids_ |= leaf.element.field_id.has_value();
  for (const auto& c : f->schema_.root.children) f->has_field_ids_ |= c.element.field_id.has_value();
  auto inferred = InferIcebergSchema(f->schema_);
  if (!inferred) return std::unexpected(inferred.error().WithContext(name));
  f->iceberg_schema_ = std::move(*inferred);
  return f;
}

const SchemaNode* ParquetFile::Match(const SchemaNode& parent, const NestedField& field) const {
  for (const auto& c : parent.children) {
    if (has_field_ids_ ? c.field_id() == field.id : c.element.name == field.name) return &c;
  }
  if (!has_field_ids_) return nullptr;
  return nullptr;
}

Status ParquetFile::ReadField(int rg_index, const NestedField& field, const SchemaNode* node, Column* out,
                              std::vector<uint8_t>* def_levels) const {
  const RowGroup& rg = meta_.row_groups[rg_index];
  size_t rows = static_cast<size_t>(rg.num_rows);
  if (node == nullptr) {
    if (HoldsRepeated(*field.type)) {
      AppendNullRows(out, rows);
    } else {
      FillNulls(out, rows);
    }
    return Ok();
  }
  if (HoldsRepeated(*field.type)) {
    // Lists and maps, and structs holding them: rebuilt from their leaves' levels.
    NestedReadContext ctx;
    ctx.rows = rows;
    ctx.match_by_id = has_field_ids_;
    ctx.where = name() + ", row group " + std::to_string(rg_index);
    ctx.load = [&](int leaf_index, const TypePtr& type, LeafEntries* entries) -> Status {
      FLOE_ASSIGN_OR_RETURN(ColumnChunkInput in, ChunkInput(rg_index, leaf_index));
      return ReadColumnChunk(in, type, &entries->values, &entries->def, &entries->rep);
    };
    return ReadNestedField(ctx, field, *node, out);
  }
  if (field.type->id() == TypeId::kStruct) {
    if (node->is_leaf()) return InvalidArgument(name() + ": column '" + field.name + "' is not a struct in the file");
    std::vector<uint8_t> levels;
    bool have_levels = false;
    for (size_t k = 0; k < field.type->fields().size(); ++k) {
      const NestedField& child = field.type->fields()[k];
      const SchemaNode* cn = Match(*node, child);
      std::vector<uint8_t>* want = (!have_levels && cn) ? &levels : nullptr;
      FLOE_RETURN_IF_ERROR(ReadField(rg_index, child, cn, &out->children[k], want));
      if (want) have_levels = true;
    }
    out->length = rows;
    bool optional = node->element.repetition_type.value_or(repetition::kRequired) != repetition::kRequired;
    if (have_levels && optional) {
      std::vector<uint8_t> nulls(rows, 0);
      bool any = false;
      for (size_t r = 0; r < rows && r < levels.size(); ++r) {
        nulls[r] = levels[r] < node->def_level;
        any |= nulls[r];
      }
      if (any) out->nulls = std::move(nulls);
    }
    if (def_levels && have_levels) *def_levels = std::move(levels);
    return Ok();
  }
  if (field.type->id() == TypeId::kUnknown) {  // always null, whatever a file holds
    FillNulls(out, rows);
    return Ok();
  }
  if (field.type->id() == TypeId::kVariant) return ReadVariant(rg_index, field, *node, out, def_levels);
  if (!node->is_leaf()) return InvalidArgument(name() + ": column '" + field.name + "' is a group in the file, not a " + field.type->ToString());
  FLOE_ASSIGN_OR_RETURN(ColumnChunkInput in, ChunkInput(rg_index, node->leaf_index));
  return ReadColumnChunk(in, field.type, out, def_levels);
}

// A variant group holds `metadata` and `value` binaries (and, when shredded, `typed_value`:
// parquet/variant_shredded.h reassembles those).
// Each row's two parts are packed into one value of the column (types/variant.h) and checked.
Status ParquetFile::ReadVariant(int rg_index, const NestedField& field, const SchemaNode& node, Column* out,
                                std::vector<uint8_t>* def_levels) const {
  const size_t rows = static_cast<size_t>(meta_.row_groups[rg_index].num_rows);
  const std::string where = name() + ": variant column '" + field.name + "'";
  if (node.is_leaf()) return Corrupt(where + " is a single column in the file, not a metadata + value group");
  const SchemaNode* parts[2] = {nullptr, nullptr};
  for (const auto& c : node.children) {
    if (c.element.name == "metadata") parts[0] = &c;
    if (c.element.name == "value") parts[1] = &c;
  }
  if (IsShreddedVariant(node)) {
    auto load = [&](const SchemaNode& leaf, const TypePtr& type, Column* column, std::vector<uint8_t>* levels) -> Status {
      FLOE_ASSIGN_OR_RETURN(ColumnChunkInput in, ChunkInput(rg_index, leaf.leaf_index));
      return ReadColumnChunk(in, type, column, levels);
    };
    NestedReadContext nested;
    nested.rows = rows;
    nested.where = where;
    nested.load = [&](int leaf_index, const TypePtr& type, LeafEntries* entries) -> Status {
      FLOE_ASSIGN_OR_RETURN(ColumnChunkInput in, ChunkInput(rg_index, leaf_index));
      return ReadColumnChunk(in, type, &entries->values, &entries->def, &entries->rep);
    };
    return ReadShreddedVariant(node, nested, where, load, field.type, out, def_levels);
  }
  if (!parts[0] || !parts[1] || !parts[0]->is_leaf() || !parts[1]->is_leaf())
    return Corrupt(where + " lacks its binary 'metadata' or 'value' column");
  Column columns[2] = {Column(Type::Binary()), Column(Type::Binary())};
  for (int p = 0; p < 2; ++p) {
    FLOE_ASSIGN_OR_RETURN(ColumnChunkInput in, ChunkInput(rg_index, parts[p]->leaf_index));
    FLOE_RETURN_IF_ERROR(ReadColumnChunk(in, Type::Binary(), &columns[p], p == 0 ? def_levels : nullptr));
  }
  out->Reserve(rows);
  for (size_t r = 0; r < rows; ++r) {
    if (r >= columns[0].length || r >= columns[1].length || columns[0].IsNull(r) || columns[1].IsNull(r)) {
      out->AppendNull();
      continue;
    }
    std::string_view metadata = columns[0].BytesAt(r), value = columns[1].BytesAt(r);
    auto text = VariantToJsonText(metadata, value);
    if (!text) return Corrupt(where + ", row " + std::to_string(r) + ": " + text.error().message);
    FLOE_RETURN_IF_ERROR(out->Append(Literal(field.type, PackVariant(metadata, value))));
  }
  return Ok();
}

Result<ColumnChunkInput> ParquetFile::ChunkInput(int rg_index, int leaf_index) const {
  const RowGroup& rg = meta_.row_groups[rg_index];
  const LeafDescriptor& leaf = schema_.leaves[leaf_index];
  const ColumnMetaData& md = *rg.columns[leaf_index].meta_data;
  const int64_t start = ChunkStart(md);
  std::string context = name() + ", column '";
  for (size_t i = 0; i < leaf.path.size(); ++i) context += (i ? "." : "") + leaf.path[i];
  context += "', row group " + std::to_string(rg_index);
  if (start < 0 || md.total_compressed_size < 0) return Corrupt(context + ": negative chunk offset or size");
  auto bytes = source_->Read(static_cast<uint64_t>(start), static_cast<uint64_t>(md.total_compressed_size));
  if (!bytes) return std::unexpected(bytes.error().WithContext(context));
  ColumnChunkInput in;
  in.bytes = *bytes;
  in.meta = &md;
  in.leaf = &leaf;
  in.num_rows = rg.num_rows;
  in.context = context;
  return in;
}

void ParquetFile::ChunkSpans(int rg_index, const SchemaNode& node,
                             std::vector<std::pair<uint64_t, uint64_t>>* spans) const {
  if (!node.is_leaf()) {
    for (const auto& child : node.children) ChunkSpans(rg_index, child, spans);
    return;
  }
  const ColumnMetaData& md = *meta_.row_groups[rg_index].columns[node.leaf_index].meta_data;
  const int64_t start = ChunkStart(md);
  // A chunk outside the file is left out here; its own read names the problem.
  if (start < 0 || md.total_compressed_size <= 0 || static_cast<uint64_t>(start) > file_size() ||
      static_cast<uint64_t>(md.total_compressed_size) > file_size() - static_cast<uint64_t>(start))
    return;
  spans->emplace_back(static_cast<uint64_t>(start), static_cast<uint64_t>(md.total_compressed_size));
}

std::vector<std::pair<uint64_t, uint64_t>> ParquetFile::FieldSpans(int rg_index,
                                                                   const std::vector<NestedField>& fields) const {
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  std::function<void(const SchemaNode&, const std::vector<NestedField>&)> walk = [&](const SchemaNode& parent,
                                                                                  const std::vector<NestedField>& fs) {
    for (const auto& f : fs) {
      const SchemaNode* node = Match(parent, f);
      if (node == nullptr) continue;
      if (f.type->id() == TypeId::kStruct && !node->is_leaf()) {
        walk(*node, f.type->fields());
      } else {
        ChunkSpans(rg_index, *node, &spans);
      }
    }
  };
  walk(schema_.root, fields);
  return spans;
}

Status ParquetFile::WillReadFields(int rg_index, const std::vector<NestedField>& fields) const {
  std::vector<std::pair<uint64_t, uint64_t>> spans = FieldSpans(rg_index, fields);
  if (spans.empty()) return Ok();
  return source_->WillRead(spans);
}

Status ParquetFile::WillReadRowGroups(const std::vector<int>& row_groups, const std::vector<NestedField>& fields) const {
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  for (int rg : row_groups) {
    if (rg < 0 || rg >= num_row_groups()) return InvalidArgument(name() + ": no row group " + std::to_string(rg));
    std::vector<std::pair<uint64_t, uint64_t>> more = FieldSpans(rg, fields);
    spans.insert(spans.end(), more.begin(), more.end());
  }
  if (spans.empty()) return Ok();
  return source_->WillRead(spans);
}

void ParquetFile::DoneReadingRowGroup(int row_group, const std::vector<NestedField>& fields) const {
  if (row_group < 0 || row_group >= num_row_groups()) return;
  std::vector<std::pair<uint64_t, uint64_t>> spans = FieldSpans(row_group, fields);
  if (!spans.empty()) source_->DoneReading(spans);
}

Result<ColumnBatch> ParquetFile::ReadRowGroup(int index, const Schema& projection, int threads) const {
  if (index < 0 || index >= num_row_groups()) return InvalidArgument(name() + ": no row group " + std::to_string(index));
  const std::vector<std::pair<uint64_t, uint64_t>> spans = FieldSpans(index, projection.fields());
  if (!spans.empty()) FLOE_RETURN_IF_ERROR(source_->WillRead(spans));
  ColumnBatch batch(projection);
  size_t n = projection.fields().size();
  std::vector<Status> status(n);
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < n; i = next++) {
      const NestedField& f = projection.fields()[i];
      status[i] = ReadField(index, f, Match(schema_.root, f), &batch.columns[i], nullptr);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads && static_cast<size_t>(t) < n; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  for (const auto& s : status) FLOE_RETURN_IF_ERROR(s);
  // The chunks are decoded into the batch: a file read row group by row group keeps only the
  // one being decoded resident (a 700 MB source file is not all in the process's memory at the end).
  source_->DoneReading(spans);
  batch.num_rows = static_cast<size_t>(meta_.row_groups[index].num_rows);
  return batch;
}

Result<RowGroupStatistics> ParquetFile::Statistics(int index, const Schema& projection) const {
  if (index < 0 || index >= num_row_groups()) return InvalidArgument(name() + ": no row group " + std::to_string(index));
  const RowGroup& rg = meta_.row_groups[index];
  RowGroupStatistics out;
  out.index = index;
  out.num_rows = rg.num_rows;
  std::function<void(const SchemaNode*, const std::vector<NestedField>&)> walk = [&](const SchemaNode* parent,
                                                                                  const std::vector<NestedField>& fields) {
    for (const auto& f : fields) {
      const SchemaNode* node = parent ? Match(*parent, f) : nullptr;
      if (f.type->id() == TypeId::kStruct) {
        walk(node && !node->is_leaf() ? node : nullptr, f.type->fields());
        continue;
      }
      if (!f.type->is_primitive()) continue;
      ColumnStatistics cs;
      cs.min = cs.max = Literal::Null(f.type);
      if (node == nullptr) {
        cs.value_count = rg.num_rows;
        cs.null_count = rg.num_rows;
        out.columns[f.id] = cs;
        continue;
      }
      if (!node->is_leaf()) continue;
      const LeafDescriptor& leaf = schema_.leaves[node->leaf_index];
      const ColumnMetaData& md = *rg.columns[node->leaf_index].meta_data;
      cs.value_count = md.num_values;
      if (md.statistics) {
        const auto& st = *md.statistics;
        cs.null_count = st.null_count;
        std::optional<std::string> lo = st.min_value, hi = st.max_value;
        // The deprecated min/max used signed byte order: trust them only for numbers.
        int32_t p = *leaf.element.type;
        bool signed_ok = p == physical::kInt32 || p == physical::kInt64 || p == physical::kFloat ||
                         p == physical::kDouble || p == physical::kBoolean;
        if (!lo && signed_ok && f.type->id() != TypeId::kDecimal) lo = st.min;
        if (!hi && signed_ok && f.type->id() != TypeId::kDecimal) hi = st.max;
        if (lo && hi) {
          cs.min = StatToLiteral(leaf, f.type, *lo);
          cs.max = StatToLiteral(leaf, f.type, *hi);
          if (cs.min.is_null() || cs.max.is_null()) cs.min = cs.max = Literal::Null(f.type);
        }
      }
      out.columns[f.id] = cs;
    }
  };
  walk(&schema_.root, projection.fields());
  return out;
}

Result<std::unique_ptr<ParquetReader>> ParquetReader::Make(std::shared_ptr<const ParquetFile> file, ReadOptions options) {
  auto r = std::make_unique<ParquetReader>();
  r->projection_ = options.projection ? *options.projection : file->schema();
  r->filter_ = std::move(options.row_group_filter);
  r->column_threads_ = options.column_threads;
  r->file_ = std::move(file);
  return r;
}

Result<std::optional<ColumnBatch>> ParquetReader::Next() {
  while (next_ < file_->num_row_groups()) {
    int index = next_++;
    if (filter_) {
      FLOE_ASSIGN_OR_RETURN(RowGroupStatistics stats, file_->Statistics(index, projection_));
      if (!filter_(stats)) {
        ++skipped_;
        continue;
      }
    }
    FLOE_ASSIGN_OR_RETURN(ColumnBatch batch, file_->ReadRowGroup(index, projection_, column_threads_));
    return std::optional<ColumnBatch>(std::move(batch));
  }
  return std::optional<ColumnBatch>();
}

Result<ColumnBatch> ReadParquetFile(std::shared_ptr<const ParquetFile> file, const ReadOptions& options) {
  FLOE_ASSIGN_OR_RETURN(auto reader, ParquetReader::Make(file, options));
  ColumnBatch all(reader->projection());
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch) break;
    if (all.num_rows == 0) {
      all = std::move(*batch);
    } else {
      AppendBatch(&all, *batch);
    }
  }
  return all;
}

}  // namespace floe::parquet
