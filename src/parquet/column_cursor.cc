#include "parquet/column_cursor.h"

#include <algorithm>
#include <cstring>

#include "parquet/batch_append.h"

namespace floe::parquet {

Result<std::unique_ptr<ColumnCursor>> ColumnCursor::Open(ColumnChunkInput input, const TypePtr& target,
                                                         const Column* predicate) {
  FLOE_ASSIGN_OR_RETURN(auto decoder, ColumnChunkDecoder::Make(std::move(input), target));
  if (predicate) FLOE_RETURN_IF_ERROR(decoder->SetPredicate(*predicate));
  return std::unique_ptr<ColumnCursor>(new ColumnCursor(std::move(decoder), predicate != nullptr, target));
}

Status ColumnCursor::NextPage() {
  FLOE_ASSIGN_OR_RETURN(bool more, decoder_->PeekPage());
  // The row group's row count bounds every caller, and each chunk was checked to hold
  // that many values: running out means the pages lied about their counts.
  if (!more) return Corrupt("column chunk has fewer rows in its pages than the row group");
  size_t rows = decoder_->page_rows();
  if (rows <= skip_) {
    skip_ -= rows;
    return decoder_->SkipPage();
  }
  if (matching_) {
    if (decoder_->PageCannotMatch()) {
      FLOE_RETURN_IF_ERROR(decoder_->SkipPage());
      page_match_.assign(rows, 0);
    } else {
      FLOE_RETURN_IF_ERROR(decoder_->MatchPage(&page_match_));
    }
  } else {
    ClearColumn(&page_);
    FLOE_RETURN_IF_ERROR(decoder_->ReadPageOrIds(&page_, &page_ids_, &page_as_ids_));
  }
  page_rows_ = rows;
  page_pos_ = std::min(skip_, rows);
  skip_ -= page_pos_;
  return Ok();
}

Status ColumnCursor::Settle() {
  while (skip_ > 0 && page_pos_ < page_rows_) {
    size_t k = std::min(skip_, page_rows_ - page_pos_);
    page_pos_ += k;
    skip_ -= k;
  }
  while (page_pos_ == page_rows_) FLOE_RETURN_IF_ERROR(NextPage());
  return Ok();
}

Status ColumnCursor::Read(size_t n, const uint8_t* sel, Column* out) {
  if (matching_) return InvalidArgument("ColumnCursor::Read on a predicate cursor");
  while (n > 0) {
    FLOE_RETURN_IF_ERROR(Settle());
    size_t k = std::min(n, page_rows_ - page_pos_);
    if (page_as_ids_) {
      decoder_->AppendDictionaryValues(page_ids_.data() + page_pos_, k, sel, out);
    } else {
      AppendSelected(page_, page_pos_, k, sel, out);
    }
    page_pos_ += k;
    n -= k;
    if (sel) sel += k;
  }
  return Ok();
}

Status ColumnCursor::Match(size_t n, uint8_t* match) {
  if (!matching_) return InvalidArgument("ColumnCursor::Match on a cursor without a predicate");
  while (n > 0) {
    FLOE_RETURN_IF_ERROR(Settle());
    size_t k = std::min(n, page_rows_ - page_pos_);
    std::memcpy(match, page_match_.data() + page_pos_, k);
    page_pos_ += k;
    n -= k;
    match += k;
  }
  return Ok();
}

}  // namespace floe::parquet
