// Row lineage's metadata columns (format 3): `_row_id`, a row's table-wide identity, and
// `_last_updated_sequence_number`, the sequence number of the commit that last changed it.
//
// A data file may store either column; a null (or a column the file lacks) is inherited on read:
// `_row_id` from the file's first_row_id plus the row's position in the file, and
// `_last_updated_sequence_number` from the file's data sequence number. A writer that moves a
// row to a new file (copy-on-write, compaction) stores the row's values so that it keeps them.
#pragma once

#include <string_view>
#include <vector>

#include "types/column_batch.h"
#include "types/schema.h"
#include "types/type.h"

namespace floe {

// Iceberg's reserved field ids (the spec's metadata columns table).
inline constexpr int kRowIdFieldId = 2147483540;
inline constexpr int kLastUpdatedSequenceNumberFieldId = 2147483539;
inline constexpr std::string_view kRowIdColumn = "_row_id";
inline constexpr std::string_view kLastUpdatedSequenceNumberColumn = "_last_updated_sequence_number";

// The column's field (optional long), or null when `name` names neither column.
const NestedField* RowLineageField(std::string_view name);
bool IsRowLineageField(int field_id);
// Both fields, _row_id first.
const std::vector<NestedField>& RowLineageFields();

// `schema` with both fields after its own: what a writer that moves rows reads them with.
Schema WithRowLineage(const Schema& schema);
// Rows a write changed (`modified[r]` set) get a null `_last_updated_sequence_number`, so that
// they inherit the sequence number of the commit that changed them; their `_row_id` stays.
// Does nothing when `rows` lacks the column.
void MarkRowsModified(ColumnBatch& rows, const std::vector<uint8_t>& modified);

}  // namespace floe
