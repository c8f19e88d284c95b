// UTF-8 validity, and showing text that is not valid UTF-8 without failing.
#pragma once

#include <string>
#include <string_view>

namespace floe {

// Well-formed UTF-8 as RFC 3629 defines it: no overlong forms, no surrogates, nothing past
// U+10FFFF, no truncated sequence.
bool IsValidUtf8(std::string_view text);

// `text` with each byte that is not part of a well-formed sequence written as "\xNN" (and a
// backslash that could be read as such an escape doubled); valid text comes back unchanged.
std::string EscapeInvalidUtf8(std::string_view text);

}  // namespace floe
