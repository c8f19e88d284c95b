// Locating values in JSON text without parsing it: the top-level object's members and, for
// array values, their elements, as byte spans.
//
// The scan follows JSON's structure (strings with their escapes, nested objects and arrays,
// whitespace, commas and colons between tokens) but does not check the tokens themselves: a
// number is "whatever runs up to the next delimiter", and brackets are counted, not matched by
// kind. So a span is exact for valid JSON, and a caller that needs validity still has a JSON
// parser check what it uses (metadata_reuse.cc does). nullopt means the text does not have the
// expected shape as far as the scan can tell; callers then fall back to a full parse.
#pragma once

#include <cstddef>
#include <functional>
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
  std::vector<Span> elements;  // when the value is an array: its elements, in order
};

// How long the element of top-level array `key` starting at `begin` is, when the caller
// already knows: the bytes from `begin` on equal a complete JSON value it has seen before (a
// valid value's text fixes its own end). 0 when it does not know; the element is then scanned.
// `index` is the element's position in its array.
using KnownElement = std::function<size_t(std::string_view key, size_t index, size_t begin)>;

// The members of the object that is the whole of `text` (whitespace around it allowed), in
// document order, duplicates included; the commas and whitespace between array elements are
// checked too.
std::optional<std::vector<Member>> ObjectMembers(std::string_view text, const KnownElement& known = nullptr);

}  // namespace floe::json_scan
