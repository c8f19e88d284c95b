// One file of a table read on its own, for people: what `floe inspect` and `floe cat` print.
// Local files only; nothing is written.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "floe/result.h"
#include "floe/scan_export.h"

namespace floe {

struct InspectOptions {
  // The file belongs to a copied or moved table: paths under the location its metadata records
  // are given as they are now, under the folder the table is in (found from the file's path).
  bool allow_moved_paths = false;
};

// The file at `path` described as indented JSON text: a table metadata document as it is (keys in
// its order), an Avro manifest or manifest list, a Parquet file (schema, row groups, column
// chunks, statistics) or a Puffin file (blobs and their properties), told apart by their bytes.
// NotFound / IOError: the file cannot be opened or read; InvalidArgument: none of those kinds, or
// with allow_moved_paths a file under no metadata/ or data/ folder; a malformed file's error
// names it.
Result<std::string> InspectFile(const std::string& path, const InspectOptions& options = {});

// The rows of one local Parquet file, in the file's own column order. Cells as ScanExport
// gives them (floe/scan_export.h); nested columns as null.
class ParquetFileRows {
 public:
  // NotFound / IOError: the file cannot be read; InvalidArgument naming the file: not Parquet,
  // or a footer or schema that does not hold.
  static Result<ParquetFileRows> Open(const std::string& path);

  const std::vector<std::string>& columns() const;
  // At most `limit` rows (every row when negative) onto `out` in `format`, batch by batch;
  // returns how many. A malformed page stops it with the rows before it written.
  Result<int64_t> WriteText(ScanTextFormat format, int64_t limit, std::ostream& out);
  // At most `limit` rows (every row when negative), one at a time, in order.
  Status ForEachRow(int64_t limit, const ListedRowConsumer& consume);

  struct Impl;
  explicit ParquetFileRows(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

 private:
  std::shared_ptr<Impl> impl_;
};

// `text` as it can be printed whatever it holds: each byte that is not part of well-formed UTF-8
// written as "\xNN" (and a backslash that could be read as such an escape doubled); well-formed
// text comes back unchanged.
std::string PrintableText(std::string_view text);

}  // namespace floe
