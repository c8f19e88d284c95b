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

}  // namespace floe
