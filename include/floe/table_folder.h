// TableFolder: a table read from its folder or from one of its metadata files, without a
// catalog (as DuckDB's iceberg_scan reads one). Read-only: without a catalog there is no
// pointer to swap, so nothing here writes.
//
// The newest metadata file of a folder is the one metadata/version-hint.text names, else the
// highest version among the folder's metadata files. Paths inside the metadata are used as
// written (a table copied elsewhere still names its old location) unless MovedPaths::kAllow
// reads them from the folder given.
#pragma once

#include <memory>
#include <string>

#include "floe/result.h"
#include "floe/schema_info.h"
#include "floe/stats.h"

namespace floe {

// What to do with a table folder that was copied or moved: its metadata still records its old
// location, and so do all the paths inside it.
enum class MovedPaths {
  kIgnore,  // use the paths as written (reading only the metadata document needs nothing else)
  kRefuse,  // NotFound naming the recorded location, the missing manifest list and --allow-moved-paths
  kAllow,   // paths under the recorded location are read from the folder given
};

class TableFolder {
 public:
  // `location`: a table folder (holding metadata/) or a metadata file (*.json), local or
  // s3:// (read with this process's AWS settings). NotFound: no metadata file there; Corrupt:
  // the metadata file is not a table's metadata; IOError: it cannot be read.
  static Result<TableFolder> Open(const std::string& location);
  // Open, then `moved` for a folder whose metadata records another location (RecordsAnotherLocation).
  static Result<TableFolder> Open(const std::string& location, MovedPaths moved);
  // The table folder a local path lies in: a table folder itself; for a metadata file (*.json)
  // the folder above its metadata/ folder; for any other file, the folder above the nearest
  // metadata/ or data/ folder it lies under (empty when there is none). Absolute, normalized,
  // without a trailing '/'.
  static std::string FolderOf(const std::string& path);
  // Whether `location` is an s3:// (s3a://, s3n://) URI: Open reads it from object storage.
  static bool IsS3Uri(const std::string& location);

  const std::string& location() const;           // as given to Open
  const std::string& metadata_location() const;  // the metadata file read
  const std::string& folder() const;             // FolderOf(location)
  // Whether the metadata records a location other than folder(): the table was copied or
  // moved here. Spellings of one local path ("file:///a", "/a/") are equal.
  bool RecordsAnotherLocation() const;

  // What the current snapshot holds (floe/stats.h). Its hints name the table as a command
  // would: its location, quoted ('...'). InvalidArgument: an unreadable
  // write.target-file-size-bytes; IOError or Corrupt from reading the manifests.
  Result<TableStats> Stats() const;
  // The current schema and default partition spec (floe/schema_info.h). Never fails once
  // opened (the metadata was read by Open); a Result as Table::CurrentSchema's.
  Result<SchemaInfo> CurrentSchema() const;

  struct Impl;
  explicit TableFolder(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

 private:
  friend class TableReader;  // floe/table_reader.h: reads the metadata this folder opened
  std::shared_ptr<const Impl> impl_;
};

}  // namespace floe
