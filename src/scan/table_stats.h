// Computing floe/stats.h's TableStats: what a table holds per partition and how much history it
// keeps (files per partition, their sizes, delete files, the length of the history).
//
// Reads the manifest list and manifests of one snapshot (the current one by default), nothing
// else: the cost is that of planning a full scan.
#pragma once

#include <string>

#include "floe/file_io.h"
#include "floe/stats.h"
#include "meta/table_metadata.h"
#include "scan/scan_options.h"

namespace floe {

// `table_name` is what the hints' commands name. NotFound for a snapshot the options name that
// does not exist; InvalidArgument for an unreadable write.target-file-size-bytes; IOError or
// Corrupt from reading the manifests.
Result<TableStats> ComputeTableStats(FileIO& io, const TableMetadata& table, const ScanOptions& snapshot,
                                     const std::string& table_name);

}  // namespace floe
