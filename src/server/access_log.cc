#include "server/access_log.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/uuid.h"

namespace floe {
namespace {

// Printable ASCII stays; everything else (control characters, bytes of other encodings) is
// written as \xHH, so one request is always one line and the log stays valid text.
std::string Printable(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"') out += static_cast<char>(c);
    else out += fmt::format("\\x{:02x}", c);
  }
  return out;
}

std::string OrDash(const std::string& text) { return text.empty() ? "-" : Printable(text); }

}  // namespace

std::string FormatAccessLog(const AccessLogEntry& e, AccessLogFormat format) {
  if (format == AccessLogFormat::kJson) {
    nlohmann::json line = {{"time", Printable(e.time)},     {"request_id", Printable(e.request_id)},
                           {"remote", Printable(e.remote)}, {"principal", Printable(e.principal)},
                           {"method", Printable(e.method)}, {"path", Printable(e.path)},
                           {"route", Printable(e.route)},   {"table", Printable(e.table)},
                           {"status", e.status},            {"latency_ms", e.latency_ms},
                           {"attempts", e.attempts}};
    return line.dump();
  }
  return fmt::format("{} {} {} {} \"{} {}\" {} {} {} {:.3f}ms attempts={}", OrDash(e.time), OrDash(e.request_id),
                     OrDash(e.remote), OrDash(e.principal), OrDash(e.method), OrDash(e.path), OrDash(e.route),
                     OrDash(e.table), e.status, e.latency_ms, e.attempts);
}

std::string NewRequestId() { return RandomUuidString().substr(0, 8) + RandomUuidString().substr(0, 8); }

}  // namespace floe
