// ColumnBatch: a small typed in-memory table that readers, writers and evaluators share.
//
// One Column per field, laid out by type (see Literal for which storage a type uses).
// A column's null flags are empty when it has no nulls; otherwise one byte per row, 1 = null.
// Values at null rows hold zero / empty string so that vectors stay dense.
//
// Nested columns (the layout every reader, writer and printer relies on):
//   struct: children[i] is field i; a child holds a row for every struct row, null ones included
//           (the child's row is null there).
//   list:   offsets has length + 1 entries; row r's elements are rows offsets[r] .. offsets[r+1]-1
//           of children[0] (the element column). A null or empty list has an empty range.
//   map:    as a list, with children[0] the keys and children[1] the values (same row count);
//           keys are never null.
// Literal values of nested columns (Get / Append) are Literal::Nested: slow, for row-by-row paths.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "types/literal.h"
#include "types/schema.h"

namespace floe {

struct Column {
  TypePtr type;
  size_t length = 0;
  std::vector<uint8_t> nulls;  // empty = no nulls

  std::vector<uint8_t> bools;
  std::vector<int32_t> ints;        // int, date
  std::vector<int64_t> longs;       // long, time, timestamp*
  std::vector<float> floats;
  std::vector<double> doubles;
  std::vector<__int128> decimals;
  std::vector<uint32_t> offsets;    // string/binary/fixed/uuid: length + 1 entries into bytes;
                                    // list/map: length + 1 entries into the children's rows
  std::string bytes;
  std::vector<Column> children;     // struct: one per field; list: {element}; map: {key, value}

  explicit Column(TypePtr t = nullptr);

  bool IsNull(size_t row) const { return !nulls.empty() && nulls[row] != 0; }
  size_t null_count() const;
  std::string_view BytesAt(size_t row) const { return std::string_view(bytes).substr(offsets[row], offsets[row + 1] - offsets[row]); }

  // Slow, general accessors; hot loops use the typed vectors directly.
  Literal Get(size_t row) const;
  // Casts when the literal's type differs. A nested value (Literal::Nested) goes into the
  // children; a null inside it where the type requires a value (a required field, element or
  // value, any map key) is InvalidArgument. On any error the column is left as it was.
  Status Append(const Literal& value);
  void AppendNull();
  void Reserve(size_t rows);
  // Cuts the column back to its first `rows` rows (children included); no-op when it has fewer.
  void Truncate(size_t rows);

 private:
  Status AppendNested(const Literal& value);
};

struct ColumnBatch {
  std::vector<NestedField> fields;  // the top-level fields, with their ids
  std::vector<Column> columns;      // parallel to fields
  size_t num_rows = 0;

  ColumnBatch() = default;
  explicit ColumnBatch(const Schema& schema);
  explicit ColumnBatch(std::vector<NestedField> fields);

  int ColumnIndexById(int field_id) const;  // -1 when absent
  int ColumnIndexByName(std::string_view name) const;
  Status AppendRow(const std::vector<Literal>& row);
  std::vector<Literal> Row(size_t row) const;
  // Rows where keep[row] != 0, in order.
  ColumnBatch Filter(const std::vector<uint8_t>& keep) const;
  // The given rows (each below num_rows), in the given order: one pass over each column.
  ColumnBatch Take(const std::vector<uint32_t>& rows) const;
  void Append(const ColumnBatch& other);  // same fields
};

}  // namespace floe
