// Rows: what a program hands floe to write and what a scan hands back.
//
// Plain data on purpose: a program builds rows from its own values without learning floe's
// column batches. A cell is null, a boolean, a 64-bit integer, a double or a string; floe casts
// it to the column's type when writing (a string "2026-01-01T10:00:00" becomes a timestamp,
// "12.50" a decimal(10,2), an integer an int or a date's day count), and refuses a cell it
// cannot cast (InvalidArgument naming the column and the row).
// A scan returns booleans, integers (int, long), doubles (float, double) and strings (string);
// every other type (date, time, timestamp, decimal, uuid, binary, fixed) comes back as the
// string Iceberg's single-value form prints.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace floe {

using Cell = std::variant<std::monostate, bool, int64_t, double, std::string>;

struct Rows {
  // Column names, top-level, in the order the cells of each row follow. When writing, columns
  // the table has but `columns` omits are written as null (a required one is refused).
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;

  size_t size() const { return rows.size(); }
  // The cell of `column` in row `row`; an empty cell when the column is not there.
  const Cell& At(size_t row, const std::string& column) const;
};

// "null", "true", "42", "1.5", or the string itself.
std::string CellToString(const Cell& cell);

}  // namespace floe
