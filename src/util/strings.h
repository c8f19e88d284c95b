// The small string helpers every room needs, in one place so that they agree on edge cases.
#pragma once

#include <string>
#include <string_view>

namespace floe {

// `s` without leading and trailing ASCII whitespace (space, \t, \n, \r, \v, \f).
std::string Trim(std::string_view s);

// `s` with A-Z turned into a-z; other bytes (UTF-8 included) unchanged.
std::string AsciiLower(std::string_view s);

// Two hex digits per byte, high nibble first.
enum class HexCase { kLower, kUpper };
std::string Hex(std::string_view bytes, HexCase letters = HexCase::kLower);

// A folder path or URI as it is stored and compared: trailing '/' removed, except that a path
// of slashes only stays "/" (the root is a folder too). "" stays "".
std::string TrimTrailingSlashes(std::string_view path);

// `folder` + "/" + `name`, with no doubled slash when the folder ends in '/' (the root "/"
// gives "/name"; an empty folder gives "/name" too).
std::string JoinPath(std::string_view folder, std::string_view name);

}  // namespace floe
