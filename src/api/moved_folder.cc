#include "api/moved_folder.h"

#include <filesystem>

#include "table_files/moved_paths_file_io.h"

namespace floe {

bool RecordsAnotherLocation(const TableMetadata& metadata, const std::string& folder) {
  std::string recorded = MovedPathKey(metadata.location);
  while (recorded.size() > 1 && recorded.back() == '/') recorded.pop_back();
  return recorded != folder;
}

Status CheckNotMoved(FileIO& io, const TableMetadata& metadata, const std::string& folder) {
  const Snapshot* current = metadata.CurrentSnapshot();
  if (!current || current->manifest_list.empty()) return {};
  if (!RecordsAnotherLocation(metadata, folder)) return {};
  FLOE_ASSIGN_OR_RETURN(bool exists, io.Exists(current->manifest_list));
  if (exists) return {};
  return NotFound("the table in " + folder + " records its location as " + metadata.location +
                  ", and its manifest list " + current->manifest_list +
                  " does not exist; if the table was copied or moved from there, add --allow-moved-paths "
                  "to read the paths under " + metadata.location + " from " + folder);
}

std::string TableFolderOf(const std::string& path_text) {
  std::error_code ec;
  std::filesystem::path path = std::filesystem::absolute(path_text, ec).lexically_normal();
  if (!std::filesystem::is_directory(path, ec)) {
    const bool metadata_file = path.extension() == ".json";
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

}  // namespace floe
