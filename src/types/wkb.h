// Well-known binary (OGC Simple Features / ISO WKB), the form geometry and geography values take
// in Iceberg: checked, and printed as well-known text.
//
// Handled: Point, LineString, Polygon, MultiPoint, MultiLineString, MultiPolygon and
// GeometryCollection, in 2D, Z, M and ZM (ISO codes 1000/2000/3000 above the base type), either byte
// order. Every count is checked against the bytes left, so hostile bytes give Corrupt naming the
// offset, never a read past the end or a huge allocation.
#pragma once

#include <string>
#include <string_view>

#include "floe/result.h"

namespace floe {

// "POINT (1 2)", "LINESTRING Z (0 0 1, 1 1 2)", "POLYGON EMPTY", ...; Corrupt when the bytes are
// not one whole WKB geometry.
Result<std::string> WkbToWkt(std::string_view wkb);

// Hex text ("0101000000...", either case) to bytes that are one valid WKB geometry;
// InvalidArgument naming what is wrong otherwise.
Result<std::string> WkbFromHex(std::string_view hex);

// Lower-case hex of the bytes.
std::string WkbHex(std::string_view wkb);

}  // namespace floe
