// Schema evolution: a list of changes applied, in order, to a table's current schema, giving a
// new schema committed with add-schema + set-current-schema. It asserts the current schema id
// and the last assigned field id it was planned against, so it lands alongside concurrent
// appends (they assert only their branch) but not alongside another schema change.
//
// Supported, as Iceberg allows: add an optional column (top level, or "s.x" inside struct s;
// new field ids come after last-column-id), rename, drop, promote a type (int -> long,
// float -> double, decimal(P, S) -> decimal(P', S) with P' >= P), make a column optional,
// reorder, and set the identifier fields. Columns are found by dotted name, against the schema
// as changed by the steps before. Refused with InvalidArgument, changing nothing: a missing
// column, a duplicate name, an illegal promotion, dropping an identifier field or a column
// the default partition spec or sort order uses, identifier fields that are optional, float
// or nested.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "txn/metadata_commit.h"
#include "types/schema.h"

namespace floe {

class SchemaUpdate {
 public:
  SchemaUpdate& AddColumn(std::string name, TypePtr type, std::string doc = "");
  SchemaUpdate& RenameColumn(std::string name, std::string new_name);
  SchemaUpdate& DropColumn(std::string name);
  SchemaUpdate& UpdateColumnType(std::string name, TypePtr type);
  SchemaUpdate& MakeColumnOptional(std::string name);
  SchemaUpdate& MoveFirst(std::string name);
  SchemaUpdate& MoveBefore(std::string name, std::string other);
  SchemaUpdate& MoveAfter(std::string name, std::string other);
  SchemaUpdate& SetIdentifierFields(std::vector<std::string> names);

  // The new schema (its id is the next free one).
  Result<Schema> Apply(const TableMetadata& base) const;
  // The commit: empty when the schema does not change.
  Result<MetadataChange> Plan(const TableMetadata& base) const;

  struct Working;  // the schema being changed (schema_update.cc)

 private:
  std::vector<std::function<Status(Working&)>> steps_;
};

// Whether a column of type `from` may become `to` (the spec's allowed promotions, or equal).
bool CanPromote(const Type& from, const Type& to);

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
Result<LoadedTable> SetIdentifierFields(Catalog& catalog, const TableIdentifier& id,
                                        const std::vector<std::string>& names);

}  // namespace floe
