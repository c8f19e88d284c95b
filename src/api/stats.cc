// Table::Stats (floe/stats.h): the current snapshot's files per partition, from the catalog's
// view of the table.
#include "api/api_internal.h"
#include "floe/stats.h"
#include "scan/table_stats.h"

namespace floe {

Result<TableStats> Table::Stats() const {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, impl_->catalog->LoadTable(impl_->id));
  return ComputeTableStats(*impl_->catalog->io(), table.metadata, {}, impl_->name);
}

}  // namespace floe
