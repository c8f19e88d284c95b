// floe/table_folder.h over scan/static_table.h: a table's newest metadata file, read through a
// FileIO that serves local paths and s3:// URIs alike (and, for a moved table, its folder).
#include "floe/table_folder.h"

#include <filesystem>
#include <map>

#include "api/api_internal.h"
#include "api/reader_internal.h"
#include "io/local_file_io.h"
#include "io/s3_client.h"
#include "io/scheme_file_io.h"
#include "scan/static_table.h"
#include "scan/table_stats.h"
#include "table_files/moved_paths_file_io.h"

namespace floe {

namespace {

// MovedPaths::kRefuse: a table whose recorded location is not the folder it was read from and
// whose current manifest list is missing is refused, naming both and the flag.
Status CheckNotMoved(const TableFolder& folder, FileIO& io, const TableMetadata& metadata) {
  const Snapshot* current = metadata.CurrentSnapshot();
  if (!current || current->manifest_list.empty()) return {};
  if (!folder.RecordsAnotherLocation()) return {};
  FLOE_ASSIGN_OR_RETURN(bool exists, io.Exists(current->manifest_list));
  if (exists) return {};
  return NotFound("the table in " + folder.folder() + " records its location as " + metadata.location +
                  ", and its manifest list " + current->manifest_list +
                  " does not exist; if the table was copied or moved from there, add --allow-moved-paths "
                  "to read the paths under " + metadata.location + " from " + folder.folder());
}

}  // namespace

Result<TableFolder> TableFolder::Open(const std::string& location) { return Open(location, MovedPaths::kIgnore); }

Result<TableFolder> TableFolder::Open(const std::string& location, MovedPaths moved) {
  auto impl = std::make_shared<Impl>();
  impl->location = location;
  impl->folder = FolderOf(location);
  impl->io = std::make_shared<SchemeFileIO>(std::make_shared<LocalFileIO>(), std::map<std::string, std::string>{});
  FLOE_ASSIGN_OR_RETURN(impl->table, OpenStaticTable(*impl->io, location));
  TableFolder opened(impl);
  if (moved == MovedPaths::kRefuse) {
    FLOE_RETURN_IF_ERROR(CheckNotMoved(opened, *impl->io, impl->table.metadata));
  } else if (moved == MovedPaths::kAllow) {
    impl->io = std::make_shared<MovedPathsFileIO>(impl->io, impl->table.metadata.location, impl->folder);
  }
  return opened;
}

std::string TableFolder::FolderOf(const std::string& path_text) {
  std::error_code ec;
  std::filesystem::path path = std::filesystem::absolute(path_text, ec).lexically_normal();
  if (!std::filesystem::is_directory(path, ec)) {
    bool metadata_file = path.extension() == ".json";
    path = path.parent_path();
    if (metadata_file) {
      if (path.filename() == "metadata") path = path.parent_path();
    } else {
      std::filesystem::path up = path;
      while (!up.empty() && up.filename() != "metadata" && up.filename() != "data" && up != up.root_path())
        up = up.parent_path();
      path = (up.filename() == "metadata" || up.filename() == "data") ? up.parent_path() : std::filesystem::path();
    }
  }
  std::string folder = path.string();
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  return folder;
}

const std::string& TableFolder::folder() const { return impl_->folder; }

bool TableFolder::RecordsAnotherLocation() const {
  std::string recorded = MovedPathKey(impl_->table.metadata.location);
  while (recorded.size() > 1 && recorded.back() == '/') recorded.pop_back();
  return recorded != impl_->folder;
}

bool TableFolder::IsS3Uri(const std::string& location) { return floe::IsS3Uri(location); }

const std::string& TableFolder::location() const { return impl_->location; }
const std::string& TableFolder::metadata_location() const { return impl_->table.metadata_location; }

Result<TableStats> TableFolder::Stats() const {
  return ComputeTableStats(*impl_->io, impl_->table.metadata, {}, "'" + impl_->location + "'");
}

Result<SchemaInfo> TableFolder::CurrentSchema() const { return SchemaInfoOf(impl_->table.metadata); }

}  // namespace floe
