#include "catalog/rest/rest_protocol.h"

#include <cctype>

#include "meta/metadata_json.h"
#include "util/strict_json.h"
#include "util/utf8.h"

namespace floe {
namespace {

using nlohmann::json;

bool IsUnreserved(unsigned char c) {
  return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Result<std::string> Decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%') {
      int hi = i + 2 < text.size() ? HexValue(text[i + 1]) : -1;
      int lo = i + 2 < text.size() ? HexValue(text[i + 2]) : -1;
      if (hi < 0 || lo < 0) return InvalidArgument("bad percent escape in '" + std::string(text) + "'");
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string PercentEncode(std::string_view text) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (IsUnreserved(c)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

Result<std::string> PercentDecode(std::string_view text) { return Decode(text, false); }

Result<std::vector<std::pair<std::string, std::string>>> ParseFormBody(std::string_view body) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t start = 0;
  while (start <= body.size()) {
    size_t amp = body.find('&', start);
    if (amp == std::string_view::npos) amp = body.size();
    std::string_view pair = body.substr(start, amp - start);
    start = amp + 1;
    if (pair.empty()) {
      if (amp == body.size()) break;
      continue;
    }
    size_t eq = pair.find('=');
    FLOE_ASSIGN_OR_RETURN(std::string key, Decode(pair.substr(0, eq), true));
    std::string value;
    if (eq != std::string_view::npos) {
      FLOE_ASSIGN_OR_RETURN(value, Decode(pair.substr(eq + 1), true));
    }
    out.emplace_back(std::move(key), std::move(value));
    if (amp == body.size()) break;
  }
  return out;
}

std::string NamespaceToPathSegment(const Namespace& ns) {
  std::string joined;
  for (size_t i = 0; i < ns.size(); ++i) {
    if (i) joined += kNamespaceSeparator;
    joined += ns[i];
  }
  return PercentEncode(joined);
}

Result<Namespace> NamespaceFromDecoded(std::string_view decoded) {
  Namespace ns;
  size_t start = 0;
  while (true) {
    size_t sep = decoded.find(kNamespaceSeparator, start);
    ns.emplace_back(decoded.substr(start, sep == std::string_view::npos ? std::string_view::npos : sep - start));
    if (sep == std::string_view::npos) break;
    start = sep + 1;
  }
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  return ns;
}

json ErrorModelJson(int code, std::string_view type, std::string_view message) {
  // A message may quote a request's bytes: escaped, so dumping it never throws.
  return json{{"error", {{"message", EscapeInvalidUtf8(message)}, {"type", EscapeInvalidUtf8(type)}, {"code", code}}}};
}

RestErrorInfo ParseErrorModel(int status, std::string_view body) {
  RestErrorInfo info;
  info.code = status;
  json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_object() && j.contains("error") && j["error"].is_object()) {
    const json& e = j["error"];
    if (e.contains("message") && e["message"].is_string()) info.message = e["message"].get<std::string>();
    if (e.contains("type") && e["type"].is_string()) info.type = e["type"].get<std::string>();
  }
  if (info.message.empty()) {
    std::string snippet(body.substr(0, 200));
    info.message = "HTTP " + std::to_string(status) + (snippet.empty() ? "" : ": " + snippet);
  }
  return info;
}

json NamespaceJson(const Namespace& ns) { return json(ns); }

Result<Namespace> NamespaceFromJson(const json& j, std::string_view field) {
  if (!j.is_array()) return InvalidArgument(std::string(field) + " must be an array of strings");
  Namespace ns;
  for (const auto& part : j) {
    if (!part.is_string()) return InvalidArgument(std::string(field) + " must be an array of strings");
    ns.push_back(part.get<std::string>());
  }
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  return ns;
}

json TableIdentifierJson(const TableIdentifier& id) { return json{{"namespace", id.ns}, {"name", id.name}}; }

Result<TableIdentifier> TableIdentifierFromJson(const json& j, std::string_view field) {
  if (!j.is_object()) return InvalidArgument(std::string(field) + " must be an object {namespace, name}");
  if (!j.contains("name") || !j["name"].is_string()) return InvalidArgument(std::string(field) + ".name must be a string");
  if (!j.contains("namespace")) return InvalidArgument(std::string(field) + ".namespace is missing");
  TableIdentifier id;
  FLOE_ASSIGN_OR_RETURN(id.ns, NamespaceFromJson(j["namespace"], std::string(field) + ".namespace"));
  id.name = j["name"].get<std::string>();
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  return id;
}

Result<Properties> StringMapFromJson(const json& j, std::string_view field) {
  Properties out;
  if (j.is_null()) return out;
  if (!j.is_object()) return InvalidArgument(std::string(field) + " must be an object of strings");
  for (const auto& [k, v] : j.items()) {
    if (!v.is_string()) return InvalidArgument(std::string(field) + "." + k + " must be a string");
    out[k] = v.get<std::string>();
  }
  return out;
}

json CreateTableJson(const std::string& name, const CreateTableRequest& request) {
  json j{{"name", name},
         {"schema", SchemaToJson(request.schema)},
         {"partition-spec", PartitionSpecToJson(request.spec)},
         {"write-order", SortOrderToJson(request.sort_order)},
         {"stage-create", false}};
  Properties props = request.properties;
  props["format-version"] = std::to_string(request.format_version);
  j["properties"] = props;
  if (request.location) j["location"] = *request.location;
  return j;
}

Result<RestCreateTable> CreateTableFromJson(const json& j) {
  RestCreateTable out;
  if (!j.contains("name") || !j["name"].is_string()) return InvalidArgument("name must be a string");
  out.name = j["name"].get<std::string>();
  if (!j.contains("schema") || !j["schema"].is_object()) return InvalidArgument("schema must be an object");
  auto schema = SchemaFromJson(j["schema"]);
  if (!schema) return InvalidArgument("schema: " + schema.error().message);
  out.request.schema = std::move(*schema);
  if (j.contains("partition-spec") && !j["partition-spec"].is_null()) {
    json spec = j["partition-spec"];
    if (!spec.is_object()) return InvalidArgument("partition-spec must be an object");
    auto parsed = PartitionSpecFromJson(spec, 0);
    if (!parsed) return InvalidArgument("partition-spec: " + parsed.error().message);
    out.request.spec = std::move(*parsed);
  }
  if (j.contains("write-order") && !j["write-order"].is_null()) {
    json order = j["write-order"];
    if (!order.is_object()) return InvalidArgument("write-order must be an object");
    if (!order.contains("order-id")) order["order-id"] = order.value("fields", json::array()).empty() ? 0 : 1;
    auto parsed = SortOrderFromJson(order);
    if (!parsed) return InvalidArgument("write-order: " + parsed.error().message);
    out.request.sort_order = std::move(*parsed);
  }
  if (j.contains("location") && !j["location"].is_null()) {
    if (!j["location"].is_string() || j["location"].get<std::string>().empty()) {
      return InvalidArgument("location must be a non-empty string");
    }
    out.request.location = j["location"].get<std::string>();
  }
  if (j.contains("stage-create") && !j["stage-create"].is_null()) {
    if (!j["stage-create"].is_boolean()) return InvalidArgument("stage-create must be a boolean");
    out.stage_create = j["stage-create"].get<bool>();
  }
  FLOE_ASSIGN_OR_RETURN(out.request.properties,
                        StringMapFromJson(j.contains("properties") ? j["properties"] : json(), "properties"));
  auto fv = out.request.properties.find("format-version");
  if (fv != out.request.properties.end()) {
    if (fv->second != "1" && fv->second != "2" && fv->second != "3") {
      return InvalidArgument("properties.format-version must be 1, 2 or 3, not '" + fv->second + "'");
    }
    out.request.format_version = std::stoi(fv->second);
    out.request.properties.erase(fv);
  }
  return out;
}

json LoadTableResultJson(const LoadedTable& table) {
  return json{{"metadata-location", table.metadata_location},
              {"metadata", TableMetadataToJson(table.metadata)},
              {"config", json::object()}};
}

Result<LoadedTable> LoadTableResultFromJson(const TableIdentifier& id, const json& j) {
  if (!j.is_object() || !j.contains("metadata")) return Corrupt("table response for " + id.ToString() + " has no metadata");
  LoadedTable out;
  out.id = id;
  if (j.contains("metadata-location") && j["metadata-location"].is_string()) {
    out.metadata_location = j["metadata-location"].get<std::string>();
  }
  auto metadata = TableMetadataFromJson(j["metadata"]);
  if (!metadata) return std::unexpected(metadata.error().WithContext("metadata of " + id.ToString() + " from the server"));
  out.metadata = std::move(*metadata);
  return out;
}

json CommitTableJson(const TableCommit& commit, bool with_identifier) {
  json requirements = json::array();
  for (const auto& r : commit.requirements) requirements.push_back(RequirementToJson(r));
  json updates = json::array();
  for (const auto& u : commit.updates) updates.push_back(UpdateToJson(u));
  json j{{"requirements", requirements}, {"updates", updates}};
  if (with_identifier) j["identifier"] = TableIdentifierJson(commit.id);
  return j;
}

Result<TableCommit> CommitTableFromJson(const json& j, const std::optional<TableIdentifier>& path_id) {
  if (!j.is_object()) return InvalidArgument("a table commit must be an object {identifier, requirements, updates}");
  TableCommit commit;
  if (j.contains("identifier") && !j["identifier"].is_null()) {
    FLOE_ASSIGN_OR_RETURN(commit.id, TableIdentifierFromJson(j["identifier"], "identifier"));
    if (path_id && !(commit.id == *path_id)) {
      return InvalidArgument("identifier " + commit.id.ToString() + " does not match the table in the path, " +
                             path_id->ToString());
    }
  } else if (path_id) {
    commit.id = *path_id;
  } else {
    return InvalidArgument("each table change needs an identifier");
  }
  // Missing or null lists are empty, as the reference (Java) parser takes them.
  static const json kEmpty = json::array();
  auto list = [&](const char* key) -> const json* {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return &kEmpty;
    return it->is_array() ? &*it : nullptr;
  };
  const json* requirements = list("requirements");
  if (!requirements) return InvalidArgument("requirements must be an array");
  const json* updates = list("updates");
  if (!updates) return InvalidArgument("updates must be an array");
  for (const auto& r : *requirements) {
    auto parsed = RequirementFromJson(r);
    if (!parsed) {
      std::string shown = r.dump(-1, ' ', false, json::error_handler_t::replace);
      if (shown.size() > 200) shown = shown.substr(0, 200) + "...";
      return InvalidArgument("requirement " + shown + ": " + parsed.error().message);
    }
    commit.requirements.push_back(std::move(*parsed));
  }
  for (const auto& u : *updates) {
    auto parsed = UpdateFromJson(u);
    if (!parsed) {
      std::string shown = u.dump(-1, ' ', false, json::error_handler_t::replace);
      if (shown.size() > 200) shown = shown.substr(0, 200) + "...";
      return InvalidArgument("update " + shown + ": " + parsed.error().message);
    }
    commit.updates.push_back(std::move(*parsed));
  }
  return commit;
}

Result<json> ParseJsonObject(std::string_view body) {
  FLOE_ASSIGN_OR_RETURN(json j, ParseStrictJson(body, "malformed JSON body"));
  if (!j.is_object()) return InvalidArgument("malformed JSON body: expected an object");
  return j;
}

}  // namespace floe
