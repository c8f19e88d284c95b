// The Parquet footer and page headers (parquet.thrift), as plain structs, with their
// Thrift compact encoding.
//
// Enum-typed fields are kept as int32 so that a file with a value this code does not know
// still parses; the code that acts on a value validates it. Only the fields floe reads or
// writes are modelled; everything else is skipped on read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "floe/result.h"

namespace floe::parquet {

// The four bytes that open and close every Parquet file.
inline constexpr char kParquetMagic[] = "PAR1";

namespace physical {  // parquet.thrift Type
constexpr int32_t kBoolean = 0, kInt32 = 1, kInt64 = 2, kInt96 = 3, kFloat = 4, kDouble = 5,
                  kByteArray = 6, kFixedLenByteArray = 7;
}
namespace repetition {  // FieldRepetitionType
constexpr int32_t kRequired = 0, kOptional = 1, kRepeated = 2;
}
namespace converted {  // ConvertedType
constexpr int32_t kUtf8 = 0, kMap = 1, kMapKeyValue = 2, kList = 3, kEnum = 4, kDecimal = 5,
                  kDate = 6, kTimeMillis = 7, kTimeMicros = 8, kTimestampMillis = 9,
                  kTimestampMicros = 10, kUint8 = 11, kUint16 = 12, kUint32 = 13, kUint64 = 14,
                  kInt8 = 15, kInt16 = 16, kInt32 = 17, kInt64 = 18, kJson = 19, kBson = 20,
                  kInterval = 21;
}
namespace encoding {  // Encoding
constexpr int32_t kPlain = 0, kPlainDictionary = 2, kRle = 3, kBitPacked = 4,
                  kDeltaBinaryPacked = 5, kDeltaLengthByteArray = 6, kDeltaByteArray = 7,
                  kRleDictionary = 8, kByteStreamSplit = 9;
}
namespace codec {  // CompressionCodec
constexpr int32_t kUncompressed = 0, kSnappy = 1, kGzip = 2, kLzo = 3, kBrotli = 4, kLz4 = 5,
                  kZstd = 6, kLz4Raw = 7;
}
namespace page_type {  // PageType
constexpr int32_t kDataPage = 0, kIndexPage = 1, kDictionaryPage = 2, kDataPageV2 = 3;
}

std::string EncodingName(int32_t encoding);
std::string CodecName(int32_t codec);
std::string PhysicalTypeName(int32_t type);

// The LogicalType union; kind is the union member's field id (0 = absent).
struct LogicalType {
  enum Kind : int16_t {
    kNone = 0, kString = 1, kMap = 2, kList = 3, kEnum = 4, kDecimal = 5, kDate = 6, kTime = 7,
    kTimestamp = 8, kInteger = 10, kUnknown = 11, kJson = 12, kBson = 13, kUuid = 14, kFloat16 = 15,
    kVariant = 16, kGeometry = 17, kGeography = 18,
  };
  enum Unit : int16_t { kMillis = 1, kMicros = 2, kNanos = 3 };
  int16_t kind = kNone;
  int32_t scale = 0, precision = 0;  // decimal
  bool adjusted_to_utc = false;      // time, timestamp
  int16_t unit = kMicros;            // time, timestamp
  int8_t bit_width = 0;              // integer
  bool is_signed = true;             // integer
  std::string crs;                   // geometry, geography: empty = the default (OGC:CRS84)
  int32_t algorithm = 0;             // geography: EdgeInterpolationAlgorithm (0 = spherical)
};

struct SchemaElement {
  std::optional<int32_t> type;  // absent for groups
  std::optional<int32_t> type_length;
  std::optional<int32_t> repetition_type;
  std::string name;
  std::optional<int32_t> num_children;
  std::optional<int32_t> converted_type;
  std::optional<int32_t> scale;
  std::optional<int32_t> precision;
  std::optional<int32_t> field_id;
  LogicalType logical_type;  // kind kNone when absent
};

struct Statistics {
  std::optional<std::string> max;  // deprecated, signed-order; read only as a fallback
  std::optional<std::string> min;
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<std::string> max_value;
  std::optional<std::string> min_value;
};

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
};

struct ColumnMetaData {
  int32_t type = 0;
  std::vector<int32_t> encodings;
  std::vector<std::string> path_in_schema;
  int32_t codec = 0;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
};

struct ColumnChunk {
  std::optional<std::string> file_path;
  int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
};

struct FileMetaData {
  int32_t version = 1;
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<KeyValue> key_value_metadata;
  std::optional<std::string> created_by;
  // Written as one TypeDefinedOrder per leaf column; read as a count.
  size_t column_orders = 0;
};

struct DataPageHeader {
  int32_t num_values = 0;
  int32_t encoding = 0;
  int32_t definition_level_encoding = 0;
  int32_t repetition_level_encoding = 0;
  std::optional<Statistics> statistics;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  int32_t encoding = 0;
  std::optional<bool> is_sorted;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  int32_t encoding = 0;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  bool is_compressed = true;
};

struct PageHeader {
  int32_t type = 0;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
};

// Decodes a footer. Missing required fields and malformed bytes are Corrupt.
Result<FileMetaData> ReadFileMetaData(const uint8_t* data, size_t size);
void WriteFileMetaData(const FileMetaData& meta, std::string* out);

// Decodes the page header at data; *header_size receives its encoded length.
Result<PageHeader> ReadPageHeader(const uint8_t* data, size_t size, size_t* header_size);
void WritePageHeader(const PageHeader& header, std::string* out);

}  // namespace floe::parquet
