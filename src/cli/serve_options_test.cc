// floe serve refuses what it cannot use before it listens: a bad option is a usage error (exit 2)
// naming the option, a tokens file it cannot read or use is an error (exit 1) naming the file.
#include "cli/cli_test_fixture.h"

namespace {

using floe_cli_test::FloeCli;

using ServeOptionsCli = FloeCli;

TEST_F(ServeOptionsCli, BadOptionsAreUsageErrorsNamingTheOption) {
  struct Case {
    const char* args;
    const char* message;
  };
  for (const Case& c : {Case{"--listen nocolon", "floe: --listen expects HOST:PORT"},
                        Case{"--listen 127.0.0.1:99999", "floe: --listen: port 99999 is out of range"},
                        Case{"--stop-timeout -1", "floe: --stop-timeout must be 0 or more seconds"},
                        Case{"--maintain-every 5q", "floe: --maintain-every: duration '5q'"},
                        Case{"--log-format xml", "floe: --log-format must be text, json or off, not 'xml'"},
                        Case{"--token nonsense", "floe: --token: principal 'nonsense'"},
                        Case{"--listen 0.0.0.0:0", "floe: refusing to listen on 0.0.0.0 without tokens"},
                        Case{"--threads 0", "floe: threads must be at least 1"}}) {
    auto run = Floe(std::string("serve ") + c.args);
    EXPECT_EQ(run.status, 2) << c.args << ": " << run.out;
    EXPECT_EQ(run.out.rfind(c.message, 0), 0u) << c.args << ": " << run.out;
    EXPECT_EQ(run.out.find("listening"), std::string::npos) << c.args;
  }
}

TEST_F(ServeOptionsCli, ATokensFileItCannotUseIsAnErrorNamingTheFileAndLine) {
  auto missing = Floe("serve --tokens-file missing-tokens");
  EXPECT_EQ(missing.status, 1) << missing.out;
  EXPECT_EQ(missing.out, "floe: cannot read tokens file missing-tokens\n");

  Write("tokens", "# principals\nalice:short:read@*\n");
  auto bad = Floe("serve --tokens-file tokens");
  EXPECT_EQ(bad.status, 1) << bad.out;
  EXPECT_EQ(bad.out.rfind("floe: tokens line 2: principal alice:", 0), 0u) << bad.out;
}

}  // namespace
