#include "parquet/describe.h"

namespace floe::parquet {

namespace {

std::string LogicalTypeText(const SchemaElement& e) {
  const LogicalType& lt = e.logical_type;
  auto unit = [&] { return lt.unit == LogicalType::kMillis ? "MILLIS" : lt.unit == LogicalType::kNanos ? "NANOS" : "MICROS"; };
  switch (lt.kind) {
    case LogicalType::kNone: break;
    case LogicalType::kString: return "STRING";
    case LogicalType::kMap: return "MAP";
    case LogicalType::kList: return "LIST";
    case LogicalType::kEnum: return "ENUM";
    case LogicalType::kDecimal: return "DECIMAL(" + std::to_string(lt.precision) + "," + std::to_string(lt.scale) + ")";
    case LogicalType::kDate: return "DATE";
    case LogicalType::kTime: return std::string("TIME(") + unit() + "," + (lt.adjusted_to_utc ? "true" : "false") + ")";
    case LogicalType::kTimestamp: return std::string("TIMESTAMP(") + unit() + "," + (lt.adjusted_to_utc ? "true" : "false") + ")";
    case LogicalType::kInteger: return "INTEGER(" + std::to_string(lt.bit_width) + "," + (lt.is_signed ? "true" : "false") + ")";
    case LogicalType::kUnknown: return "UNKNOWN";
    case LogicalType::kJson: return "JSON";
    case LogicalType::kBson: return "BSON";
    case LogicalType::kUuid: return "UUID";
    case LogicalType::kFloat16: return "FLOAT16";
    default: return "LOGICAL_" + std::to_string(lt.kind);
  }
  return "";
}

const char* RepetitionText(const std::optional<int32_t>& r) {
  if (!r) return "";
  switch (*r) {
    case repetition::kRequired: return "REQUIRED";
    case repetition::kOptional: return "OPTIONAL";
    case repetition::kRepeated: return "REPEATED";
  }
  return "?";
}

void DescribeNode(const SchemaNode& node, const std::string& prefix, nlohmann::json* out) {
  for (const auto& c : node.children) {
    std::string path = prefix.empty() ? c.element.name : prefix + "." + c.element.name;
    nlohmann::json j;
    j["name"] = c.element.name;
    j["path"] = path;
    if (c.element.field_id) j["field_id"] = *c.element.field_id;
    j["repetition"] = RepetitionText(c.element.repetition_type);
    if (c.is_leaf()) {
      j["physical_type"] = PhysicalTypeName(*c.element.type);
      if (c.element.type_length) j["type_length"] = *c.element.type_length;
    } else {
      j["num_children"] = c.children.size();
    }
    std::string lt = LogicalTypeText(c.element);
    if (!lt.empty()) j["logical_type"] = lt;
    if (c.element.converted_type) j["converted_type"] = *c.element.converted_type;
    auto t = IcebergTypeOf(c);
    j["iceberg_type"] = t ? (*t)->ToString() : "(" + t.error().message + ")";
    out->push_back(j);
    if (!c.is_leaf()) DescribeNode(c, path, out);
  }
}

nlohmann::json FieldsJson(const std::vector<NestedField>& fields) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : fields) {
    nlohmann::json j = {{"id", f.id}, {"name", f.name}, {"required", f.required}, {"type", f.type->ToString()}};
    if (f.type->id() == TypeId::kStruct) j["fields"] = FieldsJson(f.type->fields());
    out.push_back(j);
  }
  return out;
}

}  // namespace

nlohmann::json DescribeParquetFile(const ParquetFile& file) {
  const FileMetaData& m = file.metadata();
  nlohmann::json j;
  j["file"] = file.name();
  j["num_rows"] = m.num_rows;
  j["file_size"] = file.file_size();
  j["version"] = m.version;
  if (m.created_by) j["created_by"] = *m.created_by;
  nlohmann::json kv = nlohmann::json::object();
  for (const auto& e : m.key_value_metadata) kv[e.key] = e.value ? nlohmann::json(*e.value) : nlohmann::json();
  j["key_value_metadata"] = kv;
  nlohmann::json schema = nlohmann::json::array();
  DescribeNode(file.file_schema().root, "", &schema);
  j["schema"] = schema;
  j["iceberg_schema"] = FieldsJson(file.schema().fields());

  // Leaf index -> Iceberg field of the inferred schema (for typed bounds).
  const Schema& ischema = file.schema();
  nlohmann::json groups = nlohmann::json::array();
  for (int g = 0; g < file.num_row_groups(); ++g) {
    const RowGroup& rg = m.row_groups[g];
    nlohmann::json gj;
    gj["index"] = g;
    gj["num_rows"] = rg.num_rows;
    gj["total_byte_size"] = rg.total_byte_size;
    if (rg.file_offset) gj["file_offset"] = *rg.file_offset;
    if (rg.total_compressed_size) gj["compressed_size"] = *rg.total_compressed_size;
    auto stats = file.Statistics(g, ischema);
    nlohmann::json cols = nlohmann::json::array();
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      const ColumnMetaData& md = *rg.columns[c].meta_data;
      const LeafDescriptor& leaf = file.file_schema().leaves[c];
      nlohmann::json cj;
      std::string path;
      for (const auto& p : leaf.path) path += (path.empty() ? "" : ".") + p;
      cj["path"] = path;
      if (leaf.element.field_id) cj["field_id"] = *leaf.element.field_id;
      cj["physical_type"] = PhysicalTypeName(md.type);
      cj["codec"] = CodecName(md.codec);
      nlohmann::json encs = nlohmann::json::array();
      for (int32_t e : md.encodings) encs.push_back(EncodingName(e));
      cj["encodings"] = encs;
      cj["num_values"] = md.num_values;
      cj["compressed_size"] = md.total_compressed_size;
      cj["uncompressed_size"] = md.total_uncompressed_size;
      cj["data_page_offset"] = md.data_page_offset;
      if (md.dictionary_page_offset) cj["dictionary_page_offset"] = *md.dictionary_page_offset;
      if (md.statistics && md.statistics->null_count) cj["null_count"] = *md.statistics->null_count;
      const NestedField* f = leaf.element.field_id ? ischema.FindField(*leaf.element.field_id) : ischema.FindField(path);
      if (stats && f) {
        auto it = stats->columns.find(f->id);
        if (it != stats->columns.end() && !it->second.min.is_null()) {
          cj["min"] = it->second.min.ToJson();
          cj["max"] = it->second.max.ToJson();
        }
      }
      cols.push_back(cj);
    }
    gj["columns"] = cols;
    groups.push_back(gj);
  }
  j["row_groups"] = groups;
  return j;
}

Result<nlohmann::json> DescribeParquetBytes(std::string_view bytes, const std::string& name) {
  FLOE_ASSIGN_OR_RETURN(auto file, ParquetFile::Open(std::make_shared<BufferSource>(bytes, name)));
  try {
    return DescribeParquetFile(*file);
  } catch (const std::exception& e) {
    return Corrupt(name + ": cannot describe: " + e.what());
  }
}

}  // namespace floe::parquet
