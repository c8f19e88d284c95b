// TableFolder: a table read from its folder or from one of its metadata files, without a
// catalog (as DuckDB's iceberg_scan reads one). Read-only: without a catalog there is no
// pointer to swap, so nothing here writes.
//
// The newest metadata file of a folder is the one metadata/version-hint.text names, else the
// highest version among the folder's metadata files. Paths inside the metadata are used as
// written (a table copied elsewhere still names its old location).
#pragma once

#include <memory>
#include <string>

#include "floe/result.h"
#include "floe/schema_info.h"
#include "floe/stats.h"

namespace floe {

class TableFolder {
 public:
  // `location`: a table folder (holding metadata/) or a metadata file (*.json), local or
  // s3:// (read with this process's AWS settings). NotFound: no metadata file there; Corrupt:
  // the metadata file is not a table's metadata; IOError: it cannot be read.
  static Result<TableFolder> Open(const std::string& location);
  // Whether `location` is an s3:// (s3a://, s3n://) URI: Open reads it from object storage.
  static bool IsS3Uri(const std::string& location);

  const std::string& location() const;           // as given to Open
  const std::string& metadata_location() const;  // the metadata file read

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
  std::shared_ptr<const Impl> impl_;
};

}  // namespace floe
