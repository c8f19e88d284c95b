// Filter: which rows a scan reads or a delete removes, written in SQL's WHERE syntax.
//
//   country = 'DE' AND amount_cents >= 100
//   ts >= '2026-01-01T00:00:00' OR note IS NULL
//   order_id IN (1, 2, 3) AND NOT (country LIKE 'D%')
//
// A filter is parsed once and may be used with any table; the column names are resolved
// against the table's current schema when it is used (an unknown column is InvalidArgument
// naming it then).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "floe/result.h"

namespace floe {

class Filter {
 public:
  // Every row.
  Filter();
  // InvalidArgument naming the position and what was expected when `text` is not a filter.
  static Result<Filter> Parse(std::string_view text);

  // Both / either must hold.
  Filter And(const Filter& other) const;
  Filter Or(const Filter& other) const;

  // The filter in WHERE syntax (what Parse would read back).
  std::string ToString() const;

  struct Impl;  // floe's expression; opaque to programs
  const Impl& impl() const { return *impl_; }

 private:
  explicit Filter(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

}  // namespace floe
