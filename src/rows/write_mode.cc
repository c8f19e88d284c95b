#include "rows/write_mode.h"

#include "commit/commit_base.h"
#include "meta/table_properties.h"

namespace floe {

Result<WriteMode> WriteModeFor(const TableMetadata& table, RowLevelCommand command) {
  const char* key = command == RowLevelCommand::kDelete   ? props::kDeleteMode
                    : command == RowLevelCommand::kUpdate ? props::kUpdateMode
                                                          : props::kMergeMode;
  std::string mode = table.Property(key, props::kCopyOnWrite);
  if (mode == props::kCopyOnWrite) return WriteMode::kCopyOnWrite;
  if (mode == props::kMergeOnRead) return WriteMode::kMergeOnRead;
  return InvalidArgument(std::string("table property ") + key + " is '" + mode + "'; expected '" +
                         props::kCopyOnWrite + "' or '" + props::kMergeOnRead + "'");
}

Result<WriteMode> ChosenWriteMode(Catalog& catalog, const TableIdentifier& id, RowLevelCommand command,
                                  const RowWriteOptions& options) {
  if (options.mode) return *options.mode;
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<CommitBase> base, CommitBase::HandedOrLoad(catalog, id, options.commit.base));
  return WriteModeFor(base->metadata(), command);
}

}  // namespace floe
