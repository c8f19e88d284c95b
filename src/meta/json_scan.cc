#include "meta/json_scan.h"

#include <cstring>

namespace floe::json_scan {
namespace {

constexpr size_t kFail = std::string_view::npos;

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

size_t SkipSpace(std::string_view t, size_t i) {
  while (i < t.size() && IsSpace(t[i])) ++i;
  return i;
}

// `i` is at an opening quote; returns the position after the closing one. Strings are most
// of a metadata document's bytes, so the closing quote is found with memchr and confirmed by
// counting the backslashes before it (an odd count escapes it).
size_t SkipString(std::string_view t, size_t i) {
  const char* base = t.data();
  size_t pos = i + 1;
  while (pos < t.size()) {
    const void* q = std::memchr(base + pos, '"', t.size() - pos);
    if (!q) return kFail;
    const size_t quote = static_cast<size_t>(static_cast<const char*>(q) - base);
    size_t backslashes = 0;
    while (quote - backslashes > i + 1 && t[quote - backslashes - 1] == '\\') ++backslashes;
    if (backslashes % 2 == 0) return quote + 1;
    pos = quote + 1;
  }
  return kFail;
}

bool EndsScalar(char c) { return IsSpace(c) || c == ',' || c == '}' || c == ']' || c == ':'; }

// `i` is at the first byte of a value; returns the position after it.
size_t SkipValue(std::string_view t, size_t i) {
  if (i >= t.size()) return kFail;
  const char c = t[i];
  if (c == '"') return SkipString(t, i);
  if (c == '{' || c == '[') {
    size_t depth = 0;
    while (i < t.size()) {
      const char d = t[i];
      if (d == '"') {
        i = SkipString(t, i);
        if (i == kFail) return kFail;
        continue;
      }
      if (d == '{' || d == '[') {
        ++depth;
      } else if (d == '}' || d == ']') {
        if (--depth == 0) return i + 1;
      }
      ++i;
    }
    return kFail;
  }
  if (c == '}' || c == ']' || c == ',' || c == ':' || IsSpace(c)) return kFail;
  while (i < t.size() && !EndsScalar(t[i]) && t[i] != '"' && t[i] != '{' && t[i] != '[') ++i;
  return i;
}

// `i` is at '['; fills `elements` and returns the position after the closing ']'.
size_t ScanArray(std::string_view text, size_t i, std::string_view key, const KnownElement& known,
                 std::vector<Span>& elements) {
  i = SkipSpace(text, i + 1);
  if (i < text.size() && text[i] == ']') return i + 1;
  while (true) {
    const size_t given = known ? known(key, elements.size(), i) : 0;
    const size_t end = given > 0 ? i + given : SkipValue(text, i);
    if (end == kFail || end > text.size()) return kFail;
    elements.push_back(Span{i, end});
    i = SkipSpace(text, end);
    if (i >= text.size()) return kFail;
    if (text[i] == ']') return i + 1;
    if (text[i] != ',') return kFail;
    i = SkipSpace(text, i + 1);
  }
}

}  // namespace

std::optional<std::vector<Member>> ObjectMembers(std::string_view text, const KnownElement& known) {
  size_t i = SkipSpace(text, 0);
  if (i >= text.size() || text[i] != '{') return std::nullopt;
  std::vector<Member> members;
  i = SkipSpace(text, i + 1);
  if (i < text.size() && text[i] == '}') {
    i = SkipSpace(text, i + 1);
    if (i != text.size()) return std::nullopt;
    return members;
  }
  while (true) {
    if (i >= text.size() || text[i] != '"') return std::nullopt;
    const size_t key_end = SkipString(text, i);
    if (key_end == kFail) return std::nullopt;
    Member member;
    member.raw_key = text.substr(i + 1, key_end - i - 2);
    i = SkipSpace(text, key_end);
    if (i >= text.size() || text[i] != ':') return std::nullopt;
    i = SkipSpace(text, i + 1);
    const size_t value_end = i < text.size() && text[i] == '['
                                 ? ScanArray(text, i, member.raw_key, known, member.elements)
                                 : SkipValue(text, i);
    if (value_end == kFail) return std::nullopt;
    member.value = Span{i, value_end};
    members.push_back(std::move(member));
    i = SkipSpace(text, value_end);
    if (i >= text.size()) return std::nullopt;
    if (text[i] == '}') break;
    if (text[i] != ',') return std::nullopt;
    i = SkipSpace(text, i + 1);
  }
  i = SkipSpace(text, i + 1);
  if (i != text.size()) return std::nullopt;
  return members;
}

}  // namespace floe::json_scan
