#include "util/json_indent.h"

#include <algorithm>

namespace floe {

std::string IndentJson(std::string_view text, int indent) {
  std::string out;
  out.reserve(text.size() * 2);
  int depth = 0;
  auto newline = [&] {
    out += '\n';
    out.append(static_cast<size_t>(std::max(depth, 0) * indent), ' ');
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {  // a string, escapes included, copied as it is
      size_t j = i + 1;
      while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
      out.append(text.substr(i, std::min(j, text.size() - 1) - i + 1));
      i = j;
      continue;
    }
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') continue;
    if (c == '{' || c == '[') {
      char close = c == '{' ? '}' : ']';
      size_t next = text.find_first_not_of(" \n\t\r", i + 1);
      if (next != std::string_view::npos && text[next] == close) {  // empty: {} or []
        out += c;
        out += close;
        i = next;
        continue;
      }
      out += c;
      ++depth;
      newline();
    } else if (c == '}' || c == ']') {
      --depth;
      newline();
      out += c;
    } else if (c == ',') {
      out += c;
      newline();
    } else if (c == ':') {
      out += ": ";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace floe
