#include "parquet/parquet_format.h"

#include "parquet/thrift_compact.h"

namespace floe::parquet {

std::string EncodingName(int32_t e) {
  switch (e) {
    case encoding::kPlain: return "PLAIN";
    case encoding::kPlainDictionary: return "PLAIN_DICTIONARY";
    case encoding::kRle: return "RLE";
    case encoding::kBitPacked: return "BIT_PACKED";
    case encoding::kDeltaBinaryPacked: return "DELTA_BINARY_PACKED";
    case encoding::kDeltaLengthByteArray: return "DELTA_LENGTH_BYTE_ARRAY";
    case encoding::kDeltaByteArray: return "DELTA_BYTE_ARRAY";
    case encoding::kRleDictionary: return "RLE_DICTIONARY";
    case encoding::kByteStreamSplit: return "BYTE_STREAM_SPLIT";
  }
  return "ENCODING_" + std::to_string(e);
}

std::string CodecName(int32_t c) {
  switch (c) {
    case codec::kUncompressed: return "UNCOMPRESSED";
    case codec::kSnappy: return "SNAPPY";
    case codec::kGzip: return "GZIP";
    case codec::kLzo: return "LZO";
    case codec::kBrotli: return "BROTLI";
    case codec::kLz4: return "LZ4";
    case codec::kZstd: return "ZSTD";
    case codec::kLz4Raw: return "LZ4_RAW";
  }
  return "CODEC_" + std::to_string(c);
}

std::string PhysicalTypeName(int32_t t) {
  static const char* kNames[] = {"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  if (t >= 0 && t < 8) return kNames[t];
  return "TYPE_" + std::to_string(t);
}

namespace {

using T = ThriftType;

std::unexpected<Error> WrongType(const char* what) { return Corrupt(std::string("parquet footer: wrong wire type for ") + what); }

// Reads a struct, handing each field to on_field(header) -> Result<bool handled>; fields
// not handled are skipped.
template <typename F>
Status ReadStruct(ThriftReader& r, F&& on_field) {
  FLOE_RETURN_IF_ERROR(r.BeginStruct());
  while (true) {
    auto h = r.ReadFieldHeader();
    if (!h) { r.EndStruct(); return std::unexpected(h.error()); }
    if (h->type == T::kStop) break;
    Result<bool> handled = on_field(*h);
    if (!handled) { r.EndStruct(); return std::unexpected(handled.error()); }
    if (!*handled) {
      Status s = r.Skip(h->type);
      if (!s) { r.EndStruct(); return s; }
    }
  }
  r.EndStruct();
  return Ok();
}

bool IsInt(T t) { return t == T::kI32 || t == T::kI16 || t == T::kByte || t == T::kI64; }

Result<int32_t> I32(ThriftReader& r, const ThriftFieldHeader& h, const char* what) {
  if (h.type == T::kByte) { FLOE_ASSIGN_OR_RETURN(int8_t v, r.ReadByte()); return v; }
  if (!IsInt(h.type)) return WrongType(what);
  return r.ReadI32();
}
Result<int64_t> I64(ThriftReader& r, const ThriftFieldHeader& h, const char* what) {
  if (h.type == T::kByte) { FLOE_ASSIGN_OR_RETURN(int8_t v, r.ReadByte()); return v; }
  if (!IsInt(h.type)) return WrongType(what);
  return r.ReadI64();
}
Result<std::string> Str(ThriftReader& r, const ThriftFieldHeader& h, const char* what) {
  if (h.type != T::kBinary) return WrongType(what);
  FLOE_ASSIGN_OR_RETURN(std::string_view v, r.ReadBinary());
  return std::string(v);
}
Result<bool> Bool(ThriftReader& r, const ThriftFieldHeader& h, const char* what) {
  if (h.type != T::kBoolTrue && h.type != T::kBoolFalse) return WrongType(what);
  return r.ReadBool(h.type);
}

// Reads a list whose elements are read by read_element(reader, element_type).
template <typename F>
Status ReadList(ThriftReader& r, const ThriftFieldHeader& h, const char* what, F&& read_element) {
  if (h.type != T::kList && h.type != T::kSet) return WrongType(what);
  FLOE_ASSIGN_OR_RETURN(ThriftListHeader lh, r.ReadListHeader());
  for (uint32_t i = 0; i < lh.size; ++i) FLOE_RETURN_IF_ERROR(read_element(lh.element_type));
  return Ok();
}

Status ReadTimeUnit(ThriftReader& r, int16_t* unit) {
  return ReadStruct(r, [&](const ThriftFieldHeader& h) -> Result<bool> {
    if (h.id >= 1 && h.id <= 3 && h.type == T::kStruct) *unit = h.id;
    return false;  // the member is an empty struct: skip it
  });
}

Status ReadLogicalType(ThriftReader& r, LogicalType* lt) {
  return ReadStruct(r, [&](const ThriftFieldHeader& h) -> Result<bool> {
    if (h.type != T::kStruct) return false;
    lt->kind = h.id;
    switch (h.id) {
      case LogicalType::kDecimal:
        FLOE_RETURN_IF_ERROR(ReadStruct(r, [&](const ThriftFieldHeader& f) -> Result<bool> {
          if (f.id == 1) { FLOE_ASSIGN_OR_RETURN(lt->scale, I32(r, f, "DecimalType.scale")); return true; }
          if (f.id == 2) { FLOE_ASSIGN_OR_RETURN(lt->precision, I32(r, f, "DecimalType.precision")); return true; }
          return false;
        }));
        return true;
      case LogicalType::kTime:
      case LogicalType::kTimestamp:
        FLOE_RETURN_IF_ERROR(ReadStruct(r, [&](const ThriftFieldHeader& f) -> Result<bool> {
          if (f.id == 1) { FLOE_ASSIGN_OR_RETURN(lt->adjusted_to_utc, Bool(r, f, "isAdjustedToUTC")); return true; }
          if (f.id == 2 && f.type == T::kStruct) { FLOE_RETURN_IF_ERROR(ReadTimeUnit(r, &lt->unit)); return true; }
          return false;
        }));
        return true;
      case LogicalType::kInteger:
        FLOE_RETURN_IF_ERROR(ReadStruct(r, [&](const ThriftFieldHeader& f) -> Result<bool> {
          if (f.id == 1) { FLOE_ASSIGN_OR_RETURN(int32_t w, I32(r, f, "IntType.bitWidth")); lt->bit_width = static_cast<int8_t>(w); return true; }
          if (f.id == 2) { FLOE_ASSIGN_OR_RETURN(lt->is_signed, Bool(r, f, "IntType.isSigned")); return true; }
          return false;
        }));
        return true;
      case LogicalType::kGeometry:
      case LogicalType::kGeography:
        FLOE_RETURN_IF_ERROR(ReadStruct(r, [&](const ThriftFieldHeader& f) -> Result<bool> {
          if (f.id == 1) { FLOE_ASSIGN_OR_RETURN(lt->crs, Str(r, f, "GeometryType.crs")); return true; }
          if (f.id == 2 && h.id == LogicalType::kGeography) { FLOE_ASSIGN_OR_RETURN(lt->algorithm, I32(r, f, "GeographyType.algorithm")); return true; }
          return false;
        }));
        return true;
      default:
        return false;  // members without fields (or unknown ones): skip
    }
  });
}

Status ReadSchemaElement(ThriftReader& r, SchemaElement* e) {
  bool has_name = false;
  FLOE_RETURN_IF_ERROR(ReadStruct(r, [&](const ThriftFieldHeader& h) -> Result<bool> {
    switch (h.id) {
      case 1: { FLOE_ASSIGN_OR_RETURN(e->type, I32(r, h, "SchemaElement.type")); return true; }
      case 2: { FLOE_ASSIGN_OR_RETURN(e->type_length, I32(r, h, "SchemaElement.type_length")); return true; }
      case 3: { FLOE_ASSIGN_OR_RETURN(e->repetition_type, I32(r, h, "SchemaElement.repetition_type")); return true; }
      case 4: { FLOE_ASSIGN_OR_RETURN(e->name, Str(r, h, "SchemaElement.name")); has_name = true; return true; }
      case 5: { FLOE_ASSIGN_OR_RETURN(e->num_children, I32(r, h, "SchemaElement.num_children")); return true; }
      case 6: { FLOE_ASSIGN_OR_RETURN(e->converted_type, I32(r, h, "SchemaElement.converted_type")); return true; }
      case 7: { FLOE_ASSIGN_OR_RETURN(e->scale, I32(r, h, "SchemaElement.scale")); return true; }
      case 8: { FLOE_ASSIGN_OR_RETURN(e->precision, I32(r, h, "SchemaElement.precision")); return true; }
      case 9: { FLOE_ASSIGN_OR_RETURN(e->field_id, I32(r, h, "SchemaElement.field_id")); return true; }
      case 10:
        if (h.type != T::kStruct) return WrongType("SchemaElement.logicalType");
        FLOE_RETURN_IF_ERROR(ReadLogicalType(r, &e->logical_type));
        return true;
    }
    return false;
  }));
  if (!has_name) return Corrupt("parquet footer: schema element without a name");
  return Ok();
}

Status ReadStatistics(ThriftReader& r, Statistics* s) {
  return ReadStruct(r, [&](const ThriftFieldHeader& h) -> Result<bool> {
    switch (h.id) {
      case 1: { FLOE_ASSIGN_OR_RETURN(s->max, Str(r, h, "Statistics.max")); return true; }
      case 2: { FLOE_ASSIGN_OR_RETURN(s->min, Str(r, h, "Statistics.min")); return true; }
      case 3: { FLOE_ASSIGN_OR_RETURN(s->null_count, I64(r, h, "Statistics.null_count")); return true; }
      case 4: { FLOE_ASSIGN_OR_RETURN(s->distinct_count, I64(r, h, "Statistics.distinct_count")); return true; }
      case 5: { FLOE_ASSIGN_OR_RETURN(s->max_value, Str(r, h, "Statistics.max_value")); return true; }
      case 6: { FLOE_ASSIGN_OR_RETURN(s->min_value, Str(r, h, "Statistics.min_value")); return true; }
    }
    return false;
  });
}

Status ReadKeyValue(ThriftReader& r, KeyValue* kv) {
  return ReadStruct(r, [&](const ThriftFieldHeader& h) -> Result<bool> {
    if (h.id == 1) { FLOE_ASSIGN_OR_RETURN(kv->key, Str(r, h, "KeyValue.key")); return true; }
    if (h.id == 2) { FLOE_ASSIGN_OR_RETURN(kv->value, Str(r, h, "KeyValue.value")); return true; }
    return false;
  });
}

Status ReadColumnMetaData(ThriftReader& r, ColumnMetaData* m) {
  uint32_t seen = 0;
  FLOE_RETURN_IF_ERROR(ReadStruct(r, [&](const ThriftFieldHeader& h) -> Result<bool> {
    if (h.id > 0 && h.id < 32) seen |= 1u << h.id;
    switch (h.id) {
      case 1: { FLOE_ASSIGN_OR_RETURN(m->type, I32(r, h, "ColumnMetaData.type")); return true; }
      case 2:
        FLOE_RETURN_IF_ERROR(ReadList(r, h, "ColumnMetaData.encodings", [&](T et) -> Status {
          if (!IsInt(et)) return WrongType("encoding");
          FLOE_ASSIGN_OR_RETURN(int32_t e, r.ReadI32());
          m->encodings.push_back(e);
          return Ok();
        }));
        return true;
      case 3:
        FLOE_RETURN_IF_ERROR(ReadList(r, h, "ColumnMetaData.path_in_schema", [&](T et) -> Status {
          if (et != T::kBinary) return WrongType("path_in_schema");
          FLOE_ASSIGN_OR_RETURN(std::string_view p, r.ReadBinary());
          m->path_in_schema.emplace_back(p);
          return Ok();
        }));
        return true;
      case 4: { FLOE_ASSIGN_OR_RETURN(m->codec, I32(r, h, "ColumnMetaData.codec")); return true; }
      case 5: { FLOE_ASSIGN_OR_RETURN(m->num_values, I64(r, h, "ColumnMetaData.num_values")); return true; }
      case 6: { FLOE_ASSIGN_OR_RETURN(m->total_uncompressed_size, I64(r, h, "total_uncompressed_size")); return true; }
      case 7: { FLOE_ASSIGN_OR_RETURN(m->total_compressed_size, I64(r, h, "total_compressed_size")); return true; }
      case 9: { FLOE_ASSIGN_OR_RETURN(m->data_page_offset, I64(r, h, "data_page_offset")); return true; }
      case 10: { FLOE_ASSIGN_OR_RETURN(m->index_page_offset, I64(r, h, "index_page_offset")); return true; }
      case 11: { FLOE_ASSIGN_OR_RETURN(m->dictionary_page_offset, I64(r, h, "dictionary_page_offset")); return true; }
      case 12:
        if (h.type != T::kStruct) return WrongType("ColumnMetaData.statistics");
        m->statistics.emplace();
        FLOE_RETURN_IF_ERROR(ReadStatistics(r, &*m->statistics));
        return true;
    }
    return false;
  }));
  constexpr uint32_t kRequired = (1u << 1) | (1u << 2) | (1u << 3) | (1u << 4) | (1u << 5) | (1u << 6) | (1u << 7) | (1u << 9);
  if ((seen & kRequired) != kRequired) return Corrupt("parquet footer: column metadata lacks a required field");
  return Ok();
}

Status ReadColumnChunk(ThriftReader& r, ColumnChunk* c) {
  return ReadStruct(r, [&](const ThriftFieldHeader& h) -> Result<bool> {
    switch (h.id) {
      case 1: { FLOE_ASSIGN_OR_RETURN(c->file_path, Str(r, h, "ColumnChunk.file_path")); return true; }
      case 2: { FLOE_ASSIGN_OR_RETURN(c->file_offset, I64(r, h, "ColumnChunk.file_offset")); return true; }
      case 3:
        if (h.type != T::kStruct) return WrongType("ColumnChunk.meta_data");
        c->meta_data.emplace();
        FLOE_RETURN_IF_ERROR(ReadColumnMetaData(r, &*c->meta_data));
        return true;
    }
    return false;
  });
}

Status ReadRowGroup(ThriftReader& r, RowGroup* g) {
  bool has_rows = false;
  FLOE_RETURN_IF_ERROR(ReadStruct(r, [&](const ThriftFieldHeader& h) -> Result<bool> {
    switch (h.id) {
      case 1:
        FLOE_RETURN_IF_ERROR(ReadList(r, h, "RowGroup.columns", [&](T et) -> Status {
          if (et != T::kStruct) return WrongType("RowGroup.columns");
          g->columns.emplace_back();
          return ReadColumnChunk(r, &g->columns.back());
        }));
        return true;
      case 2: { FLOE_ASSIGN_OR_RETURN(g->total_byte_size, I64(r, h, "RowGroup.total_byte_size")); return true; }
      case 3: { FLOE_ASSIGN_OR_RETURN(g->num_rows, I64(r, h, "RowGroup.num_rows")); has_rows = true; return true; }
      case 5: { FLOE_ASSIGN_OR_RETURN(g->file_offset, I64(r, h, "RowGroup.file_offset")); return true; }
      case 6: { FLOE_ASSIGN_OR_RETURN(g->total_compressed_size, I64(r, h, "RowGroup.total_compressed_size")); return true; }
      case 7: { FLOE_ASSIGN_OR_RETURN(int32_t o, I32(r, h, "RowGroup.ordinal")); g->ordinal = static_cast<int16_t>(o); return true; }
    }
    return false;
  }));
  if (!has_rows) return Corrupt("parquet footer: row group without num_rows");
  return Ok();
}

// ---- writing ----

void WriteStatistics(ThriftWriter& w, const Statistics& s) {
  if (s.max) w.FieldBinary(1, *s.max);
  if (s.min) w.FieldBinary(2, *s.min);
  if (s.null_count) w.FieldI64(3, *s.null_count);
  if (s.distinct_count) w.FieldI64(4, *s.distinct_count);
  if (s.max_value) w.FieldBinary(5, *s.max_value);
  if (s.min_value) w.FieldBinary(6, *s.min_value);
  w.EndStruct();
}

void WriteLogicalType(ThriftWriter& w, const LogicalType& lt) {
  w.FieldStructBegin(lt.kind);
  switch (lt.kind) {
    case LogicalType::kDecimal:
      w.FieldI32(1, lt.scale);
      w.FieldI32(2, lt.precision);
      break;
    case LogicalType::kTime:
    case LogicalType::kTimestamp:
      w.FieldBool(1, lt.adjusted_to_utc);
      w.FieldStructBegin(2);
      w.FieldStructBegin(lt.unit);
      w.EndStruct();
      w.EndStruct();
      break;
    case LogicalType::kInteger:
      w.FieldByte(1, lt.bit_width);
      w.FieldBool(2, lt.is_signed);
      break;
    case LogicalType::kGeometry:
    case LogicalType::kGeography:
      if (!lt.crs.empty()) w.FieldBinary(1, lt.crs);
      if (lt.kind == LogicalType::kGeography && lt.algorithm != 0) w.FieldI32(2, lt.algorithm);
      break;
    default:
      break;
  }
  w.EndStruct();  // the member
  w.EndStruct();  // the union
}

void WriteSchemaElement(ThriftWriter& w, const SchemaElement& e) {
  w.ElementStructBegin();
  if (e.type) w.FieldI32(1, *e.type);
  if (e.type_length) w.FieldI32(2, *e.type_length);
  if (e.repetition_type) w.FieldI32(3, *e.repetition_type);
  w.FieldBinary(4, e.name);
  if (e.num_children) w.FieldI32(5, *e.num_children);
  if (e.converted_type) w.FieldI32(6, *e.converted_type);
  if (e.scale) w.FieldI32(7, *e.scale);
  if (e.precision) w.FieldI32(8, *e.precision);
  if (e.field_id) w.FieldI32(9, *e.field_id);
  if (e.logical_type.kind != LogicalType::kNone) {
    w.FieldStructBegin(10);
    WriteLogicalType(w, e.logical_type);
  }
  w.EndStruct();
}

void WriteColumnMetaData(ThriftWriter& w, const ColumnMetaData& m) {
  w.FieldI32(1, m.type);
  w.FieldListBegin(2, T::kI32, static_cast<uint32_t>(m.encodings.size()));
  for (int32_t e : m.encodings) w.ElementI32(e);
  w.FieldListBegin(3, T::kBinary, static_cast<uint32_t>(m.path_in_schema.size()));
  for (const auto& p : m.path_in_schema) w.ElementBinary(p);
  w.FieldI32(4, m.codec);
  w.FieldI64(5, m.num_values);
  w.FieldI64(6, m.total_uncompressed_size);
  w.FieldI64(7, m.total_compressed_size);
  w.FieldI64(9, m.data_page_offset);
  if (m.index_page_offset) w.FieldI64(10, *m.index_page_offset);
  if (m.dictionary_page_offset) w.FieldI64(11, *m.dictionary_page_offset);
  if (m.statistics) {
    w.FieldStructBegin(12);
    WriteStatistics(w, *m.statistics);
  }
  w.EndStruct();
}

}  // namespace

Result<FileMetaData> ReadFileMetaData(const uint8_t* data, size_t size) {
  ThriftReader r(data, size);
  FileMetaData meta;
  uint32_t seen = 0;
  FLOE_RETURN_IF_ERROR(ReadStruct(r, [&](const ThriftFieldHeader& h) -> Result<bool> {
    if (h.id > 0 && h.id < 32) seen |= 1u << h.id;
    switch (h.id) {
      case 1: { FLOE_ASSIGN_OR_RETURN(meta.version, I32(r, h, "FileMetaData.version")); return true; }
      case 2:
        FLOE_RETURN_IF_ERROR(ReadList(r, h, "FileMetaData.schema", [&](T et) -> Status {
          if (et != T::kStruct) return WrongType("FileMetaData.schema");
          meta.schema.emplace_back();
          return ReadSchemaElement(r, &meta.schema.back());
        }));
        return true;
      case 3: { FLOE_ASSIGN_OR_RETURN(meta.num_rows, I64(r, h, "FileMetaData.num_rows")); return true; }
      case 4:
        FLOE_RETURN_IF_ERROR(ReadList(r, h, "FileMetaData.row_groups", [&](T et) -> Status {
          if (et != T::kStruct) return WrongType("FileMetaData.row_groups");
          meta.row_groups.emplace_back();
          return ReadRowGroup(r, &meta.row_groups.back());
        }));
        return true;
      case 5:
        FLOE_RETURN_IF_ERROR(ReadList(r, h, "FileMetaData.key_value_metadata", [&](T et) -> Status {
          if (et != T::kStruct) return WrongType("FileMetaData.key_value_metadata");
          meta.key_value_metadata.emplace_back();
          return ReadKeyValue(r, &meta.key_value_metadata.back());
        }));
        return true;
      case 6: { FLOE_ASSIGN_OR_RETURN(meta.created_by, Str(r, h, "FileMetaData.created_by")); return true; }
      case 7:
        FLOE_RETURN_IF_ERROR(ReadList(r, h, "FileMetaData.column_orders", [&](T et) -> Status {
          ++meta.column_orders;
          return r.Skip(et);
        }));
        return true;
    }
    return false;
  }));
  if ((seen & 0b11110) != 0b11110) return Corrupt("parquet footer: file metadata lacks a required field");
  return meta;
}

void WriteFileMetaData(const FileMetaData& meta, std::string* out) {
  ThriftWriter w(out);
  w.BeginStruct();
  w.FieldI32(1, meta.version);
  w.FieldListBegin(2, T::kStruct, static_cast<uint32_t>(meta.schema.size()));
  for (const auto& e : meta.schema) WriteSchemaElement(w, e);
  w.FieldI64(3, meta.num_rows);
  w.FieldListBegin(4, T::kStruct, static_cast<uint32_t>(meta.row_groups.size()));
  for (const auto& g : meta.row_groups) {
    w.ElementStructBegin();
    w.FieldListBegin(1, T::kStruct, static_cast<uint32_t>(g.columns.size()));
    for (const auto& c : g.columns) {
      w.ElementStructBegin();
      if (c.file_path) w.FieldBinary(1, *c.file_path);
      w.FieldI64(2, c.file_offset);
      if (c.meta_data) {
        w.FieldStructBegin(3);
        WriteColumnMetaData(w, *c.meta_data);
      }
      w.EndStruct();
    }
    w.FieldI64(2, g.total_byte_size);
    w.FieldI64(3, g.num_rows);
    if (g.file_offset) w.FieldI64(5, *g.file_offset);
    if (g.total_compressed_size) w.FieldI64(6, *g.total_compressed_size);
    if (g.ordinal) w.FieldI16(7, *g.ordinal);
    w.EndStruct();
  }
  if (!meta.key_value_metadata.empty()) {
    w.FieldListBegin(5, T::kStruct, static_cast<uint32_t>(meta.key_value_metadata.size()));
    for (const auto& kv : meta.key_value_metadata) {
      w.ElementStructBegin();
      w.FieldBinary(1, kv.key);
      if (kv.value) w.FieldBinary(2, *kv.value);
      w.EndStruct();
    }
  }
  if (meta.created_by) w.FieldBinary(6, *meta.created_by);
  if (meta.column_orders > 0) {
    w.FieldListBegin(7, T::kStruct, static_cast<uint32_t>(meta.column_orders));
    for (size_t i = 0; i < meta.column_orders; ++i) {
      w.ElementStructBegin();
      w.FieldStructBegin(1);  // TYPE_ORDER: TypeDefinedOrder {}
      w.EndStruct();
      w.EndStruct();
    }
  }
  w.EndStruct();
}

Result<PageHeader> ReadPageHeader(const uint8_t* data, size_t size, size_t* header_size) {
  ThriftReader r(data, size);
  PageHeader ph;
  uint32_t seen = 0;
  FLOE_RETURN_IF_ERROR(ReadStruct(r, [&](const ThriftFieldHeader& h) -> Result<bool> {
    if (h.id > 0 && h.id < 32) seen |= 1u << h.id;
    switch (h.id) {
      case 1: { FLOE_ASSIGN_OR_RETURN(ph.type, I32(r, h, "PageHeader.type")); return true; }
      case 2: { FLOE_ASSIGN_OR_RETURN(ph.uncompressed_page_size, I32(r, h, "uncompressed_page_size")); return true; }
      case 3: { FLOE_ASSIGN_OR_RETURN(ph.compressed_page_size, I32(r, h, "compressed_page_size")); return true; }
      case 4: { FLOE_ASSIGN_OR_RETURN(ph.crc, I32(r, h, "PageHeader.crc")); return true; }
      case 5: {
        if (h.type != T::kStruct) return WrongType("data_page_header");
        DataPageHeader d;
        uint32_t dseen = 0;
        FLOE_RETURN_IF_ERROR(ReadStruct(r, [&](const ThriftFieldHeader& f) -> Result<bool> {
          if (f.id > 0 && f.id < 32) dseen |= 1u << f.id;
          switch (f.id) {
            case 1: { FLOE_ASSIGN_OR_RETURN(d.num_values, I32(r, f, "num_values")); return true; }
            case 2: { FLOE_ASSIGN_OR_RETURN(d.encoding, I32(r, f, "encoding")); return true; }
            case 3: { FLOE_ASSIGN_OR_RETURN(d.definition_level_encoding, I32(r, f, "definition_level_encoding")); return true; }
            case 4: { FLOE_ASSIGN_OR_RETURN(d.repetition_level_encoding, I32(r, f, "repetition_level_encoding")); return true; }
          }
          return false;
        }));
        if ((dseen & 0b11110) != 0b11110) return Corrupt("parquet page header: data page header lacks a required field");
        ph.data_page_header = d;
        return true;
      }
      case 7: {
        if (h.type != T::kStruct) return WrongType("dictionary_page_header");
        DictionaryPageHeader d;
        FLOE_RETURN_IF_ERROR(ReadStruct(r, [&](const ThriftFieldHeader& f) -> Result<bool> {
          switch (f.id) {
            case 1: { FLOE_ASSIGN_OR_RETURN(d.num_values, I32(r, f, "num_values")); return true; }
            case 2: { FLOE_ASSIGN_OR_RETURN(d.encoding, I32(r, f, "encoding")); return true; }
            case 3: { FLOE_ASSIGN_OR_RETURN(d.is_sorted, Bool(r, f, "is_sorted")); return true; }
          }
          return false;
        }));
        ph.dictionary_page_header = d;
        return true;
      }
      case 8: {
        if (h.type != T::kStruct) return WrongType("data_page_header_v2");
        DataPageHeaderV2 d;
        uint32_t dseen = 0;
        FLOE_RETURN_IF_ERROR(ReadStruct(r, [&](const ThriftFieldHeader& f) -> Result<bool> {
          if (f.id > 0 && f.id < 32) dseen |= 1u << f.id;
          switch (f.id) {
            case 1: { FLOE_ASSIGN_OR_RETURN(d.num_values, I32(r, f, "num_values")); return true; }
            case 2: { FLOE_ASSIGN_OR_RETURN(d.num_nulls, I32(r, f, "num_nulls")); return true; }
            case 3: { FLOE_ASSIGN_OR_RETURN(d.num_rows, I32(r, f, "num_rows")); return true; }
            case 4: { FLOE_ASSIGN_OR_RETURN(d.encoding, I32(r, f, "encoding")); return true; }
            case 5: { FLOE_ASSIGN_OR_RETURN(d.definition_levels_byte_length, I32(r, f, "definition_levels_byte_length")); return true; }
            case 6: { FLOE_ASSIGN_OR_RETURN(d.repetition_levels_byte_length, I32(r, f, "repetition_levels_byte_length")); return true; }
            case 7: { FLOE_ASSIGN_OR_RETURN(d.is_compressed, Bool(r, f, "is_compressed")); return true; }
          }
          return false;
        }));
        if ((dseen & 0b1111110) != 0b1111110) return Corrupt("parquet page header: v2 data page header lacks a required field");
        ph.data_page_header_v2 = d;
        return true;
      }
    }
    return false;
  }));
  if ((seen & 0b1110) != 0b1110) return Corrupt("parquet page header lacks a required field");
  if (ph.uncompressed_page_size < 0 || ph.compressed_page_size < 0) return Corrupt("parquet page header: negative page size");
  *header_size = r.position();
  return ph;
}

void WritePageHeader(const PageHeader& ph, std::string* out) {
  ThriftWriter w(out);
  w.BeginStruct();
  w.FieldI32(1, ph.type);
  w.FieldI32(2, ph.uncompressed_page_size);
  w.FieldI32(3, ph.compressed_page_size);
  if (ph.crc) w.FieldI32(4, *ph.crc);
  if (ph.data_page_header) {
    const auto& d = *ph.data_page_header;
    w.FieldStructBegin(5);
    w.FieldI32(1, d.num_values);
    w.FieldI32(2, d.encoding);
    w.FieldI32(3, d.definition_level_encoding);
    w.FieldI32(4, d.repetition_level_encoding);
    if (d.statistics) {
      w.FieldStructBegin(5);
      WriteStatistics(w, *d.statistics);
    }
    w.EndStruct();
  }
  if (ph.dictionary_page_header) {
    const auto& d = *ph.dictionary_page_header;
    w.FieldStructBegin(7);
    w.FieldI32(1, d.num_values);
    w.FieldI32(2, d.encoding);
    if (d.is_sorted) w.FieldBool(3, *d.is_sorted);
    w.EndStruct();
  }
  if (ph.data_page_header_v2) {
    const auto& d = *ph.data_page_header_v2;
    w.FieldStructBegin(8);
    w.FieldI32(1, d.num_values);
    w.FieldI32(2, d.num_nulls);
    w.FieldI32(3, d.num_rows);
    w.FieldI32(4, d.encoding);
    w.FieldI32(5, d.definition_levels_byte_length);
    w.FieldI32(6, d.repetition_levels_byte_length);
    w.FieldBool(7, d.is_compressed);
    w.EndStruct();
  }
  w.EndStruct();
}

}  // namespace floe::parquet
