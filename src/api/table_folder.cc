// floe/table_folder.h over scan/static_table.h: a table's newest metadata file, read through a
// FileIO that serves local paths and s3:// URIs alike (and, for a moved table, its folder).
#include "floe/table_folder.h"

#include <filesystem>
#include <map>

#include "api/api_internal.h"
#include "api/moved_folder.h"
#include "api/reader_internal.h"
#include "io/local_file_io.h"
#include "io/s3_client.h"
#include "io/scheme_file_io.h"
#include "scan/static_table.h"
#include "scan/table_stats.h"
#include "table_files/moved_paths_file_io.h"

namespace floe {

Result<TableFolder> TableFolder::Open(const std::string& location) { return Open(location, MovedPaths::kIgnore); }

Result<TableFolder> TableFolder::Open(const std::string& location, MovedPaths moved) {
  auto impl = std::make_shared<Impl>();
  impl->location = location;
  impl->folder = FolderOf(location);
  impl->io = std::make_shared<SchemeFileIO>(std::make_shared<LocalFileIO>(), std::map<std::string, std::string>{});
  FLOE_ASSIGN_OR_RETURN(impl->table, OpenStaticTable(*impl->io, location));
  TableFolder opened(impl);
  if (moved == MovedPaths::kRefuse) {
    FLOE_RETURN_IF_ERROR(CheckNotMoved(*impl->io, impl->table.metadata, impl->folder));
  } else if (moved == MovedPaths::kAllow) {
    impl->io = std::make_shared<MovedPathsFileIO>(impl->io, impl->table.metadata.location, impl->folder);
  }
  return opened;
}

std::string TableFolder::FolderOf(const std::string& path) { return TableFolderOf(path); }

const std::string& TableFolder::folder() const { return impl_->folder; }

bool TableFolder::RecordsAnotherLocation() const {
  return floe::RecordsAnotherLocation(impl_->table.metadata, impl_->folder);
}

bool TableFolder::IsS3Uri(const std::string& location) { return floe::IsS3Uri(location); }

const std::string& TableFolder::location() const { return impl_->location; }
const std::string& TableFolder::metadata_location() const { return impl_->table.metadata_location; }

Result<TableStats> TableFolder::Stats() const {
  return ComputeTableStats(*impl_->io, impl_->table.metadata, {}, "'" + impl_->location + "'");
}

Result<SchemaInfo> TableFolder::CurrentSchema() const { return SchemaInfoOf(impl_->table.metadata); }

}  // namespace floe
