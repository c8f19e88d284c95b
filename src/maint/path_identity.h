// One spelling per file: metadata written by different engines names the same file in
// different ways (file:/x, file:///x, /x; s3://, s3a://, s3n://). Orphan removal compares
// what storage lists with what metadata reaches; a file reached under one spelling and listed
// under another is the same file and must never be taken for an orphan.
#pragma once

#include <string>
#include <string_view>

namespace floe {

// The canonical form of `path`: local paths lose their file: scheme ("file:///x", "file:/x",
// "file://localhost/x" -> "/x"); s3a:// and s3n:// become s3://; runs of '/' after the
// scheme's authority collapse to one. Anything else is kept as written (never URL-decoded).
std::string CanonicalPath(std::string_view path);

}  // namespace floe
