#include "parquet/row_group_stream.h"

#include <algorithm>
#include <cstring>

#include "parquet/batch_append.h"

namespace floe::parquet {

namespace {
// The number of 1 bytes among n bytes that are each 0 or 1 (eight at a time: a word of
// such bytes has as many set bits as 1 bytes).
size_t CountOnes(const uint8_t* p, size_t n) {
  size_t count = 0, i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    count += static_cast<size_t>(__builtin_popcountll(w));
  }
  for (; i < n; ++i) count += p[i];
  return count;
}
}  // namespace

bool RowGroupStream::CanStream(const Schema& projection) {
  return std::all_of(projection.fields().begin(), projection.fields().end(),
                     [](const NestedField& f) {
                       // A variant is one value in Iceberg but a metadata + value group in the
                       // file: it is read whole (ParquetFile::ReadVariant), never by a cursor.
                       return f.type->is_primitive() && f.type->id() != TypeId::kVariant;
                     });
}

Result<std::unique_ptr<RowGroupStream>> RowGroupStream::Open(std::shared_ptr<const ParquetFile> file, int rg,
                                                             const Schema& projection, StreamOptions options) {
  const std::string& name = file->name();
  if (rg < 0 || rg >= file->num_row_groups()) return InvalidArgument(name + ": no row group " + std::to_string(rg));
  if (!CanStream(projection)) return NotSupported(name + ": only primitive columns can be streamed; read structs whole");
  size_t rows = static_cast<size_t>(file->metadata().row_groups[rg].num_rows);
  size_t begin = static_cast<size_t>(std::max<int64_t>(options.row_begin, 0));
  size_t end = options.row_end < 0 ? rows : std::min(rows, static_cast<size_t>(options.row_end));
  if (begin > end) return InvalidArgument(name + ": row range begins after it ends");

  std::unique_ptr<RowGroupStream> s(new RowGroupStream());
  s->projection_ = projection;
  s->batch_rows_ = std::max<size_t>(options.batch_rows, 1);
  s->pos_ = begin;
  s->end_ = end;

  // The file's leaf for a top-level primitive field; null when the file lacks it.
  auto leaf_of = [&](const NestedField& f) -> Result<const SchemaNode*> {
    const SchemaNode* node = file->Match(file->file_schema().root, f);
    if (node && !node->is_leaf())
      return InvalidArgument(name + ": column '" + f.name + "' is a group in the file, not a " + f.type->ToString());
    return node;
  };
  std::vector<NestedField> read = projection.fields();
  if (options.predicate) read.push_back(options.predicate->field);
  FLOE_RETURN_IF_ERROR(file->WillReadFields(rg, read));
  for (const NestedField& f : projection.fields()) {
    FLOE_ASSIGN_OR_RETURN(const SchemaNode* node, leaf_of(f));
    std::unique_ptr<ColumnCursor> cursor;
    if (node) {
      FLOE_ASSIGN_OR_RETURN(ColumnChunkInput in, file->ChunkInput(rg, node->leaf_index));
      FLOE_ASSIGN_OR_RETURN(cursor, ColumnCursor::Open(std::move(in), f.type));
      cursor->Skip(begin);
    }
    s->columns_.push_back(std::move(cursor));
  }
  if (options.predicate) {
    const ValuePredicate& p = *options.predicate;
    s->has_predicate_ = true;
    if (!PushdownType(*p.field.type))
      return NotSupported(name + ": cannot evaluate a value predicate on column '" + p.field.name + "' of type " +
                          p.field.type->ToString());
    FLOE_ASSIGN_OR_RETURN(Column values, PredicateValues(p));
    FLOE_ASSIGN_OR_RETURN(const SchemaNode* node, leaf_of(p.field));
    if (!node || values.length == 0) {
      s->nothing_matches_ = true;
    } else {
      FLOE_ASSIGN_OR_RETURN(ColumnChunkInput in, file->ChunkInput(rg, node->leaf_index));
      FLOE_ASSIGN_OR_RETURN(s->matcher_, ColumnCursor::Open(std::move(in), p.field.type, &values));
      s->matcher_->Skip(begin);
    }
  }
  s->file_ = std::move(file);
  return s;
}

Result<bool> RowGroupStream::Next(ColumnBatch* batch, std::vector<int64_t>* row_numbers) {
  if (batch->columns.size() != projection_.fields().size()) *batch = ColumnBatch(projection_);
  for (Column& c : batch->columns) ClearColumn(&c);
  batch->num_rows = 0;
  if (row_numbers) row_numbers->clear();
  if (nothing_matches_) pos_ = end_;
  while (pos_ < end_) {
    size_t n = std::min(batch_rows_, end_ - pos_);
    const uint8_t* sel = nullptr;
    size_t selected = n;
    if (has_predicate_) {
      match_.resize(n);
      FLOE_RETURN_IF_ERROR(matcher_->Match(n, match_.data()));
      selected = CountOnes(match_.data(), n);
      sel = selected == n ? nullptr : match_.data();
    }
    if (selected == 0) {
      for (auto& c : columns_)
        if (c) c->Skip(n);
      pos_ += n;
      continue;
    }
    for (size_t i = 0; i < columns_.size(); ++i) {
      if (columns_[i]) {
        FLOE_RETURN_IF_ERROR(columns_[i]->Read(n, sel, &batch->columns[i]));
      } else {
        for (size_t r = 0; r < selected; ++r) batch->columns[i].AppendNull();
      }
    }
    if (row_numbers)
      for (size_t r = 0; r < n; ++r)
        if (!sel || sel[r]) row_numbers->push_back(static_cast<int64_t>(pos_ + r));
    pos_ += n;
    batch->num_rows = selected;
    return true;
  }
  return false;
}

Result<ColumnBatch> ReadRowGroupWhere(std::shared_ptr<const ParquetFile> file, int rg, const Schema& projection,
                                      const ValuePredicate& predicate) {
  StreamOptions options;
  options.predicate = predicate;
  FLOE_ASSIGN_OR_RETURN(auto stream, RowGroupStream::Open(std::move(file), rg, projection, std::move(options)));
  ColumnBatch all(projection), batch(projection);
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, stream->Next(&batch));
    if (!more) return all;
    AppendBatch(&all, batch);
  }
}

}  // namespace floe::parquet
