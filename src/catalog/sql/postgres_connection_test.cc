// PostgresConnection after its connection died under it (the database restarted, the network
// dropped it, an administrator ended the session): a read outside a transaction reconnects and
// answers; a statement inside a transaction fails and the transaction is not silently replaced.
// Needs FLOE_TEST_PG_URI (scripts/pg.sh).
#include "catalog/sql/postgres_connection.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace floe {
namespace {

class PostgresConnectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* uri = std::getenv("FLOE_TEST_PG_URI");
    if (!uri || !*uri) GTEST_SKIP() << "skipped: FLOE_TEST_PG_URI not set";
    auto a = PostgresConnection::Open(uri);
    auto b = PostgresConnection::Open(uri);
    ASSERT_TRUE(a && b);
    victim_ = std::move(*a);
    admin_ = std::move(*b);
  }

  // Ends the victim's session from the other connection, as an administrator or a database
  // restart would: its backend closes the socket, and the victim's libpq does not know yet.
  void TerminateVictim() {
    auto pid = victim_->Query("SELECT pg_backend_pid()");
    ASSERT_TRUE(pid) << pid.error().ToString();
    auto ended = admin_->Query("SELECT pg_terminate_backend(?::int, 5000)", {(*pid)[0][0]});
    ASSERT_TRUE(ended) << ended.error().ToString();
    ASSERT_EQ((*ended)[0][0], std::optional<std::string>("t"));
  }

  std::unique_ptr<PostgresConnection> victim_, admin_;
};

TEST_F(PostgresConnectionTest, AReadOnADeadConnectionReconnectsAndAnswers) {
  // A prepared statement, as the catalog's reads are: it dies with the connection too.
  ASSERT_TRUE(victim_->Query("SELECT ?::int + 1", {std::string("1")}));
  TerminateVictim();
  auto read = victim_->Query("SELECT ?::int + 1", {std::string("41")});
  ASSERT_TRUE(read) << read.error().ToString();
  EXPECT_EQ((*read)[0][0], std::optional<std::string>("42"));
  // And again: the new connection is healthy.
  auto again = victim_->Query("SELECT 7");
  ASSERT_TRUE(again) << again.error().ToString();
  EXPECT_EQ((*again)[0][0], std::optional<std::string>("7"));
}

TEST_F(PostgresConnectionTest, AStatementInATransactionOnADeadConnectionFailsAndIsNotResent) {
  ASSERT_TRUE(victim_->BeginWrite());
  TerminateVictim();
  auto read = victim_->Query("SELECT 1");
  ASSERT_FALSE(read) << "a read inside a transaction that died must not answer from a new session";
  EXPECT_EQ(read.error().kind, ErrorKind::kUnavailable) << read.error().ToString();
  victim_->Rollback();
  // The next statement, outside any transaction, gets a fresh connection.
  auto after = victim_->Query("SELECT 2");
  ASSERT_TRUE(after) << after.error().ToString();
}

TEST_F(PostgresConnectionTest, ACommitWhoseConnectionDiedIsUnknownNotRefused) {
  ASSERT_TRUE(victim_->BeginWrite());
  TerminateVictim();
  auto committed = victim_->Commit();
  ASSERT_FALSE(committed);
  // The server rolled back, but a client cannot tell a lost COMMIT answer from that.
  EXPECT_EQ(committed.error().kind, ErrorKind::kCommitStateUnknown) << committed.error().ToString();
}

}  // namespace
}  // namespace floe
