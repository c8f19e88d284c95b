// Whether one location lies inside another, compared after normalization, never by string prefix.
//
// A location is a local path ("/w/t", "w/t", "file:///w/t", "file:/w/t") or an object-store URI
// ("s3://bucket/key", "s3a://bucket/key"). Normalizing gives a scheme and a list of path
// segments:
//   - local: the absolute path (relative ones against the working directory) with ".", ".." and
//     "//" resolved and symbolic links resolved through the part that exists, so a link inside
//     the warehouse that points outside it is seen as outside;
//   - object store: the scheme in lower case with s3a and s3n read as s3, then the bucket and the
//     key's segments; empty segments ("//") are dropped and a "." or ".." segment is refused,
//     since a store takes them literally while a reader may not.
// "/w/tab" is not inside "/w/t": whole segments are compared.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "floe/result.h"

namespace floe {

struct NormalLocation {
  std::string scheme;                 // "file", "s3", ...
  std::vector<std::string> segments;  // for an object store: bucket first

  std::string ToString() const;  // "/w/t" or "s3://bucket/key"
  // True when `this` equals `outer` or lies below it.
  bool IsWithin(const NormalLocation& outer) const;
  friend bool operator==(const NormalLocation&, const NormalLocation&) = default;
};

// InvalidArgument for an empty location, a NUL byte, a file URI of another host, or a "." / ".."
// segment in an object-store key.
Result<NormalLocation> NormalizeLocation(std::string_view location);

// `location` joined with a relative child path ("a/b"), as the catalogs build default locations.
std::string JoinLocation(std::string_view location, std::string_view child);

}  // namespace floe
