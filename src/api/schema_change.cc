// SchemaChange (floe/schema_change.h) as floe's SchemaUpdate, and the Table calls that commit
// it or a partition spec change on its own.
#include "floe/schema_change.h"

#include "api/api_internal.h"
#include "commit/metadata_commit.h"
#include "commit/schema_update.h"
#include "commit/spec_update.h"
#include "types/literal.h"
#include "types/schema_text.h"

namespace floe {

// A change whose type or default value did not read keeps the error: ChangeSchema returns it
// before it loads the table.
struct SchemaChange::Impl {
  SchemaUpdate update;
  Status error = Ok();
};

namespace {

Result<Literal> ReadValue(const std::string& value, const TypePtr& type) {
  return Literal::String(value).CastTo(type);
}

}  // namespace

Result<std::string> CheckColumnType(const std::string& type) {
  FLOE_ASSIGN_OR_RETURN(TypePtr parsed, ParseTypeText(type));
  return parsed->is_nested() ? TypeToText(*parsed) : parsed->ToString();
}

Status CheckColumnValue(const std::string& value, const std::string& type) {
  FLOE_ASSIGN_OR_RETURN(TypePtr parsed, ParseTypeText(type));
  FLOE_ASSIGN_OR_RETURN(Literal read, ReadValue(value, parsed));
  (void)read;
  return Ok();
}

SchemaChange SchemaChange::AddColumn(const std::string& name, const std::string& type, const std::string& doc,
                                     const std::optional<std::string>& default_value) {
  auto impl = std::make_shared<Impl>();
  // Any type the schema text takes: "list<string>", "struct<a: int>"; the nested ids are
  // assigned when the change is applied.
  auto parsed = ParseTypeText(type);
  if (!parsed) {
    impl->error = std::unexpected(parsed.error());
    return SchemaChange(impl);
  }
  std::optional<Literal> value;
  if (default_value) {
    auto read = ReadValue(*default_value, *parsed);
    if (!read) {
      impl->error = InvalidArgument("default value '" + *default_value + "' of column " + name + " is not a " +
                                    (*parsed)->ToString() + ": " + read.error().message);
      return SchemaChange(impl);
    }
    value = *read;
  }
  impl->update.AddColumn(name, *parsed, doc, value);
  return SchemaChange(impl);
}

SchemaChange SchemaChange::RenameColumn(const std::string& name, const std::string& new_name) {
  auto impl = std::make_shared<Impl>();
  impl->update.RenameColumn(name, new_name);
  return SchemaChange(impl);
}

SchemaChange SchemaChange::DropColumn(const std::string& name) {
  auto impl = std::make_shared<Impl>();
  impl->update.DropColumn(name);
  return SchemaChange(impl);
}

SchemaChange SchemaChange::UpdateColumn(const std::string& name, const ColumnUpdate& update) {
  auto impl = std::make_shared<Impl>();
  ColumnChange change;
  if (!update.type.empty()) {
    auto parsed = Type::ParsePrimitive(update.type);
    if (!parsed) {
      impl->error = std::unexpected(parsed.error());
      return SchemaChange(impl);
    }
    change.type = *parsed;
  }
  change.make_optional = update.make_optional;
  change.make_required = update.make_required;
  change.doc = update.doc;
  impl->update.UpdateColumn(name, change);
  return SchemaChange(impl);
}

SchemaChange SchemaChange::MoveColumn(const std::string& name, Position position, const std::string& other) {
  auto impl = std::make_shared<Impl>();
  ColumnPosition where;
  where.where = position == Position::kFirst    ? ColumnPosition::Where::kFirst
                : position == Position::kBefore ? ColumnPosition::Where::kBefore
                                                : ColumnPosition::Where::kAfter;
  where.other = other;
  impl->update.MoveColumn(name, where);
  return SchemaChange(impl);
}

SchemaChange SchemaChange::SetIdentifierFields(const std::vector<std::string>& columns) {
  auto impl = std::make_shared<Impl>();
  impl->update.SetIdentifierFields(columns);
  return SchemaChange(impl);
}

Result<SchemaInfo> Table::ChangeSchema(const SchemaChange& change, const SchemaChangeOptions& options) {
  FLOE_RETURN_IF_ERROR(change.impl_->error);
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, impl_->catalog->LoadTable(impl_->id));
  FLOE_ASSIGN_OR_RETURN(MetadataChange planned, change.impl_->update.Plan(table.metadata));
  if (options.before_commit) options.before_commit();
  FLOE_ASSIGN_OR_RETURN(LoadedTable changed, CommitMetadataChange(*impl_->catalog, impl_->id, planned));
  return SchemaInfoOf(changed.metadata);
}

Result<SchemaInfo> Table::ChangeSchema(const SchemaChange& change) { return ChangeSchema(change, {}); }

Result<SchemaInfo> Table::AddPartitionField(const std::string& field) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable changed, floe::AddPartitionField(*impl_->catalog, impl_->id, field));
  return SchemaInfoOf(changed.metadata);
}

Result<SchemaInfo> Table::RemovePartitionField(const std::string& name) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable changed, floe::RemovePartitionField(*impl_->catalog, impl_->id, name));
  return SchemaInfoOf(changed.metadata);
}

}  // namespace floe
