// The route table (server/rest_routes.cc): what a path names, the methods an Allow header lists,
// and the endpoints GET /v1/config advertises, all read from the one table.
#include "server/rest_routes.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(RestRoutes, PathsWithAndWithoutThePrefixNameTheSameRoute) {
  for (const std::string path : {"/v1/namespaces/db/tables/t", "/v1/cat/namespaces/db/tables/t"}) {
    auto route = ParseRoute(path, "cat");
    ASSERT_TRUE(route.has_value()) << path << ": " << route.error().message;
    EXPECT_EQ(route->path, "/v1/{prefix}/namespaces/{namespace}/tables/{table}");
    EXPECT_EQ(route->ns, (Namespace{"db"}));
    EXPECT_EQ(route->table, "t");
    EXPECT_EQ(RouteName(*route, "GET"), "load-table");
    EXPECT_EQ(RouteName(*route, "POST"), "commit-table");
    EXPECT_EQ(RouteName(*route, "DELETE"), "drop-table");
    EXPECT_EQ(RouteName(*route, "PUT"), "no-route");
    EXPECT_EQ(AllowedMethods(*route), "GET, HEAD, POST, DELETE");
  }
  auto ns = ParseRoute("/v1/namespaces/a%1Fb", "cat");
  ASSERT_TRUE(ns.has_value());
  EXPECT_EQ(ns->ns, (Namespace{"a", "b"}));  // %1F separates the levels of a namespace
  EXPECT_EQ(AllowedMethods(*ns), "GET, HEAD, DELETE");
}

TEST(RestRoutes, UnknownPathsAndPrefixesAreNotFoundAndBadNamesInvalid) {
  for (const std::string path : {"", "v1/config", "/v1", "/v1/", "/v1//namespaces", "/v1/namespaces/db/tables/t/sign",
                                 "/v1/namespaces/db/nothing", "/nothing"}) {
    auto route = ParseRoute(path, "cat");
    ASSERT_FALSE(route.has_value()) << path;
    EXPECT_EQ(route.error().kind, ErrorKind::kNotFound) << path;
  }
  auto other_prefix = ParseRoute("/v1/other/namespaces", "cat");
  ASSERT_FALSE(other_prefix.has_value());
  EXPECT_EQ(other_prefix.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(other_prefix.error().message.find("no such catalog prefix 'other'"), std::string::npos);
  // An encoded '/' stays inside its segment and is refused as part of a name.
  auto slash = ParseRoute("/v1/namespaces/db/tables/a%2Fb", "cat");
  ASSERT_FALSE(slash.has_value());
  EXPECT_EQ(slash.error().kind, ErrorKind::kInvalidArgument);
  auto escape = ParseRoute("/v1/namespaces/%zz", "cat");
  ASSERT_FALSE(escape.has_value());
  EXPECT_EQ(escape.error().kind, ErrorKind::kInvalidArgument);
}

TEST(RestRoutes, ServerRoutesAndTheWebView) {
  auto config = ParseRoute("/v1/config", "cat");
  ASSERT_TRUE(config.has_value());
  EXPECT_EQ(AllowedMethods(*config), "GET, HEAD");
  EXPECT_FALSE(IsPublicRoute(*config));
  auto tokens = ParseRoute("/v1/oauth/tokens", "cat");
  ASSERT_TRUE(tokens.has_value());
  EXPECT_EQ(AllowedMethods(*tokens), "POST");
  EXPECT_TRUE(IsPublicRoute(*tokens));  // the token endpoint needs no token
  for (const std::string path : {"/ui", "/ui/", "/ui/namespaces/db/tables/t", "/ui//x"}) {
    auto ui = ParseRoute(path, "cat");
    ASSERT_TRUE(ui.has_value()) << path;
    EXPECT_EQ(RouteName(*ui, "GET"), "ui") << path;  // the web view parses its own pages
  }
  EXPECT_FALSE(ParseRoute("/uix", "cat").has_value());
  auto list = ParseRoute("/v1/namespaces", "cat");
  ASSERT_TRUE(list.has_value());
  EXPECT_NE(FindRoute(*list, "HEAD"), nullptr);  // Allow lists HEAD, so HEAD is served
  EXPECT_EQ(FindRoute(*list, "DELETE"), nullptr);
}

TEST(RestRoutes, ConfigAdvertisesEveryCatalogEndpointOnce) {
  const std::vector<std::string> endpoints = SupportedEndpoints();
  EXPECT_EQ(endpoints.size(), 24u);
  EXPECT_EQ(endpoints.front(), "GET /v1/{prefix}/namespaces");
  EXPECT_EQ(endpoints.back(), "POST /v1/{prefix}/views/rename");
  // The spec's view endpoints, as Iceberg's clients look them up before using views.
  for (const char* view_endpoint :
       {"GET /v1/{prefix}/namespaces/{namespace}/views", "POST /v1/{prefix}/namespaces/{namespace}/views",
        "GET /v1/{prefix}/namespaces/{namespace}/views/{view}", "HEAD /v1/{prefix}/namespaces/{namespace}/views/{view}",
        "POST /v1/{prefix}/namespaces/{namespace}/views/{view}",
        "DELETE /v1/{prefix}/namespaces/{namespace}/views/{view}", "POST /v1/{prefix}/views/rename",
        "POST /v1/{prefix}/namespaces/{namespace}/register-view"}) {
    EXPECT_EQ(std::count(endpoints.begin(), endpoints.end(), view_endpoint), 1) << view_endpoint;
  }
  auto view = ParseRoute("/v1/cat/namespaces/db/views/daily", "cat");
  ASSERT_TRUE(view.has_value());
  EXPECT_EQ(view->table, "daily");
  EXPECT_EQ(RouteName(*view, "POST"), "replace-view");
  auto bad_view = ParseRoute("/v1/cat/namespaces/db/views/a%2Fb", "cat");
  ASSERT_FALSE(bad_view.has_value());
  EXPECT_NE(bad_view.error().message.find("view"), std::string::npos) << bad_view.error().message;
  EXPECT_EQ(std::count(endpoints.begin(), endpoints.end(), "HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}"), 1);
  EXPECT_EQ(std::count(endpoints.begin(), endpoints.end(), "HEAD /v1/{prefix}/namespaces"), 0);  // not in the spec
  for (const auto& e : endpoints) EXPECT_EQ(e.find("/metrics "), std::string::npos) << e;
}

}  // namespace
}  // namespace floe
