// Locating values in JSON text without parsing it: the top-level object's members and the
// elements of an array, as byte spans.
//
// The scan follows JSON's structure (strings with their escapes, nested objects and arrays,
// whitespace, commas and colons between tokens) but does not check the tokens themselves: a
// number is "whatever runs up to the next delimiter", and brackets are counted, not matched by
// kind. So a span is exact for valid JSON, and a caller that needs validity still has a JSON
// parser check what it uses (metadata_reuse.cc does). nullopt means the text does not have the
// expected shape as far as the scan can tell; callers then fall back to a full parse.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace floe::json_scan {

struct Span {
  size_t begin = 0;
  size_t end = 0;  // one past the value's last byte
  std::string_view Of(std::string_view text) const { return text.substr(begin, end - begin); }
};

struct Member {
  std::string_view raw_key;  // the bytes between the key's quotes, escapes not decoded
  Span value;
};

// The members of the object that is the whole of `text` (whitespace around it allowed), in
// document order, duplicates included.
std::optional<std::vector<Member>> ObjectMembers(std::string_view text);

// The elements of the array spanning `array` in `text` (`array` starts at '[' and ends after
// its ']'), in order; also checks the commas and whitespace between them.
std::optional<std::vector<Span>> ArrayElements(std::string_view text, Span array);

}  // namespace floe::json_scan
