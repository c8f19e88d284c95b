#include "catalog/storage/storage_catalog.h"

#include <algorithm>
#include <future>
#include <set>

#include <nlohmann/json.hpp>

#include "catalog/storage/storage_layout.h"
#include "catalog/found.h"
#include "io/s3_client.h"
#include "io/s3_file_io.h"
#include "io/scheme_file_io.h"
#include "meta/metadata_builder.h"
#include "table_files/metadata_document.h"
#include "table_files/purge.h"
#include "util/strings.h"

namespace floe {
namespace {

constexpr const char* kNamespaceFolder = ".namespace";

std::vector<std::string> SplitSlashes(std::string_view s) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= s.size()) {
    size_t slash = s.find('/', start);
    if (slash == std::string_view::npos) slash = s.size();
    if (slash > start) parts.emplace_back(s.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

}  // namespace

struct StorageCatalog::Listing {
  std::set<Namespace> namespaces;      // every namespace found, including implied parents
  std::set<TableIdentifier> tables;
  std::set<TableIdentifier> views;
};

// The S3 FileIO that serves an s3:// warehouse through `io`, or nullptr (another FileIO, or
// S3 settings that fail: the first access reports them).
std::shared_ptr<S3FileIO> S3Behind(const std::shared_ptr<FileIO>& io, const std::string& warehouse) {
  if (!IsS3Uri(warehouse)) return nullptr;
  if (auto s3 = std::dynamic_pointer_cast<S3FileIO>(io)) return s3;
  if (auto* scheme = dynamic_cast<SchemeFileIO*>(io.get())) {
    if (auto s3 = scheme->S3()) return std::dynamic_pointer_cast<S3FileIO>(*s3);
  }
  return nullptr;
}

StorageCatalog::StorageCatalog(std::string name, std::string warehouse, std::shared_ptr<FileIO> io)
    : name_(std::move(name)), warehouse_(std::move(warehouse)), io_(std::move(io)) {
  warehouse_ = TrimTrailingSlashes(warehouse_);
  s3_ = S3Behind(io_, warehouse_);
}

StorageCatalog::~StorageCatalog() {
  WaitForHintWrite();
  (void)DeleteIntentObjects({});  // the deferred clears (left stale if it fails: harmless)
}

MetadataCache* StorageCatalog::metadata_cache() { return s3_ ? &cache_ : nullptr; }

std::string StorageCatalog::NamespaceFolder(const Namespace& ns) const {
  std::string folder = warehouse_;
  for (const auto& part : ns) folder += "/" + part;
  return folder;
}

std::string StorageCatalog::TableFolder(const TableIdentifier& id) const {
  return NamespaceFolder(id.ns) + "/" + id.name;
}

Status StorageCatalog::CheckName(const Namespace& ns, const std::string* table) const {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  auto hidden = [](const std::string& n) { return !n.empty() && n[0] == '.'; };
  for (const auto& part : ns) {
    if (hidden(part)) return InvalidArgument("invalid namespace name '" + part + "': a storage catalog refuses names beginning with '.'");
  }
  if (table) {
    FLOE_RETURN_IF_ERROR(ValidateName(*table, "table"));
    if (hidden(*table)) return InvalidArgument("invalid table name '" + *table + "': a storage catalog refuses names beginning with '.'");
  }
  return Ok();
}

Result<StorageCatalog::Listing> StorageCatalog::Scan(const Namespace& ns) {
  std::string prefix = NamespaceFolder(ns) + "/";
  FLOE_ASSIGN_OR_RETURN(auto files, io_->ListPrefix(prefix));
  Listing listing;
  for (const auto& file : files) {
    if (file.path.size() <= prefix.size() || file.path.compare(0, prefix.size(), prefix) != 0) continue;
    auto parts = SplitSlashes(std::string_view(file.path).substr(prefix.size()));
    size_t k = parts.size();
    Namespace found;
    if (k >= 3 && parts[k - 2] == "metadata" && TableVersionOf(parts[k - 1]) >= 0) {
      // .../<table>/metadata/v<N>.metadata.json; the table needs a namespace of at least one part.
      Namespace table_ns = ns;
      table_ns.insert(table_ns.end(), parts.begin(), parts.end() - 3);
      if (table_ns.empty()) continue;
      listing.tables.insert(TableIdentifier{table_ns, parts[k - 3]});
      found = std::move(table_ns);
    } else if (k >= 3 && parts[k - 2] == "metadata" && ViewVersionOf(parts[k - 1]) >= 0) {
      Namespace view_ns = ns;
      view_ns.insert(view_ns.end(), parts.begin(), parts.end() - 3);
      if (view_ns.empty()) continue;
      listing.views.insert(TableIdentifier{view_ns, parts[k - 3]});
      found = std::move(view_ns);
    } else if (k >= 2 && parts[k - 2] == kNamespaceFolder && VersionOf(parts[k - 1], ".json") >= 0) {
      found = ns;
      found.insert(found.end(), parts.begin(), parts.end() - 2);
    } else {
      continue;
    }
    // A namespace implies every namespace above it.
    while (found.size() > ns.size()) {
      listing.namespaces.insert(found);
      found.pop_back();
    }
    if (!ns.empty()) listing.namespaces.insert(ns);
  }
  return listing;
}

// ---- namespaces ----

Result<std::pair<int64_t, std::string>> StorageCatalog::CurrentPropertiesFile(const Namespace& ns) {
  std::string prefix = NamespaceFolder(ns) + "/" + kNamespaceFolder + "/v";
  FLOE_ASSIGN_OR_RETURN(auto files, io_->ListPrefix(prefix));
  std::pair<int64_t, std::string> best{0, ""};
  for (const auto& f : files) {
    int64_t v = VersionOf(BaseName(f.path), ".json");
    if (v > best.first) best = {v, f.path};
  }
  return best;
}

Result<bool> StorageCatalog::NamespaceExists(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(CheckName(ns, nullptr));
  FLOE_ASSIGN_OR_RETURN(auto current, CurrentPropertiesFile(ns));
  if (current.first > 0) return true;
  FLOE_ASSIGN_OR_RETURN(auto listing, Scan(ns));
  return !listing.namespaces.empty();
}

Status StorageCatalog::CreateNamespace(const Namespace& ns, const Properties& properties) {
  FLOE_RETURN_IF_ERROR(CheckName(ns, nullptr));
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
  const std::string key = NamespaceToString(ns);
  if (exists) return NamespaceAlreadyExists(key);
  nlohmann::json doc = nlohmann::json::object();
  for (const auto& [k, v] : properties) doc[k] = v;
  auto created = io_->CreateIfAbsent(NamespaceFolder(ns) + "/" + kNamespaceFolder + "/v1.json", doc.dump(2));
  if (!created && created.error().kind == ErrorKind::kAlreadyExists) {
    return NamespaceAlreadyExists(key);
  }
  return created;
}

Result<std::vector<Namespace>> StorageCatalog::ListNamespaces(const Namespace& parent) {
  if (!parent.empty()) FLOE_RETURN_IF_ERROR(CheckName(parent, nullptr));
  FLOE_ASSIGN_OR_RETURN(auto listing, Scan(parent));
  if (!parent.empty() && listing.namespaces.empty()) {
    return NamespaceNotFound(NamespaceToString(parent));
  }
  std::vector<Namespace> out;
  for (const auto& ns : listing.namespaces) {
    if (ns.size() == parent.size() + 1) out.push_back(ns);
  }
  return out;
}

Result<Properties> StorageCatalog::LoadNamespaceProperties(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(CheckName(ns, nullptr));
  FLOE_ASSIGN_OR_RETURN(auto current, CurrentPropertiesFile(ns));
  Properties out;
  if (current.first == 0) {
    FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
    if (!exists) return NamespaceNotFound(NamespaceToString(ns));
    return out;  // implied by the tables below it: no properties
  }
  FLOE_ASSIGN_OR_RETURN(std::string text, io_->ReadAll(current.second));
  try {
    auto doc = nlohmann::json::parse(text);
    if (!doc.is_object()) return Corrupt("namespace properties file " + current.second + " is not a JSON object");
    for (auto it = doc.begin(); it != doc.end(); ++it) {
      if (!it.value().is_string()) {
        return Corrupt("namespace properties file " + current.second + ": value of " + it.key() + " is not a string");
      }
      out[it.key()] = it.value().get<std::string>();
    }
  } catch (const nlohmann::json::exception& e) {
    return Corrupt("namespace properties file " + current.second + " is not valid JSON: " + e.what());
  }
  return out;
}

Status StorageCatalog::UpdateNamespaceProperties(const Namespace& ns, const Properties& updates,
                                                 const std::vector<std::string>& removals) {
  FLOE_RETURN_IF_ERROR(CheckName(ns, nullptr));
  for (const auto& r : removals) {
    if (updates.count(r)) return InvalidArgument("namespace property " + r + " is both updated and removed");
  }
  // Read, change, create the next version; a concurrent update that took that version first
  // makes us re-read and apply ours on top of it.
  for (int attempt = 0; attempt < 100; ++attempt) {
    FLOE_ASSIGN_OR_RETURN(auto current, CurrentPropertiesFile(ns));
    FLOE_ASSIGN_OR_RETURN(Properties props, LoadNamespaceProperties(ns));
    for (const auto& r : removals) props.erase(r);
    for (const auto& [k, v] : updates) props[k] = v;
    nlohmann::json doc = nlohmann::json::object();
    for (const auto& [k, v] : props) doc[k] = v;
    std::string next = NamespaceFolder(ns) + "/" + kNamespaceFolder + "/v" + std::to_string(current.first + 1) + ".json";
    auto created = io_->CreateIfAbsent(next, doc.dump(2));
    if (created) return Ok();
    if (created.error().kind != ErrorKind::kAlreadyExists) return created;
  }
  return CommitConflict("namespace " + NamespaceToString(ns) + ": properties kept changing; giving up after 100 tries");
}

Status StorageCatalog::DropNamespace(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(CheckName(ns, nullptr));
  FLOE_ASSIGN_OR_RETURN(auto listing, Scan(ns));
  const std::string key = NamespaceToString(ns);
  if (listing.namespaces.empty()) return NamespaceNotFound(key);
  if (!listing.tables.empty()) {
    return InvalidArgument("namespace " + key + " is not empty: it holds table " + listing.tables.begin()->ToString());
  }
  if (!listing.views.empty()) {
    return InvalidArgument("namespace " + key + " is not empty: it holds view " + listing.views.begin()->ToString());
  }
  for (const auto& child : listing.namespaces) {
    if (child.size() > ns.size()) {
      return InvalidArgument("namespace " + key + " is not empty: it holds namespace " + NamespaceToString(child));
    }
  }
  FLOE_ASSIGN_OR_RETURN(auto files, io_->ListPrefix(NamespaceFolder(ns) + "/" + kNamespaceFolder + "/"));
  for (const auto& f : files) FLOE_RETURN_IF_ERROR(io_->Delete(f.path));
  return Ok();
}

// ---- tables ----

Result<LoadedTable> StorageCatalog::CreateTable(const TableIdentifier& id, const CreateTableRequest& request) {
  FLOE_RETURN_IF_ERROR(CheckName(id.ns, &id.name));
  const std::string folder = TableFolder(id);
  if (request.location && *request.location != folder && *request.location != folder + "/") {
    return InvalidArgument("a storage catalog keeps table " + id.ToString() + " at " + folder + ", not at " +
                           *request.location);
  }
  FLOE_ASSIGN_OR_RETURN(bool ns_exists, NamespaceExists(id.ns));
  if (!ns_exists) return NamespaceNotFound(NamespaceToString(id.ns));
  FLOE_ASSIGN_OR_RETURN(bool exists, TableExists(id));
  if (exists) return TableAlreadyExists(id.ToString());
  FLOE_ASSIGN_OR_RETURN(bool view_exists, ViewExists(id));
  if (view_exists) return ViewWithSameNameExists(id.ToString());
  FLOE_ASSIGN_OR_RETURN(auto updates, NewTableUpdates(request.schema, request.spec, request.sort_order, folder,
                                                      request.properties, request.format_version));
  auto created = CommitTableVia(*this, *io_, TableCommit{id, {AssertCreate{}}, std::move(updates)});
  AfterCommit(id, created ? &created->metadata_location : nullptr);
  WaitForHintWrite();
  if (!created && created.error().kind == ErrorKind::kCommitConflict) {
    return TableAlreadyExists(id.ToString());
  }
  return created;
}

Result<LoadedTable> StorageCatalog::LoadTable(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(CheckName(id.ns, &id.name));
  return LoadTableVia(*this, *io_, id);
}

Result<SharedTable> StorageCatalog::LoadSharedTable(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(CheckName(id.ns, &id.name));
  return LoadSharedTableVia(*this, *io_, id);
}

Result<bool> StorageCatalog::TableExists(const TableIdentifier& id) {
  return FoundOrAbsent(CurrentMetadataLocation(id));
}

Result<std::vector<TableIdentifier>> StorageCatalog::ListTables(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(CheckName(ns, nullptr));
  FLOE_ASSIGN_OR_RETURN(auto listing, Scan(ns));
  if (listing.namespaces.empty()) return NamespaceNotFound(NamespaceToString(ns));
  std::vector<TableIdentifier> out;
  for (const auto& t : listing.tables) {
    if (t.ns == ns) out.push_back(t);
  }
  return out;
}

Status StorageCatalog::DropTable(const TableIdentifier& id, bool purge) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, LoadTable(id));
  std::optional<PurgePlan> plan;
  if (purge) {
    FLOE_ASSIGN_OR_RETURN(plan, PlanPurge(*io_, table.metadata, table.metadata_location));
  }
  // Oldest first, so that until the last one goes, readers still find the newest version
  // rather than an older one they might commit on top of.
  FLOE_ASSIGN_OR_RETURN(auto files, io_->ListPrefix(TableFolder(id) + "/metadata/v"));
  std::vector<std::pair<int64_t, std::string>> versions;
  for (const auto& f : files) {
    int64_t v = TableVersionOf(BaseName(f.path));
    if (v >= 0) versions.emplace_back(v, f.path);
  }
  std::sort(versions.begin(), versions.end());
  WaitForHintWrite();  // a hint landing after the drop would name a version that is gone
  if (auto known = Known(id)) cache_.Erase(known->location);
  Forget(id);
  (void)io_->Delete(TableFolder(id) + "/metadata/" + kVersionHint);
  for (const auto& [v, path] : versions) FLOE_RETURN_IF_ERROR(io_->Delete(path));
  if (plan) return DeletePurgeFiles(*io_, *plan);
  return Ok();
}

Status StorageCatalog::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_RETURN_IF_ERROR(CheckName(from.ns, &from.name));
  FLOE_RETURN_IF_ERROR(CheckName(to.ns, &to.name));
  return NotSupported("a storage catalog cannot rename " + from.ToString() + " to " + to.ToString() +
                      ": a table is its folder, and moving a folder is not atomic (on object stores it is a copy) "
                      "nor safe against a commit landing in the old folder meanwhile");
}

Result<LoadedTable> StorageCatalog::RegisterTable(const TableIdentifier& id, const std::string& metadata_location) {
  FLOE_RETURN_IF_ERROR(CheckName(id.ns, &id.name));
  FLOE_ASSIGN_OR_RETURN(bool ns_exists, NamespaceExists(id.ns));
  if (!ns_exists) return NamespaceNotFound(NamespaceToString(id.ns));
  FLOE_ASSIGN_OR_RETURN(bool exists, TableExists(id));
  if (exists) return TableAlreadyExists(id.ToString());
  FLOE_ASSIGN_OR_RETURN(TableMetadata metadata, ReadMetadataFile(*io_, metadata_location));
  FLOE_ASSIGN_OR_RETURN(std::string bytes, io_->ReadAll(metadata_location));
  std::string location = TableFolder(id) + "/metadata/v1.metadata.json";
  auto created = io_->CreateIfAbsent(location, bytes);
  if (!created && created.error().kind == ErrorKind::kAlreadyExists) {
    return TableAlreadyExists(id.ToString());
  }
  FLOE_RETURN_IF_ERROR(created);
  (void)SwapPointer(PointerSwap{id, "", location});
  WaitForHintWrite();
  return LoadedTable{id, location, std::move(metadata)};
}

Result<LoadedTable> StorageCatalog::CommitTable(const TableCommit& commit) {
  FLOE_RETURN_IF_ERROR(CheckName(commit.id.ns, &commit.id.name));
  auto done = CommitTableVia(*this, *io_, commit);
  AfterCommit(commit.id, done ? &done->metadata_location : nullptr);
  return done;
}

Result<SharedTable> StorageCatalog::CommitSharedTable(const TableCommit& commit) {
  FLOE_RETURN_IF_ERROR(CheckName(commit.id.ns, &commit.id.name));
  auto done = CommitSharedTableVia(*this, *io_, commit);
  AfterCommit(commit.id, done ? &done->metadata_location : nullptr);
  return done;
}

Result<std::vector<LoadedTable>> StorageCatalog::CommitTransaction(const std::vector<TableCommit>& commits) {
  if (commits.size() > 1) {
    return NotSupported("a storage catalog cannot commit " + std::to_string(commits.size()) +
                        " tables atomically (each table's commit is its own file creation); commit them one by one "
                        "or use a SQL catalog");
  }
  for (const auto& c : commits) FLOE_RETURN_IF_ERROR(CheckName(c.id.ns, &c.id.name));
  auto done = CommitTransactionVia(*this, *io_, commits);
  for (size_t i = 0; i < commits.size(); ++i) {
    AfterCommit(commits[i].id, done ? &(*done)[i].metadata_location : nullptr);
  }
  return done;
}

}  // namespace floe
