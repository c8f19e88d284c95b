// floe/table_folder.h over scan/static_table.h: a table's newest metadata file, read through a
// FileIO that serves local paths and s3:// URIs alike.
#include "floe/table_folder.h"

#include <map>

#include "api/api_internal.h"
#include "io/local_file_io.h"
#include "io/s3_client.h"
#include "io/scheme_file_io.h"
#include "scan/static_table.h"
#include "scan/table_stats.h"

namespace floe {

struct TableFolder::Impl {
  std::string location;
  std::shared_ptr<FileIO> io;
  StaticTable table;
};

Result<TableFolder> TableFolder::Open(const std::string& location) {
  auto impl = std::make_shared<Impl>();
  impl->location = location;
  impl->io = std::make_shared<SchemeFileIO>(std::make_shared<LocalFileIO>(), std::map<std::string, std::string>{});
  FLOE_ASSIGN_OR_RETURN(impl->table, OpenStaticTable(*impl->io, location));
  return TableFolder(std::move(impl));
}

bool TableFolder::IsS3Uri(const std::string& location) { return floe::IsS3Uri(location); }

const std::string& TableFolder::location() const { return impl_->location; }
const std::string& TableFolder::metadata_location() const { return impl_->table.metadata_location; }

Result<TableStats> TableFolder::Stats() const {
  return ComputeTableStats(*impl_->io, impl_->table.metadata, {}, "'" + impl_->location + "'");
}

Result<SchemaInfo> TableFolder::CurrentSchema() const { return SchemaInfoOf(impl_->table.metadata); }

}  // namespace floe
