// include/floe/view.h over the catalog's view operations (catalog/catalog.h).
#include "floe/view.h"

#include <chrono>
#include <thread>

#include "api/api_internal.h"
#include "types/schema_text.h"
#include "util/strings.h"

namespace floe {
namespace {

constexpr int kReplaceAttempts = 50;  // each lost attempt follows a replace that landed

Result<TableIdentifier> ParseViewName(const std::string& name) {
  FLOE_ASSIGN_OR_RETURN(TableIdentifier id, TableIdentifier::Parse(name));
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  return id;
}

Status CheckDefinition(const ViewDefinition& d) {
  if (d.sql.find_first_not_of(" \t\r\n") == std::string::npos) return InvalidArgument("the view's SQL is empty");
  if (d.dialect.empty()) return InvalidArgument("the view's dialect is empty (e.g. spark, trino)");
  return Ok();
}

ViewInfo ToInfo(const LoadedView& view) {
  ViewInfo info;
  info.name = view.id.ToString();
  info.uuid = view.metadata.view_uuid;
  info.location = view.metadata.location;
  info.metadata_location = view.metadata_location;
  info.current_version_id = view.metadata.current_version_id;
  info.properties = view.metadata.properties;
  for (const auto& v : view.metadata.versions) {
    ViewVersionInfo out;
    out.version_id = v.version_id;
    out.timestamp_ms = v.timestamp_ms;
    out.summary = v.summary;
    out.default_namespace = NamespaceToString(v.default_namespace);
    for (const auto& r : v.representations) {
      if (r.type == "sql") out.sql_by_dialect[AsciiLower(r.dialect)] = r.sql;
    }
    if (const Schema* s = view.metadata.SchemaById(v.schema_id)) out.schema = SchemaToText(*s);
    info.versions.push_back(std::move(out));
  }
  for (const auto& e : view.metadata.version_log) info.history.push_back(ViewLogEntry{e.timestamp_ms, e.version_id});
  return info;
}

Result<Namespace> DefaultNamespace(const ViewDefinition& d, const TableIdentifier& id) {
  if (d.default_namespace.empty()) return id.ns;
  return ParseNamespace(d.default_namespace);
}

// The current version with `d`'s SQL for its dialect (replacing that dialect's text).
Result<ViewCommit> ReplaceCommit(const LoadedView& base, const ViewDefinition& d) {
  ViewVersion version = base.metadata.CurrentVersion();
  version.timestamp_ms = 0;  // the catalog stamps it
  bool replaced = false;
  for (auto& r : version.representations) {
    if (r.type == "sql" && AsciiLower(r.dialect) == AsciiLower(d.dialect)) {
      r.sql = d.sql;
      replaced = true;
    }
  }
  if (!replaced) version.representations.push_back(ViewRepresentation{"sql", d.sql, d.dialect, ""});
  if (!d.default_namespace.empty()) {
    FLOE_ASSIGN_OR_RETURN(version.default_namespace, ParseNamespace(d.default_namespace));
  }
  version.summary["engine-name"] = "floe";
  ViewCommit commit{base.id, {AssertViewUuid{base.metadata.view_uuid}}, {}};
  if (!d.schema.empty()) {
    FLOE_ASSIGN_OR_RETURN(Schema schema, ParseSchemaText(d.schema));
    commit.updates.push_back(AddSchema{std::move(schema), std::nullopt});
    version.schema_id = -1;  // the schema just added (or an identical one already there)
  }
  std::map<std::string, std::string> props = d.properties;
  if (!d.comment.empty()) props["comment"] = d.comment;
  if (!props.empty()) commit.updates.push_back(SetProperties{props});
  commit.updates.push_back(AddViewVersion{std::move(version)});
  commit.updates.push_back(SetCurrentViewVersion{-1});
  return commit;
}

}  // namespace

const ViewVersionInfo* ViewInfo::Version(int version_id) const {
  for (const auto& v : versions) {
    if (v.version_id == version_id) return &v;
  }
  return nullptr;
}

const ViewVersionInfo& ViewInfo::Current() const {
  static const ViewVersionInfo kNone;
  const ViewVersionInfo* v = Version(current_version_id);
  return v ? *v : kNone;
}

Views::Views(const Connection& connection) : impl_(connection.impl_) {}

Result<ViewInfo> Views::Create(const std::string& name, const ViewDefinition& definition) {
  FLOE_ASSIGN_OR_RETURN(TableIdentifier id, ParseViewName(name));
  FLOE_RETURN_IF_ERROR(CheckDefinition(definition));
  CreateViewRequest request;
  if (!definition.schema.empty()) {
    FLOE_ASSIGN_OR_RETURN(request.schema, ParseSchemaText(definition.schema));
  }
  request.version.representations = {ViewRepresentation{"sql", definition.sql, definition.dialect, ""}};
  FLOE_ASSIGN_OR_RETURN(request.version.default_namespace, DefaultNamespace(definition, id));
  request.version.summary = {{"engine-name", "floe"}};
  request.properties = definition.properties;
  if (!definition.comment.empty()) request.properties["comment"] = definition.comment;
  FLOE_ASSIGN_OR_RETURN(LoadedView view, impl_->catalog->CreateView(id, request));
  return ToInfo(view);
}

Result<ViewInfo> Views::Load(const std::string& name) const {
  FLOE_ASSIGN_OR_RETURN(TableIdentifier id, ParseViewName(name));
  FLOE_ASSIGN_OR_RETURN(LoadedView view, impl_->catalog->LoadView(id));
  return ToInfo(view);
}

Result<ViewInfo> Views::Replace(const std::string& name, const ViewDefinition& definition) {
  FLOE_ASSIGN_OR_RETURN(TableIdentifier id, ParseViewName(name));
  FLOE_RETURN_IF_ERROR(CheckDefinition(definition));
  Error last{ErrorKind::kCommitConflict, ""};
  for (int attempt = 0; attempt < kReplaceAttempts; ++attempt) {
    FLOE_ASSIGN_OR_RETURN(LoadedView base, impl_->catalog->LoadView(id));
    FLOE_ASSIGN_OR_RETURN(ViewCommit commit, ReplaceCommit(base, definition));
    auto done = impl_->catalog->CommitView(commit);
    if (done) return ToInfo(*done);
    if (done.error().kind != ErrorKind::kCommitConflict) return std::unexpected(done.error());
    last = done.error();
    std::this_thread::sleep_for(std::chrono::milliseconds(1 + attempt));
  }
  return std::unexpected(Error{ErrorKind::kCommitConflict, "replacing view " + id.ToString() + " lost " +
                                                               std::to_string(kReplaceAttempts) +
                                                               " races in a row; last: " + last.message});
}

Result<std::vector<std::string>> Views::List(const std::string& ns) const {
  FLOE_ASSIGN_OR_RETURN(Namespace parsed, ParseNamespace(ns));
  FLOE_ASSIGN_OR_RETURN(std::vector<TableIdentifier> ids, impl_->catalog->ListViews(parsed));
  std::vector<std::string> out;
  for (const auto& id : ids) out.push_back(id.ToString());
  return out;
}

Status Views::Drop(const std::string& name) {
  FLOE_ASSIGN_OR_RETURN(TableIdentifier id, ParseViewName(name));
  return impl_->catalog->DropView(id);
}

Status Views::Rename(const std::string& from, const std::string& to) {
  FLOE_ASSIGN_OR_RETURN(TableIdentifier from_id, ParseViewName(from));
  FLOE_ASSIGN_OR_RETURN(TableIdentifier to_id, ParseViewName(to));
  return impl_->catalog->RenameView(from_id, to_id);
}

}  // namespace floe
