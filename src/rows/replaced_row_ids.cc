#include "rows/replaced_row_ids.h"

#include "meta/row_lineage.h"
#include "rows/key_validation.h"

namespace floe {

void ReplacedRowIds::Collect(const ColumnBatch& rows, const std::vector<int>& key_columns,
                             const std::vector<uint8_t>& replaced) {
  const int id_index = rows.ColumnIndexById(kRowIdFieldId);
  if (id_index < 0) return;
  const Column& ids = rows.columns[id_index];
  for (size_t r = 0; r < rows.num_rows && r < replaced.size(); ++r) {
    // Reading fills every row's id (stored or inherited); a null would be a row of a file
    // without first_row_id, which a v3 table does not have: such a row simply gets a new id.
    if (!replaced[r] || ids.IsNull(r)) continue;
    ids_[KeyOfRow(rows, key_columns, r)] = ids.longs[r];
  }
}

ColumnBatch ReplacedRowIds::Stamp(const ColumnBatch& input, const std::vector<int>& input_key_columns) const {
  ColumnBatch out;
  for (size_t c = 0; c < input.fields.size(); ++c) {
    if (IsRowLineageField(input.fields[c].id)) continue;
    out.fields.push_back(input.fields[c]);
    out.columns.push_back(input.columns[c]);
  }
  out.num_rows = input.num_rows;
  const std::vector<NestedField>& lineage = RowLineageFields();
  Column row_id(lineage[0].type), sequence(lineage[1].type);
  row_id.length = sequence.length = input.num_rows;
  row_id.longs.assign(input.num_rows, 0);
  row_id.nulls.assign(input.num_rows, 1);
  sequence.longs.assign(input.num_rows, 0);
  sequence.nulls.assign(input.num_rows, 1);
  for (size_t r = 0; r < input.num_rows; ++r) {
    auto it = ids_.find(KeyOfRow(input, input_key_columns, r));
    if (it == ids_.end()) continue;
    row_id.longs[r] = it->second;
    row_id.nulls[r] = 0;
  }
  out.fields.push_back(lineage[0]);
  out.columns.push_back(std::move(row_id));
  out.fields.push_back(lineage[1]);
  out.columns.push_back(std::move(sequence));
  return out;
}

}  // namespace floe
