#include "server/access_log.h"

#include <nlohmann/json.hpp>
#include <gtest/gtest.h>

namespace floe {
namespace {

AccessLogEntry Sample() {
  AccessLogEntry e;
  e.request_id = "0123456789abcdef";
  e.time = "2026-12-01T10:00:00.000Z";
  e.remote = "127.0.0.1";
  e.principal = "alice";
  e.method = "POST";
  e.path = "/v1/namespaces/a/tables/t";
  e.route = "commit-table";
  e.table = "a.t";
  e.status = 200;
  e.latency_ms = 1.5;
  e.attempts = 2;
  return e;
}

TEST(AccessLog, TextLine) {
  EXPECT_EQ(FormatAccessLog(Sample(), AccessLogFormat::kText),
            "2026-12-01T10:00:00.000Z 0123456789abcdef 127.0.0.1 alice \"POST /v1/namespaces/a/tables/t\" "
            "commit-table a.t 200 1.500ms attempts=2");
  AccessLogEntry anonymous = Sample();
  anonymous.principal.clear();
  anonymous.table.clear();
  EXPECT_NE(FormatAccessLog(anonymous, AccessLogFormat::kText).find(" 127.0.0.1 - \"POST"), std::string::npos);
}

TEST(AccessLog, JsonLineParses) {
  auto line = nlohmann::json::parse(FormatAccessLog(Sample(), AccessLogFormat::kJson));
  EXPECT_EQ(line["principal"], "alice");
  EXPECT_EQ(line["status"], 200);
  EXPECT_EQ(line["attempts"], 2);
  EXPECT_EQ(line["table"], "a.t");
}

TEST(AccessLog, ClientTextCannotBreakTheLine) {
  AccessLogEntry e = Sample();
  e.path = "/v1/x\n2026-12-01 forged 200\"\xff";
  std::string text = FormatAccessLog(e, AccessLogFormat::kText);
  EXPECT_EQ(text.find('\n'), std::string::npos) << text;
  EXPECT_NE(text.find("\\x0a2026-12-01 forged 200\\x22\\xff"), std::string::npos) << text;
  std::string json = FormatAccessLog(e, AccessLogFormat::kJson);
  EXPECT_EQ(json.find('\n'), std::string::npos) << json;
  EXPECT_EQ(nlohmann::json::parse(json)["path"], "/v1/x\\x0a2026-12-01 forged 200\\x22\\xff") << json;
}

TEST(AccessLog, RequestIdsAreDistinctHex) {
  std::string a = NewRequestId(), b = NewRequestId();
  EXPECT_EQ(a.size(), 16u);
  EXPECT_NE(a, b);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
}

}  // namespace
}  // namespace floe
