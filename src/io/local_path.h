// Locations as the local file system sees them.
//
// Iceberg metadata names files by URI ("file:///w/t/data/a.parquet"), tools
// and people by path ("/w/t/data/a.parquet", "warehouse/t"). Both reach the
// same file. Nothing is URL-decoded: fixtures have file names with "%3A" in
// them, and those three characters are part of the name.
#pragma once

#include <string>
#include <string_view>

#include "floe/result.h"

namespace floe {

// The file-system path of a location:
//   "file:///a/b", "file:/a/b", "file://localhost/a/b"  -> "/a/b"
//   "/a/b", "a/b", "./a"                                 -> unchanged
// InvalidArgument for an empty location, a NUL byte, a file URI naming
// another host or a relative path ("file:a/b"); NotSupported for another
// scheme ("s3://bucket/key").
Result<std::string> LocalPath(std::string_view location);

// Whether `location` starts with a URI scheme and "://" (as "s3://b/k" does
// and "/a/b" or "a:b" do not), or is a "file:" URI.
bool HasUriScheme(std::string_view location);

// The folder part of a path: everything before its last '/' ("/a/b" -> "/a",
// "/a" -> "/", "a" -> "."). A trailing '/' is ignored ("/a/b/" -> "/a").
std::string ParentPath(std::string_view path);

}  // namespace floe
