#include <gtest/gtest.h>

#include "catalog/catalog.h"
#include "catalog/catalog_uri.h"

namespace floe {
namespace {

TEST(CatalogNames, NamespaceTextRoundTrips) {
  auto ns = ParseNamespace("a.b.c");
  ASSERT_TRUE(ns);
  EXPECT_EQ(*ns, (Namespace{"a", "b", "c"}));
  EXPECT_EQ(NamespaceToString(*ns), "a.b.c");
}

TEST(CatalogNames, BadNamespacesAreRefusedByName) {
  for (std::string text : std::vector<std::string>{"", "a..b", ".a", "a.", "a./", "a/b", "a\\b", "..", std::string("a\tb")}) {
    auto ns = ParseNamespace(text);
    ASSERT_FALSE(ns) << text;
    EXPECT_EQ(ns.error().kind, ErrorKind::kInvalidArgument);
  }
  auto err = ParseNamespace("db.x/y").error().message;
  EXPECT_NE(err.find("'x/y'"), std::string::npos) << err;
  auto ctl = ParseNamespace(std::string("db.a\x01")).error().message;
  EXPECT_NE(ctl.find("\\x01"), std::string::npos) << ctl;
}

TEST(CatalogNames, TableIdentifierSplitsAtTheLastDot) {
  auto id = TableIdentifier::Parse("a.b.events");
  ASSERT_TRUE(id);
  EXPECT_EQ(id->ns, (Namespace{"a", "b"}));
  EXPECT_EQ(id->name, "events");
  EXPECT_EQ(id->ToString(), "a.b.events");
  EXPECT_FALSE(TableIdentifier::Parse("events"));
  EXPECT_FALSE(TableIdentifier::Parse("db."));
  EXPECT_FALSE(TableIdentifier::Parse("db.."));
  EXPECT_FALSE(TableIdentifier::Parse(".t"));
}

TEST(CatalogNames, ValidateNameNamesTheProblem) {
  EXPECT_TRUE(ValidateName("events_2024", "table"));
  EXPECT_TRUE(ValidateName("x.y", "table"));  // a table name may hold a dot; a namespace part may not
  auto e = ValidateName("..", "table");
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("table name '..'"), std::string::npos) << e.error().message;
  EXPECT_FALSE(ValidateNamespace({"a.b"}));
  EXPECT_FALSE(ValidateNamespace({}));
  EXPECT_FALSE(ValidateName(std::string("a\x7f"), "table"));
}

// Each name is a folder of a path and each level a parent listed: both are bounded, and the
// refusal names the limit.
TEST(CatalogNames, NameLengthAndNamespaceDepthAreBounded) {
  EXPECT_TRUE(ValidateName(std::string(255, 'n'), "table"));
  auto long_name = ValidateName(std::string(256, 'n'), "table");
  ASSERT_FALSE(long_name);
  EXPECT_EQ(long_name.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(long_name.error().message.find("256 bytes long; the limit is 255 bytes"), std::string::npos)
      << long_name.error().message;
  EXPECT_LT(long_name.error().message.size(), 200u) << "the name is shortened in the message";
  EXPECT_TRUE(ValidateNamespace(Namespace(16, "x")));
  auto deep = ValidateNamespace(Namespace(100000, "x"));
  ASSERT_FALSE(deep);
  EXPECT_NE(deep.error().message.find("100000 levels; the limit is 16 (namespace depth)"), std::string::npos)
      << deep.error().message;
  EXPECT_FALSE(ParseNamespace(std::string(300, 'a')));
}

TEST(CatalogUri, SchemesPathsAndFloeParameters) {
  auto s = ParseCatalogUri("sqlite:///tmp/x/catalog.db");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->scheme, "sqlite");
  EXPECT_EQ(s->path, "/tmp/x/catalog.db");
  EXPECT_EQ(ParseCatalogUri("sqlite://rel/c.db")->path, "rel/c.db");
  EXPECT_EQ(ParseCatalogUri("sqlite:rel/c.db")->path, "rel/c.db");

  auto pg = ParseCatalogUri("postgres://u@h:5432/db?sslmode=disable&warehouse=%2Fw%20h&catalog=prod");
  ASSERT_TRUE(pg);
  EXPECT_EQ(pg->scheme, "postgresql");
  EXPECT_EQ(pg->floe_params.at("warehouse"), "/w h");
  EXPECT_EQ(pg->floe_params.at("catalog"), "prod");
  EXPECT_EQ(pg->backend_uri, "postgres://u@h:5432/db?sslmode=disable");

  EXPECT_EQ(ParseCatalogUri("file:///w")->path, "/w");
  EXPECT_FALSE(ParseCatalogUri("no-scheme"));
  EXPECT_FALSE(ParseCatalogUri("sqlite://"));
  EXPECT_FALSE(ParseCatalogUri("postgresql://h/db?warehouse="));
}

TEST(CatalogUri, OpenCatalogRefusesWhatItCannotServe) {
  auto unknown = OpenCatalog("ftp://x");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().kind, ErrorKind::kInvalidArgument);
  auto pg_no_warehouse = OpenCatalog("postgresql://nobody@127.0.0.1:1/db");
  ASSERT_FALSE(pg_no_warehouse);
  EXPECT_EQ(pg_no_warehouse.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(pg_no_warehouse.error().message.find("warehouse"), std::string::npos);
}

}  // namespace
}  // namespace floe
