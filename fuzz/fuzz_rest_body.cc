// libFuzzer target: REST request bodies through the parsers of every route, as the server
// reads them (strict JSON with its limits, then the route's own parser), and the parsed
// create and commit requests through the metadata builder.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "catalog/rest/rest_protocol.h"
#include "meta/metadata_builder.h"
#include "util/strict_json.h"

namespace {

using floe::TableIdentifier;
using nlohmann::json;

// A small table to commit onto.
const floe::TableMetadata& Base() {
  static const floe::TableMetadata base = [] {
    auto request = floe::CreateTableFromJson(json::parse(
        R"({"name":"t","schema":{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","type":"long","required":true}]}})"));
    auto updates = floe::NewTableUpdates(request->request.schema, request->request.spec, request->request.sort_order,
                                         "/w/db/t", {}, 2);
    return *floe::ApplyCommit(nullptr, "", {floe::AssertCreate{}}, *updates, 1000);
  }();
  return base;
}

void Route(uint8_t selector, const json& body) {
  switch (selector % 6) {
    case 0: {  // POST namespaces
      if (body.contains("namespace")) (void)floe::NamespaceFromJson(body["namespace"], "namespace");
      (void)floe::StringMapFromJson(body.contains("properties") ? body["properties"] : json(), "properties");
      break;
    }
    case 1: {  // POST tables
      auto create = floe::CreateTableFromJson(body);
      if (!create) break;
      const auto& r = create->request;
      auto updates = floe::NewTableUpdates(r.schema, r.spec, r.sort_order, r.location.value_or("/w/db/t"), r.properties,
                                           r.format_version);
      if (updates) (void)floe::ApplyCommit(nullptr, "", {floe::AssertCreate{}}, *updates, 1000);
      break;
    }
    case 2: {  // POST tables/{table}
      auto commit = floe::CommitTableFromJson(body, TableIdentifier{{"db"}, "t"});
      if (commit) (void)floe::ApplyCommit(&Base(), "/w/db/t/metadata/v1.metadata.json", commit->requirements, commit->updates, 2000);
      break;
    }
    case 3: {  // POST transactions/commit
      if (!body.contains("table-changes") || !body["table-changes"].is_array()) break;
      for (const auto& change : body["table-changes"]) (void)floe::CommitTableFromJson(change, std::nullopt);
      break;
    }
    case 4: {  // POST tables/rename
      (void)floe::TableIdentifierFromJson(body.value("source", json()), "source");
      (void)floe::TableIdentifierFromJson(body.value("destination", json()), "destination");
      break;
    }
    case 5: {  // POST namespaces/{ns}/properties
      (void)floe::StringMapFromJson(body.contains("updates") ? body["updates"] : json(), "updates");
      break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  auto body = floe::ParseStrictJson(text, "body");
  if (!body || !body->is_object()) return 0;
  Route(data[0], *body);
  (void)body->dump(-1, ' ', false, json::error_handler_t::replace);
  return 0;
}
