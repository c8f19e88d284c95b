// The format 3 types' names: parsed and printed as Iceberg's JSON spells them.
#include <gtest/gtest.h>

#include "types/type.h"

namespace floe {
namespace {

TEST(TypesV3, ParseAndPrint) {
  for (const char* name : {"timestamp_ns", "timestamptz_ns", "unknown", "variant", "geometry", "geography",
                           "geometry(srid:4326)", "geography(srid:4326)", "geography(srid:4326, karney)"}) {
    auto t = Type::ParsePrimitive(name);
    ASSERT_TRUE(t) << name << ": " << t.error().message;
    EXPECT_EQ((*t)->ToString(), name);
    EXPECT_TRUE((*t)->NeedsFormatV3()) << name;
  }
  // Defaults are filled in and elided when printed; the CRS compares without case.
  auto g = Type::ParsePrimitive("geography(OGC:CRS84, spherical)");
  ASSERT_TRUE(g);
  EXPECT_EQ((*g)->ToString(), "geography");
  EXPECT_EQ((*g)->crs(), "OGC:CRS84");
  EXPECT_EQ((*g)->algorithm(), "spherical");
  EXPECT_EQ((*Type::ParsePrimitive("geometry(ogc:crs84)"))->ToString(), "geometry");
  EXPECT_TRUE(Type::Geometry("EPSG:3857")->Equals(*Type::Geometry("epsg:3857")));
  EXPECT_FALSE(Type::Geometry("EPSG:3857")->Equals(*Type::Geometry()));
  EXPECT_FALSE(Type::Geography("srid:4326", "karney")->Equals(*Type::Geography("srid:4326")));
  EXPECT_FALSE(Type::Long()->NeedsFormatV3());
}

TEST(TypesV3, BadParametersAreRefused) {
  auto bad_algorithm = Type::ParsePrimitive("geography(srid:4326, flat)");
  ASSERT_FALSE(bad_algorithm);
  EXPECT_NE(bad_algorithm.error().message.find("edge algorithm 'flat'"), std::string::npos);
  EXPECT_FALSE(Type::ParsePrimitive("geometry()"));
  EXPECT_FALSE(Type::ParsePrimitive("geography( , karney)"));
  EXPECT_FALSE(Type::ParsePrimitive("variant(1)"));
}

}  // namespace
}  // namespace floe
