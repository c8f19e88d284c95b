#include "write/equality_delete_writer.h"

#include "write/delete_file_output.h"

namespace floe {

Result<std::vector<int>> ResolveEqualityIds(const Schema& schema, const std::vector<std::string>& columns) {
  std::vector<int> ids;
  if (columns.empty()) {
    if (schema.identifier_field_ids().empty())
      return InvalidArgument("no key columns given and the table has no identifier fields");
    ids = schema.identifier_field_ids();
  } else {
    for (const auto& name : columns) {
      const NestedField* f = schema.FindField(name);
      if (!f) return InvalidArgument("key column '" + name + "' is not in the table");
      ids.push_back(f->id);
    }
  }
  for (int id : ids) {
    bool top = false;
    for (const auto& f : schema.fields()) top |= f.id == id;
    if (!top) return InvalidArgument("key column '" + schema.FindColumnName(id) + "' must be a top-level column");
    const NestedField* f = schema.FindField(id);
    if (!f->type->is_primitive()) return InvalidArgument("key column '" + f->name + "' must have a primitive type");
  }
  return ids;
}

EqualityDeleteWriter::EqualityDeleteWriter(FileIO& io, const TableMetadata& table, std::vector<int> equality_ids,
                                           FileNamer* names, std::vector<int> spec_ids)
    : io_(io), table_(table), names_(names), equality_ids_(std::move(equality_ids)) {
  std::vector<NestedField> fields;
  for (int id : equality_ids_) {
    const NestedField* f = table.CurrentSchema().FindField(id);
    if (!f) {
      init_error_ = InvalidArgument("equality delete: field id " + std::to_string(id) + " is not in the table");
      continue;
    }
    fields.push_back(*f);
  }
  delete_schema_ = Schema(table.current_schema_id, fields);
  if (spec_ids.empty()) spec_ids.push_back(table.default_spec_id);
  for (int spec_id : spec_ids) {
    const PartitionSpec* spec = table.SpecById(spec_id);
    if (!spec) {
      init_error_ = InvalidArgument("equality delete: partition spec " + std::to_string(spec_id) + " is not in the table");
      continue;
    }
    specs_.push_back(spec);
  }
}

Status EqualityDeleteWriter::Delete(const ColumnBatch& rows) {
  FLOE_RETURN_IF_ERROR(init_error_);
  if (rows.num_rows == 0) return Ok();
  std::vector<int> key_columns;
  for (int id : equality_ids_) {
    int index = rows.ColumnIndexById(id);
    if (index < 0) return InvalidArgument("equality delete rows lack key column '" + table_.CurrentSchema().FindColumnName(id) + "'");
    key_columns.push_back(index);
  }
  for (const PartitionSpec* spec : specs_) {
    FLOE_RETURN_IF_ERROR(spec->CheckWritable());  // its tuples could not be computed
    // A void field's value is null whatever its source holds (the source may even be dropped).
    std::vector<int> source_columns;
    for (const auto& pf : spec->fields()) {
      int index = pf.transform.kind() == TransformKind::kVoid ? -1 : rows.ColumnIndexById(pf.source_id);
      if (index < 0 && pf.transform.kind() != TransformKind::kVoid)
        return InvalidArgument("equality delete rows lack partition source column '" +
                               table_.CurrentSchema().FindColumnName(pf.source_id) + "' of partition spec " +
                               std::to_string(spec->spec_id()));
      source_columns.push_back(index);
    }
    for (size_t r = 0; r < rows.num_rows; ++r) {
      std::vector<Literal> partition;
      std::string key = std::to_string(spec->spec_id());
      for (size_t p = 0; p < spec->fields().size(); ++p) {
        const PartitionField& field = spec->fields()[p];
        Literal v;
        if (source_columns[p] >= 0) {
          FLOE_ASSIGN_OR_RETURN(v, field.transform.Apply(rows.columns[source_columns[p]].Get(r)));
        } else {  // void: null of the source's type (any type once the source column is dropped)
          const NestedField* source = table_.CurrentSchema().FindField(field.source_id);
          v = Literal::Null(source ? source->type : Type::Int());
        }
        if (v.is_null()) {
          key += "|\x01";
        } else {
          FLOE_ASSIGN_OR_RETURN(std::string bytes, v.ToBinary());
          key += "|\x02" + std::to_string(bytes.size()) + ":" + bytes;
        }
        partition.push_back(std::move(v));
      }
      auto [it, inserted] = groups_.try_emplace(key);
      if (inserted) {
        it->second.spec_id = spec->spec_id();
        it->second.partition = std::move(partition);
        it->second.rows = ColumnBatch(delete_schema_);
      }
      std::vector<Literal> values;
      for (int c : key_columns) values.push_back(rows.columns[c].Get(r));
      FLOE_RETURN_IF_ERROR(it->second.rows.AppendRow(values));
    }
  }
  return Ok();
}

Result<std::vector<DataFile>> EqualityDeleteWriter::Finish() {
  FLOE_RETURN_IF_ERROR(init_error_);
  std::vector<DataFile> out;
  for (auto& [key, g] : groups_) {
    if (g.rows.num_rows == 0) continue;
    DeleteFileSpec spec;
    spec.content = FileContent::kEqualityDeletes;
    spec.spec_id = g.spec_id;
    spec.partition = g.partition;
    spec.equality_ids = equality_ids_;
    spec.properties = table_.properties;
    spec.names = names_;
    FLOE_ASSIGN_OR_RETURN(DataFile f, WriteDeleteFile(io_, table_, delete_schema_, g.rows, spec));
    written_.push_back(f.file_path);
    out.push_back(std::move(f));
  }
  groups_.clear();
  return out;
}

void EqualityDeleteWriter::Abort() {
  for (const auto& path : written_) (void)io_.Delete(path);
  written_.clear();
  groups_.clear();
}

}  // namespace floe
