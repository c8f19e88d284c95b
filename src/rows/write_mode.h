// Which way a row-level command changes rows in a table: copy-on-write or merge-on-read, by the
// table's write.*.mode properties or the caller's choice, and whether position deletes may be
// added to it.
#pragma once

#include "catalog/catalog.h"
#include "commit/operations.h"
#include "meta/table_metadata.h"
#include "rows/row_write_options.h"

namespace floe {

// The mode a table asks for a command (write.delete.mode, write.update.mode, write.merge.mode;
// copy-on-write by default). InvalidArgument names a property with an unknown value.
Result<WriteMode> WriteModeFor(const TableMetadata& table, RowLevelCommand command);
// options.mode when set, else the table's property (loads the table).
Result<WriteMode> ChosenWriteMode(Catalog& catalog, const TableIdentifier& id, RowLevelCommand command,
                                  const RowWriteOptions& options);


}  // namespace floe
