// Builds Parquet files for tests from explicit repetition/definition levels, so that nested
// shapes (including legacy and malformed ones) can be written exactly as a test states them.
// Values are INT32 or BYTE_ARRAY, PLAIN or (byte arrays) dictionary-encoded, in v1 or v2
// data pages of a chosen number of level entries, uncompressed.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "parquet/file_schema.h"
#include "parquet/parquet_format.h"
#include "parquet/rle.h"

namespace floe::parquet::level_files {

// One leaf's entries in one row group; `ints` / `strings` hold the present values only
// (the entries whose definition level is the leaf's maximum).
struct LeafLevels {
  std::vector<uint8_t> rep, def;
  std::vector<int32_t> ints;
  std::vector<std::string> strings;
};

struct PageLayout {
  size_t entries_per_page = 1 << 20;
  bool v2 = false;          // v2 pages start at a row (repetition level 0)
  bool dictionary = false;  // byte-array leaves: a dictionary page and RLE_DICTIONARY pages
};

inline SchemaElement Group(const std::string& name, int32_t repetition, int32_t children, int32_t converted = -1,
                           int field_id = -1) {
  SchemaElement e;
  e.name = name;
  e.repetition_type = repetition;
  e.num_children = children;
  if (converted >= 0) e.converted_type = converted;
  if (field_id >= 0) e.field_id = field_id;
  return e;
}

inline SchemaElement Leaf(const std::string& name, int32_t repetition, int32_t type, int field_id = -1) {
  SchemaElement e;
  e.name = name;
  e.repetition_type = repetition;
  e.type = type;
  if (type == physical::kByteArray) {
    e.converted_type = converted::kUtf8;
    e.logical_type.kind = LogicalType::kString;
  }
  if (field_id >= 0) e.field_id = field_id;
  return e;
}

inline std::string Levels(const std::vector<uint8_t>& levels, size_t from, size_t n, int max) {
  std::string out;
  RleEncode(levels.data() + from, n, BitWidth(static_cast<uint64_t>(max)), &out);
  return out;
}

inline void PutU32(std::string* out, uint32_t v) { out->append(reinterpret_cast<const char*>(&v), 4); }

// The file's bytes: row_groups[g][leaf] for each leaf of the schema, in schema order.
inline std::string BuildLevelFile(const std::vector<SchemaElement>& schema,
                                  const std::vector<std::vector<LeafLevels>>& row_groups, PageLayout layout = {}) {
  auto fs = BuildFileSchema(schema);
  if (!fs) return "";
  std::string file = "PAR1";
  FileMetaData meta;
  meta.schema = schema;
  meta.column_orders = 0;
  for (const auto& group : row_groups) {
    RowGroup rg;
    int64_t rows = 0;
    for (size_t l = 0; l < fs->leaves.size(); ++l) {
      const LeafDescriptor& leaf = fs->leaves[l];
      const LeafLevels& data = group[l];
      const size_t n = data.def.empty() ? data.ints.size() + data.strings.size() : data.def.size();
      std::vector<uint8_t> def = data.def, rep = data.rep;
      if (def.empty()) def.assign(n, static_cast<uint8_t>(leaf.max_def_level));
      if (rep.empty()) rep.assign(n, 0);
      if (l == 0)
        for (uint8_t r : rep) rows += r == 0;
      const bool bytes = *leaf.element.type == physical::kByteArray;
      ColumnMetaData md;
      md.type = *leaf.element.type;
      md.path_in_schema = leaf.path;
      md.codec = codec::kUncompressed;
      md.num_values = static_cast<int64_t>(n);
      md.encodings = {encoding::kPlain, encoding::kRle};
      const int64_t chunk_start = static_cast<int64_t>(file.size());
      std::vector<std::string> dict;
      if (bytes && layout.dictionary) {
        for (const auto& s : data.strings)
          if (std::find(dict.begin(), dict.end(), s) == dict.end()) dict.push_back(s);
        std::string body;
        for (const auto& s : dict) {
          PutU32(&body, static_cast<uint32_t>(s.size()));
          body += s;
        }
        PageHeader ph;
        ph.type = page_type::kDictionaryPage;
        ph.uncompressed_page_size = ph.compressed_page_size = static_cast<int32_t>(body.size());
        ph.dictionary_page_header = DictionaryPageHeader{static_cast<int32_t>(dict.size()), encoding::kPlain, false};
        md.dictionary_page_offset = static_cast<int64_t>(file.size());
        WritePageHeader(ph, &file);
        file += body;
        md.encodings.push_back(encoding::kRleDictionary);
      }
      md.data_page_offset = static_cast<int64_t>(file.size());
      size_t value_pos = 0;
      for (size_t begin = 0; begin < n;) {
        size_t end = std::min(n, begin + layout.entries_per_page);
        if (layout.v2)
          while (end < n && rep[end] != 0) ++end;
        std::string rep_bytes = leaf.max_rep_level > 0 ? Levels(rep, begin, end - begin, leaf.max_rep_level) : "";
        std::string def_bytes = leaf.max_def_level > 0 ? Levels(def, begin, end - begin, leaf.max_def_level) : "";
        std::string values;
        std::vector<uint32_t> ids;
        for (size_t i = begin; i < end; ++i) {
          if (def[i] != leaf.max_def_level) continue;
          if (!bytes) {
            PutU32(&values, static_cast<uint32_t>(data.ints[value_pos++]));
          } else if (layout.dictionary) {
            const std::string& s = data.strings[value_pos++];
            ids.push_back(static_cast<uint32_t>(std::find(dict.begin(), dict.end(), s) - dict.begin()));
          } else {
            const std::string& s = data.strings[value_pos++];
            PutU32(&values, static_cast<uint32_t>(s.size()));
            values += s;
          }
        }
        int32_t value_encoding = encoding::kPlain;
        if (bytes && layout.dictionary) {
          int width = BitWidth(dict.empty() ? 0 : dict.size() - 1);
          values.assign(1, static_cast<char>(width));
          RleEncode(ids.data(), ids.size(), width, &values);
          value_encoding = encoding::kRleDictionary;
        }
        std::string body;
        PageHeader ph;
        if (layout.v2) {
          ph.type = page_type::kDataPageV2;
          DataPageHeaderV2 h;
          h.num_values = static_cast<int32_t>(end - begin);
          h.num_rows = 0;
          for (size_t i = begin; i < end; ++i) h.num_rows += rep[i] == 0;
          h.encoding = value_encoding;
          h.repetition_levels_byte_length = static_cast<int32_t>(rep_bytes.size());
          h.definition_levels_byte_length = static_cast<int32_t>(def_bytes.size());
          h.is_compressed = false;
          ph.data_page_header_v2 = h;
          body = rep_bytes + def_bytes + values;
        } else {
          ph.type = page_type::kDataPage;
          DataPageHeader h;
          h.num_values = static_cast<int32_t>(end - begin);
          h.encoding = value_encoding;
          h.definition_level_encoding = encoding::kRle;
          h.repetition_level_encoding = encoding::kRle;
          ph.data_page_header = h;
          if (leaf.max_rep_level > 0) {
            PutU32(&body, static_cast<uint32_t>(rep_bytes.size()));
            body += rep_bytes;
          }
          if (leaf.max_def_level > 0) {
            PutU32(&body, static_cast<uint32_t>(def_bytes.size()));
            body += def_bytes;
          }
          body += values;
        }
        ph.uncompressed_page_size = ph.compressed_page_size = static_cast<int32_t>(body.size());
        WritePageHeader(ph, &file);
        file += body;
        begin = end;
      }
      md.total_compressed_size = md.total_uncompressed_size = static_cast<int64_t>(file.size()) - chunk_start;
      ColumnChunk cc;
      cc.file_offset = chunk_start;
      cc.meta_data = md;
      rg.columns.push_back(cc);
      rg.total_byte_size += md.total_uncompressed_size;
    }
    rg.num_rows = rows;
    meta.num_rows += rows;
    meta.row_groups.push_back(rg);
  }
  std::string footer;
  WriteFileMetaData(meta, &footer);
  file += footer;
  PutU32(&file, static_cast<uint32_t>(footer.size()));
  file += "PAR1";
  return file;
}

}  // namespace floe::parquet::level_files
