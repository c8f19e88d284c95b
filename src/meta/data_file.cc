#include "meta/data_file.h"

#include <cctype>

namespace floe {

std::string_view FileContentName(FileContent c) {
  switch (c) {
    case FileContent::kData: return "DATA";
    case FileContent::kPositionDeletes: return "POSITION_DELETES";
    case FileContent::kEqualityDeletes: return "EQUALITY_DELETES";
  }
  return "UNKNOWN";
}

std::string_view FileFormatName(FileFormat f) {
  switch (f) {
    case FileFormat::kParquet: return "PARQUET";
    case FileFormat::kAvro: return "AVRO";
    case FileFormat::kOrc: return "ORC";
    case FileFormat::kPuffin: return "PUFFIN";
  }
  return "UNKNOWN";
}

Result<FileFormat> ParseFileFormat(std::string_view text) {
  // Every entry of a manifest names its format: the spelling writers use is matched first.
  if (text == "PARQUET") return FileFormat::kParquet;
  std::string upper(text);
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (FileFormat f : {FileFormat::kParquet, FileFormat::kAvro, FileFormat::kOrc, FileFormat::kPuffin})
    if (upper == FileFormatName(f)) return f;
  return InvalidArgument("unknown file format '" + std::string(text) + "' (parquet, avro, orc or puffin)");
}

bool IsDeletionVector(const DataFile& f) {
  return f.file_format == FileFormat::kPuffin && f.content == FileContent::kPositionDeletes;
}

std::string ContentFileKey(const DataFile& f) {
  if (!IsDeletionVector(f)) return f.file_path;
  return f.file_path + "#" + std::to_string(f.content_offset.value_or(-1));
}

}  // namespace floe
