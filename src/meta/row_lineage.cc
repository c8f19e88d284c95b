#include "meta/row_lineage.h"

namespace floe {

const std::vector<NestedField>& RowLineageFields() {
  static const std::vector<NestedField> fields = [] {
    std::vector<NestedField> out(2);
    out[0].id = kRowIdFieldId;
    out[0].name = std::string(kRowIdColumn);
    out[0].type = Type::Long();
    out[1].id = kLastUpdatedSequenceNumberFieldId;
    out[1].name = std::string(kLastUpdatedSequenceNumberColumn);
    out[1].type = Type::Long();
    return out;
  }();
  return fields;
}

const NestedField* RowLineageField(std::string_view name) {
  for (const NestedField& f : RowLineageFields())
    if (f.name == name) return &f;
  return nullptr;
}

bool IsRowLineageField(int field_id) {
  return field_id == kRowIdFieldId || field_id == kLastUpdatedSequenceNumberFieldId;
}

Schema WithRowLineage(const Schema& schema) {
  std::vector<NestedField> fields = schema.fields();
  for (const NestedField& f : RowLineageFields())
    if (!schema.FindField(f.id)) fields.push_back(f);
  return Schema(schema.schema_id(), std::move(fields), schema.identifier_field_ids());
}

void MarkRowsModified(ColumnBatch& rows, const std::vector<uint8_t>& modified) {
  const int index = rows.ColumnIndexById(kLastUpdatedSequenceNumberFieldId);
  if (index < 0) return;
  Column& column = rows.columns[index];
  if (column.nulls.empty()) column.nulls.assign(column.length, 0);
  for (size_t r = 0; r < column.length && r < modified.size(); ++r)
    if (modified[r]) column.nulls[r] = 1;
}

}  // namespace floe
