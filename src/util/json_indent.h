// JSON text indented for people without parsing it.
#pragma once

#include <string>
#include <string_view>

namespace floe {

// Compact JSON text (as floe writes metadata) indented for people, keys kept in their order;
// linear in the text's size, unlike parsing into ordered_json (whose objects look up every key
// they insert). Text that is not JSON comes back with its structure characters indented anyway.
std::string IndentJson(std::string_view compact, int indent = 2);

}  // namespace floe
