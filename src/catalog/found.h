#pragma once
// Turning a lookup into an existence answer: a catalog's *Exists methods look the name up and
// report NotFound as `false`; any other failure (a broken connection, an unreadable pointer) is
// passed on, never taken for absence.

#include <expected>

#include "floe/result.h"

namespace floe {

template <typename T>
Result<bool> FoundOrAbsent(const Result<T>& lookup) {
  if (lookup) return true;
  if (lookup.error().kind == ErrorKind::kNotFound) return false;
  return std::unexpected(lookup.error());
}

}  // namespace floe
