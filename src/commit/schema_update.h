// Schema evolution: a list of changes applied, in order, to a table's current schema, giving a
// new schema committed with add-schema + set-current-schema. It asserts the current schema id
// and the last assigned field id it was planned against, so it lands alongside concurrent
// appends (they assert only their branch) but not alongside another schema change.
//
// Columns are named by dotted paths through nested types, with Iceberg's names for what a list
// or map holds: "loc.lat" (a struct's field), "points.element" / "points.element.x" (a list's
// element, a field of a struct element), "tags.key", "tags.value" (a map's key and value).
// Paths are resolved against the schema as changed by the steps before.
//
// Supported, as Iceberg allows: add an optional field (top level, or inside a struct, also a
// list's struct element or a map's struct value; new field ids come after last-column-id),
// rename, drop, promote a type (int -> long, float -> double, decimal(P,S) -> decimal(P',S)
// with P' > P, and on format v3 date -> timestamp / timestamp_ns), make a field optional,
// set a field's doc, move a field within its struct, and set the identifier fields.
// Refused with InvalidArgument naming the column, changing nothing: a missing column, a
// duplicate name, an illegal promotion, making an optional column required (files may hold
// nulls), moving a column next to itself or into another struct, renaming, dropping or moving
// a list element or map key/value (their names are fixed), adding to or dropping from a map
// key, dropping an identifier field or a column the default partition spec or sort order uses,
// identifier fields that are optional, float or nested.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "commit/metadata_commit.h"
#include "types/literal.h"
#include "types/schema.h"

namespace floe {

// What `floe schema update-column` changes on one column; unset parts stay as they are.
struct ColumnChange {
  TypePtr type;                    // a promotion the spec allows
  bool make_optional = false;
  bool make_required = false;      // refused unless the column is required already
  std::optional<std::string> doc;  // "" removes the doc
};

// Where `floe schema move-column` puts a column: first among its siblings, or just before or
// after `other` (a full dotted name of a field of the same struct).
struct ColumnPosition {
  enum class Where { kFirst, kBefore, kAfter };
  Where where = Where::kFirst;
  std::string other;
};

class SchemaUpdate {
 public:
  // `default_value` (format 3 tables): the column's initial-default and write-default, so rows
  // written before it read as that value and appends that leave it out store it; cast to `type`.
  SchemaUpdate& AddColumn(std::string name, TypePtr type, std::string doc = "",
                          std::optional<Literal> default_value = std::nullopt);
  SchemaUpdate& RenameColumn(std::string name, std::string new_name);
  SchemaUpdate& DropColumn(std::string name);
  SchemaUpdate& UpdateColumnType(std::string name, TypePtr type);
  SchemaUpdate& MakeColumnOptional(std::string name);
  SchemaUpdate& RequireColumn(std::string name);
  SchemaUpdate& UpdateColumnDoc(std::string name, std::string doc);
  SchemaUpdate& UpdateColumn(const std::string& name, const ColumnChange& change);
  SchemaUpdate& MoveFirst(std::string name);
  SchemaUpdate& MoveBefore(std::string name, std::string other);
  SchemaUpdate& MoveAfter(std::string name, std::string other);
  SchemaUpdate& MoveColumn(const std::string& name, const ColumnPosition& position);
  SchemaUpdate& SetIdentifierFields(std::vector<std::string> names);

  // The new schema (its id is the next free one).
  Result<Schema> Apply(const TableMetadata& base) const;
  // The commit: empty when the schema does not change.
  Result<MetadataChange> Plan(const TableMetadata& base) const;

  struct Working;  // the schema being changed (schema_update.cc)

 private:
  std::vector<std::function<Status(Working&)>> steps_;
};

// Whether a column of type `from` may become `to` in a table of `format_version` (the spec's
// allowed promotions, or equal types).
bool CanPromote(const Type& from, const Type& to, int format_version = 2);

// Plans and commits `update` against the table's current metadata.
Result<LoadedTable> UpdateSchema(Catalog& catalog, const TableIdentifier& id, const SchemaUpdate& update);

// One-change conveniences for the command line.
Result<LoadedTable> AddColumn(Catalog& catalog, const TableIdentifier& id, const std::string& name, TypePtr type,
                              const std::string& doc = "");
Result<LoadedTable> RenameColumn(Catalog& catalog, const TableIdentifier& id, const std::string& name,
                                 const std::string& new_name);
Result<LoadedTable> DropColumn(Catalog& catalog, const TableIdentifier& id, const std::string& name);
Result<LoadedTable> UpdateColumnType(Catalog& catalog, const TableIdentifier& id, const std::string& name,
                                     TypePtr type);
Result<LoadedTable> UpdateColumn(Catalog& catalog, const TableIdentifier& id, const std::string& name,
                                 const ColumnChange& change);
Result<LoadedTable> MoveColumn(Catalog& catalog, const TableIdentifier& id, const std::string& name,
                               const ColumnPosition& position);
Result<LoadedTable> SetIdentifierFields(Catalog& catalog, const TableIdentifier& id,
                                        const std::vector<std::string>& names);

}  // namespace floe
