#include "catalog/catalog_uri.h"

#include <cctype>

#include "io/s3_config.h"

namespace floe {
namespace {

bool IsFloeParam(std::string_view key) { return key == "warehouse" || key == "catalog" || IsS3Property(key); }

Result<std::string> DecodeQueryValue(std::string_view s, std::string_view uri) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%') {
      if (i + 2 >= s.size() || !std::isxdigit(static_cast<unsigned char>(s[i + 1])) ||
          !std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
        return InvalidArgument("catalog URI '" + std::string(uri) + "': bad percent escape in its query");
      }
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else if (s[i] == '+') {
      out += ' ';
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

Result<CatalogUri> ParseCatalogUri(std::string_view uri) {
  size_t colon = uri.find(':');
  if (colon == std::string_view::npos || colon == 0) {
    return InvalidArgument("catalog URI '" + std::string(uri) +
                           "' has no scheme: use sqlite:///path/catalog.db, postgresql://user@host:port/db, "
                           "file:///path/warehouse, s3://bucket/prefix or http(s)://host:port");
  }
  CatalogUri out;
  for (char c : uri.substr(0, colon)) out.scheme += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (out.scheme == "postgres") out.scheme = "postgresql";

  std::string_view rest = uri.substr(colon + 1);
  std::string_view query;
  size_t q = rest.find('?');
  if (q != std::string_view::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }

  // Split the query into floe's parameters and the backend's.
  std::string backend_query;
  size_t start = 0;
  while (start < query.size()) {
    size_t amp = query.find('&', start);
    if (amp == std::string_view::npos) amp = query.size();
    std::string_view pair = query.substr(start, amp - start);
    start = amp + 1;
    if (pair.empty()) continue;
    size_t eq = pair.find('=');
    std::string_view key = pair.substr(0, eq);
    if (IsFloeParam(key)) {
      if (eq == std::string_view::npos || eq + 1 == pair.size()) {
        return InvalidArgument("catalog URI '" + std::string(uri) + "': parameter " + std::string(key) + " has no value");
      }
      FLOE_ASSIGN_OR_RETURN(out.floe_params[std::string(key)], DecodeQueryValue(pair.substr(eq + 1), uri));
    } else {
      if (!backend_query.empty()) backend_query += '&';
      backend_query += pair;
    }
  }
  out.backend_uri = std::string(uri.substr(0, colon + 1)) + std::string(rest);
  if (!backend_query.empty()) out.backend_uri += "?" + backend_query;

  if (out.scheme == "s3" || out.scheme == "s3a") {
    out.path = out.scheme + ":" + std::string(rest);  // checked by ParseS3Location where it is used
  }
  if (out.scheme == "sqlite" || out.scheme == "file") {
    // "scheme:///abs" -> "/abs"; "scheme://rel" and "scheme:rel" -> "rel".
    std::string_view path = rest;
    if (path.substr(0, 2) == "//") path.remove_prefix(2);
    out.path = std::string(path);
    if (out.path.empty()) {
      return InvalidArgument("catalog URI '" + std::string(uri) + "' names no " +
                             (out.scheme == "sqlite" ? "database file" : "warehouse folder"));
    }
  }
  return out;
}

}  // namespace floe
