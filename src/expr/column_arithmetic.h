// Column-at-a-time arithmetic for row evaluation: the values of a term such as
// (order_id % 2) for every row of a batch.
#pragma once

#include <cstdint>
#include <vector>

#include "expr/expression.h"
#include "types/column_batch.h"

namespace floe {

// Numeric values of one side of an arithmetic term: a scalar or one value per row. The
// per-row pointers point into a column (no copy) or into this object's own storage.
struct TermValues {
  bool scalar = false;
  int64_t long_scalar = 0;
  double double_scalar = 0;
  const int64_t* longs = nullptr;
  const double* doubles = nullptr;
  const uint8_t* nulls = nullptr;  // nullptr = no nulls
  std::vector<int64_t> long_storage;
  std::vector<double> double_storage;
  std::vector<uint8_t> null_storage;

  bool IsNull(size_t i) const { return nulls && nulls[i]; }
  int64_t LongAt(size_t i) const { return scalar ? long_scalar : longs[i]; }
  double DoubleAt(size_t i) const { return scalar ? double_scalar : doubles[i]; }
};

// Computes a bound term for every row of a batch, as int64 (`floating` false: int and long
// operands) or as double. Integer arithmetic wraps; division or modulo by zero yields null.
Status ComputeTerm(const TermPtr& term, bool floating, const ColumnBatch& batch, TermValues* out);

// The column of a bound reference in a batch, checked to hold one value per row.
Result<const Column*> TermColumn(const ColumnBatch& batch, const Term& reference);

}  // namespace floe
