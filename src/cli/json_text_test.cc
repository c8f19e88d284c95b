#include "cli/json_text.h"

#include <gtest/gtest.h>

namespace floe::cli {
namespace {

TEST(JsonText, InvalidUtf8IsReplacedNotThrown) {
  nlohmann::json j = {{"path", std::string("a\xff" "b")}};
  EXPECT_EQ(JsonText(j), "{\"path\":\"a\xef\xbf\xbd" "b\"}");
  nlohmann::ordered_json o = {{"k", std::string("\xc3")}};
  EXPECT_NO_THROW(JsonText(o, 2));
}

}  // namespace
}  // namespace floe::cli
