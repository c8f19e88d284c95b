// The wire forms of the Iceberg REST catalog protocol that floe's server and client share
// (fixtures/rest/rest-catalog-open-api.yaml): namespaces in paths, the ErrorModel, and the
// request/response objects for tables and commits.
//
// Every FromJson function checks types field by field and returns InvalidArgument naming the
// field; none throws.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"

namespace floe {

// The unit separator that joins namespace levels in a path segment or the `parent` parameter.
inline constexpr char kNamespaceSeparator = '\x1f';

// Percent-encodes everything but RFC 3986 unreserved characters.
std::string PercentEncode(std::string_view text);
// Decodes %XX escapes; a malformed escape is InvalidArgument. '+' stays '+' (paths, not forms).
Result<std::string> PercentDecode(std::string_view text);
// Decodes an application/x-www-form-urlencoded body into key/value pairs ('+' is a space).
Result<std::vector<std::pair<std::string, std::string>>> ParseFormBody(std::string_view body);

// "a%1Fb" for {"a","b"}: one path segment.
std::string NamespaceToPathSegment(const Namespace& ns);
// The decoded segment split on 0x1F; every level is validated (ValidateNamespace).
Result<Namespace> NamespaceFromDecoded(std::string_view decoded);

// {"error": {"message", "type", "code"}}.
nlohmann::json ErrorModelJson(int code, std::string_view type, std::string_view message);
struct RestErrorInfo {
  int code = 0;
  std::string type;     // e.g. "NoSuchTableException"; empty when the body had none
  std::string message;  // the server's message, or a description of the raw body
};
RestErrorInfo ParseErrorModel(int status, std::string_view body);

nlohmann::json NamespaceJson(const Namespace& ns);
Result<Namespace> NamespaceFromJson(const nlohmann::json& j, std::string_view field);
nlohmann::json TableIdentifierJson(const TableIdentifier& id);
Result<TableIdentifier> TableIdentifierFromJson(const nlohmann::json& j, std::string_view field);
// A JSON object of strings; a missing (null) value is an empty map.
Result<Properties> StringMapFromJson(const nlohmann::json& j, std::string_view field);

struct RestCreateTable {
  std::string name;
  CreateTableRequest request;
  bool stage_create = false;
};
nlohmann::json CreateTableJson(const std::string& name, const CreateTableRequest& request);
// The `format-version` property, if given, becomes request.format_version (Iceberg reserves it).
Result<RestCreateTable> CreateTableFromJson(const nlohmann::json& j);

// LoadTableResult / CommitTableResponse: {"metadata-location", "metadata", "config"}.
nlohmann::json LoadTableResultJson(const LoadedTable& table);
Result<LoadedTable> LoadTableResultFromJson(const TableIdentifier& id, const nlohmann::json& j);

// CommitTableRequest. `identifier` is written when `with_identifier` (transactions need it).
nlohmann::json CommitTableJson(const TableCommit& commit, bool with_identifier);
// `path_id`: the table named by the URL (single-table route); a body identifier must match it.
// Missing or null `requirements` / `updates` are empty lists, as Java's parser takes them.
Result<TableCommit> CommitTableFromJson(const nlohmann::json& j, const std::optional<TableIdentifier>& path_id);

// Parses a JSON request body strictly (util/strict_json.h: nesting at most 64 deep, no key
// twice in an object, nothing after the value, UTF-8); InvalidArgument "malformed JSON body:
// ..." when it is not such JSON or not an object.
Result<nlohmann::json> ParseJsonObject(std::string_view body);

}  // namespace floe
