#include "parquet/metrics.h"

#include <algorithm>
#include <cctype>
#include <functional>

namespace floe::parquet {

Result<MetricsMode> ParseMetricsMode(std::string_view text) {
  std::string t;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) t.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (t == "none") return MetricsMode{MetricsMode::kNone, 0};
  if (t == "counts") return MetricsMode{MetricsMode::kCounts, 0};
  if (t == "full") return MetricsMode{MetricsMode::kFull, 0};
  if (t.starts_with("truncate(") && t.ends_with(")")) {
    std::string num = t.substr(9, t.size() - 10);
    if (!num.empty() && num.size() < 9 && std::all_of(num.begin(), num.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      int n = std::stoi(num);
      if (n > 0) return MetricsMode{MetricsMode::kTruncate, n};
    }
  }
  return InvalidArgument("invalid metrics mode '" + std::string(text) + "' (expected none, counts, full or truncate(N) with N > 0)");
}

Result<std::map<int, MetricsMode>> ResolveMetricsModes(const Schema& schema,
                                                       const std::map<std::string, std::string>& properties) {
  MetricsMode def;
  if (auto it = properties.find("write.metadata.metrics.default"); it != properties.end()) {
    auto m = ParseMetricsMode(it->second);
    if (!m) return std::unexpected(m.error().WithContext("write.metadata.metrics.default"));
    def = *m;
  }
  std::map<int, MetricsMode> out;
  std::function<Status(const std::vector<NestedField>&)> walk = [&](const std::vector<NestedField>& fields) -> Status {
    for (const auto& f : fields) {
      if (f.type->is_nested()) {
        FLOE_RETURN_IF_ERROR(walk(f.type->fields()));
        continue;
      }
      MetricsMode mode = def;
      std::string key = "write.metadata.metrics.column." + schema.FindColumnName(f.id);
      if (auto it = properties.find(key); it != properties.end()) {
        auto m = ParseMetricsMode(it->second);
        if (!m) return std::unexpected(m.error().WithContext(key));
        mode = *m;
      }
      out[f.id] = mode;
    }
    return Ok();
  };
  FLOE_RETURN_IF_ERROR(walk(schema.fields()));
  return out;
}

namespace {

// Byte length of the UTF-8 sequence starting with lead byte c (1 for stray bytes).
size_t Utf8Length(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c >> 5) == 0x6) return 2;
  if ((c >> 4) == 0xe) return 3;
  if ((c >> 3) == 0x1e) return 4;
  return 1;
}

// Byte offsets where each of the first n code points of s starts, plus the end of the n-th.
std::vector<size_t> CodePointStarts(const std::string& s, int n, bool* truncated) {
  std::vector<size_t> starts;
  size_t i = 0;
  while (i < s.size() && static_cast<int>(starts.size()) < n) {
    starts.push_back(i);
    i += Utf8Length(static_cast<unsigned char>(s[i]));
    if (i > s.size()) i = s.size();
  }
  *truncated = i < s.size();
  starts.push_back(i);
  return starts;
}

uint32_t DecodeCodePoint(const std::string& s, size_t begin, size_t end) {
  unsigned char c = s[begin];
  size_t len = end - begin;
  if (len == 1) return c;
  uint32_t cp = c & (0xff >> (len + 1));
  for (size_t k = begin + 1; k < end; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[k]) & 0x3f);
  return cp;
}

void EncodeCodePoint(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out->push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

}  // namespace

std::string TruncateLowerString(const std::string& s, int n) {
  bool truncated;
  auto starts = CodePointStarts(s, n, &truncated);
  return s.substr(0, starts.back());
}

std::optional<std::string> TruncateUpperString(const std::string& s, int n) {
  bool truncated;
  auto starts = CodePointStarts(s, n, &truncated);
  if (!truncated) return s;
  // Increment the last code point that can be incremented, dropping those after it.
  for (size_t k = starts.size() - 1; k-- > 0;) {
    uint32_t cp = DecodeCodePoint(s, starts[k], starts[k + 1]);
    uint32_t next = cp + 1;
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;  // surrogates are not code points
    if (next > 0x10ffff) continue;
    std::string out = s.substr(0, starts[k]);
    EncodeCodePoint(next, &out);
    return out;
  }
  return std::nullopt;
}

std::string TruncateLowerBinary(const std::string& s, int n) { return s.substr(0, static_cast<size_t>(n)); }

std::optional<std::string> TruncateUpperBinary(const std::string& s, int n) {
  if (s.size() <= static_cast<size_t>(n)) return s;
  std::string out = s.substr(0, static_cast<size_t>(n));
  while (!out.empty()) {
    unsigned char last = static_cast<unsigned char>(out.back());
    if (last != 0xff) {
      out.back() = static_cast<char>(last + 1);
      return out;
    }
    out.pop_back();
  }
  return std::nullopt;
}

}  // namespace floe::parquet
