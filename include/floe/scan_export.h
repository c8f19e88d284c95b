// ScanExport: a planned scan of a TableReader (floe/table_reader.h), written out whole: as CSV,
// JSON lines or a JSON array to a stream, as a Parquet file, or row by row as JSON values.
// What `floe scan` prints.
//
// Rows come in the order Table::Scan returns them. The text formats are formatted on the
// reading threads (several data files read ahead at once) and written in order, so an export
// holds a few files' rows at a time, never the whole result. Exporting twice reads twice.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "floe/result.h"

namespace floe {

// How a scan is written as text. Cells are written as Iceberg's single-value JSON form gives
// them (dates, timestamps, decimals and UUIDs as strings, binary as hex); a struct as an object
// keyed by field name in field order, a list as an array, a map with string keys as an object and
// any other map as an array of {"key": K, "value": V}; in CSV that JSON is the cell's text.
//   kCsv    a header line of the column names, then one line per row; null is the empty field,
//           the empty string "" (so that readers tell them apart)
//   kJsonl  one JSON object per line, keys in column order
//   kJson   one JSON array of those objects, laid out with two-space indentation ("[]" if none)
enum class ScanTextFormat { kCsv, kJsonl, kJson };

// `s` as one CSV field, as kCsv writes it: quoted when it holds , " CR or LF, and when empty
// (an unquoted empty field is null); quotes inside doubled.
void AppendCsvField(std::string_view s, std::string* out);

// One cell of a listed row (a scan's or a metadata table's): a string as its bytes, which need
// not be UTF-8; any other value as JSON text ("null", "true", "42", "1.5", "{\"country\":\"DE\"}"),
// nested values in the form ScanTextFormat describes.
struct ListedCell {
  std::string text;
  bool is_string = false;
};

// One row of a scan, parallel to the export's columns. Returns false to stop the read early.
using ListedRowConsumer = std::function<Result<bool>(std::vector<ListedCell>&& cells)>;

class ScanExport {
 public:
  // The columns the scan returns, in order.
  const std::vector<std::string>& columns() const;

  // Every row onto `out` in `format`; returns how many were written. A read error stops the
  // export with the rows before it written (NotFound naming the snapshot when it was expired
  // while the read ran).
  Result<int64_t> WriteText(ScanTextFormat format, std::ostream& out) const;
  // Every row into a new Parquet file at local `path`, with the scan's column types; returns
  // how many were written. AlreadyExists: a file is there; IOError: it cannot be written.
  Result<int64_t> WriteParquet(const std::string& path) const;
  // Every row, one at a time, in order; the errors of WriteText and those of `consume`.
  Status ForEachRow(const ListedRowConsumer& consume) const;

  struct Impl;
  explicit ScanExport(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

 private:
  std::shared_ptr<const Impl> impl_;
};

}  // namespace floe
