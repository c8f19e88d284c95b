// SchemaChange: one change to a table's schema, committed on its own by Table::ChangeSchema
// (a schema change landing together with appends and property changes: floe/transaction.h).
//
// Column names are dotted paths to nested fields: "loc.lat" (a struct's field),
// "points.element" (a list's element), "tags.key" / "tags.value" (a map's key and value).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/result.h"

namespace floe {

// Iceberg's spelling of the type `type` ("LONG" is "long", "decimal(10, 2)" is "decimal(10,2)",
// "ARRAY<String>" is "list<string>"; nested types in the schema text form), or InvalidArgument
// saying why it is not one. Asks no catalog: a program
// checks its arguments before it connects.
Result<std::string> CheckColumnType(const std::string& type);
// Ok when the text `value` reads as a value of `type`; InvalidArgument saying why not (the
// type's own error when `type` is not one).
Status CheckColumnValue(const std::string& value, const std::string& type);

class SchemaChange {
 public:
  // An optional column (a.b: field b of struct a) of a primitive or nested type
  // ("struct<x: int, tags: list<string>>"). `default_value` (format 3 tables; primitives only)
  // is what rows written before it read and what appends that leave it out write.
  static SchemaChange AddColumn(const std::string& name, const std::string& type, const std::string& doc = "",
                                const std::optional<std::string>& default_value = std::nullopt);
  // The column keeps its field id: files written before read under the new name.
  static SchemaChange RenameColumn(const std::string& name, const std::string& new_name);
  static SchemaChange DropColumn(const std::string& name);
  // Unset parts stay as they are.
  struct ColumnUpdate {
    std::string type;                // a promotion Iceberg allows: int -> long, float -> double,
                                     // wider decimal(P',S); on format v3 date -> timestamp
    bool make_optional = false;      // let it hold nulls
    bool make_required = false;      // keep it required: refused for an optional column
    std::optional<std::string> doc;  // its doc comment; "" removes it
  };
  static SchemaChange UpdateColumn(const std::string& name, const ColumnUpdate& update);
  // Within its struct: first, or just before / after `other` (a field of the same struct).
  enum class Position { kFirst, kBefore, kAfter };
  static SchemaChange MoveColumn(const std::string& name, Position position, const std::string& other = "");
  // The row key: required, non-float, top-level columns.
  static SchemaChange SetIdentifierFields(const std::vector<std::string>& columns);

  struct Impl;

 private:
  explicit SchemaChange(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  friend class Table;
  std::shared_ptr<const Impl> impl_;
};

struct SchemaChangeOptions {
  // Called once the change is planned against the table as loaded and before its commit starts
  // (a test lands another schema change there, to see this one refused).
  std::function<void()> before_commit;
};

}  // namespace floe
