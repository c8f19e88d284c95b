#include "types/wkb.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

std::string Wkt(const std::string& hex) {
  auto bytes = WkbFromHex(hex);
  EXPECT_TRUE(bytes) << bytes.error().message;
  if (!bytes) return "";
  auto wkt = WkbToWkt(*bytes);
  EXPECT_TRUE(wkt) << wkt.error().message;
  return wkt ? *wkt : "";
}

TEST(Wkb, PrintsWellKnownText) {
  EXPECT_EQ(Wkt("0101000000000000000000f03f0000000000000040"), "POINT (1 2)");
  // big-endian point
  EXPECT_EQ(Wkt("00000000013ff00000000000004000000000000000"), "POINT (1 2)");
  EXPECT_EQ(Wkt("010200000002000000" "00000000000000000000000000000000" "000000000000f03f000000000000f03f"),
            "LINESTRING (0 0, 1 1)");
  EXPECT_EQ(Wkt("010200000000000000"), "LINESTRING EMPTY");
  EXPECT_EQ(Wkt("0101000000000000000000f87f000000000000f87f"), "POINT EMPTY");
  // POINT Z (1 2 3): ISO code 1001
  EXPECT_EQ(Wkt("01e9030000000000000000f03f00000000000000400000000000000840"), "POINT Z (1 2 3)");
  // MULTIPOINT ((1 2), (1 2))
  EXPECT_EQ(Wkt("010400000002000000" "0101000000000000000000f03f0000000000000040"
                "0101000000000000000000f03f0000000000000040"),
            "MULTIPOINT ((1 2), (1 2))");
  // POLYGON with one ring of 4 points
  EXPECT_EQ(Wkt("01030000000100000004000000"
                "00000000000000000000000000000000" "000000000000f03f0000000000000000"
                "000000000000f03f000000000000f03f" "00000000000000000000000000000000"),
            "POLYGON ((0 0, 1 0, 1 1, 0 0))");
}

TEST(Wkb, HostileBytesGiveClearErrors) {
  auto err = [](const std::string& hex) {
    auto r = WkbFromHex(hex);
    EXPECT_FALSE(r);
    return r ? std::string() : r.error().message;
  };
  EXPECT_NE(err("0101").find("runs past the end"), std::string::npos);
  EXPECT_NE(err("02").find("byte order 2"), std::string::npos);
  EXPECT_NE(err("0109000000").find("geometry type 9"), std::string::npos);
  EXPECT_NE(err("010200000000ffffff").find("exceed the bytes left"), std::string::npos);
  EXPECT_NE(err("0zz").find("odd number"), std::string::npos);
  EXPECT_NE(err("zz").find("non-hex"), std::string::npos);
  EXPECT_NE(err("0101000000000000000000f03f000000000000004000").find("follow the geometry"), std::string::npos);
  // a MULTIPOINT holding a LINESTRING
  EXPECT_NE(err("010400000001000000010200000000000000").find("is not a POINT"), std::string::npos);
}

}  // namespace
}  // namespace floe
