// floe's whole supported surface. Everything else under src/ is internal and may change.
//   floe/catalog.h      Connection: open a catalog, create, register, load, list and drop tables
//   floe/table_definition.h  TableDefinition: what a table is created from, checked before connecting
//   floe/input_files.h  InputFiles: rows from CSV, JSON-lines or Parquet files, for appends,
//                       overwrites and upserts
//   floe/table.h        Table: append, delete, update, upsert, scan (whole or streamed),
//                       snapshots, branches and tags, maintenance, properties
//   floe/maintenance.h  the options and results of expiry, orphan removal, compaction
//   floe/refs.h         RefInfo: a branch or a tag
//   floe/time_text.h    ISO timestamps as milliseconds (time travel, expiry)
//   floe/transaction.h  TableTransaction: several changes as one commit
//   floe/rows.h         Rows and Cell: what is written and read
//   floe/scan.h         ScanRequest: snapshot (time travel), filter, columns
//   floe/filter.h       Filter: WHERE-syntax expressions
//   floe/schema_info.h  SchemaInfo: a schema field by field, and its JSON form
//   floe/stats.h        TableStats: files per partition, sizes, deletes, history length
//   floe/table_folder.h TableFolder: a table read from its folder, without a catalog
//   floe/result.h       Result<T>, Status and the error kinds (docs/library.md says what to do with each)
//   floe/file_io.h      FileIO: plug in storage of one's own
//   floe/version.h      FLOE_VERSION
#pragma once

#include "floe/catalog.h"
#include "floe/file_inspect.h"
#include "floe/file_io.h"
#include "floe/filter.h"
#include "floe/input_files.h"
#include "floe/maintenance.h"
#include "floe/refs.h"
#include "floe/result.h"
#include "floe/rows.h"
#include "floe/scan.h"
#include "floe/scan_export.h"
#include "floe/schema_change.h"
#include "floe/schema_info.h"
#include "floe/stats.h"
#include "floe/table.h"
#include "floe/table_definition.h"
#include "floe/table_folder.h"
#include "floe/table_reader.h"
#include "floe/time_text.h"
#include "floe/transaction.h"
#include "floe/version.h"
#include "floe/view.h"
