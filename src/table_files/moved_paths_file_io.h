// Reading a table whose files were copied or moved: a test warehouse, a backup, tables from
// another machine whose metadata says "/test-warehouse/..." or "hdfs://nn:8020/...". Every path
// inside such a table's metadata points at where it was written; this FileIO reads each path
// under the table's recorded location from the same place under the folder (or s3:// prefix)
// the table is now in. DuckDB's iceberg_scan(..., allow_moved_paths = true) does the same.
#pragma once

#include <memory>
#include <string>

#include "table_files/path_mapping_file_io.h"

namespace floe {

class MovedPathsFileIO : public PathMappingFileIO {
 public:
  // `recorded_location`: the table's "location" as its metadata records it; `actual_location`:
  // where the table's folder is now.
  MovedPathsFileIO(std::shared_ptr<FileIO> inner, std::string recorded_location, std::string actual_location);

  // A path under the recorded location, in any of the spellings below, becomes the same path
  // under the actual one; any other path is unchanged.
  std::string Map(std::string_view path) const override;

 private:
  std::string recorded_;  // as a comparison key (MovedPathKey), without a trailing '/'
  std::string recorded_path_only_;  // its path alone when it has a scheme and host, else empty
  std::string actual_;    // without a trailing '/'
};

// The spelling of a location that paths are compared by: "file:///a", "file:/a" and
// "file://localhost/a" are all "/a"; everything else as written.
std::string MovedPathKey(std::string_view location);

}  // namespace floe
