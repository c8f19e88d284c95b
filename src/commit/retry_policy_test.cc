// commit.retry.*: Iceberg's defaults, the table's values, a clear refusal of a bad value that
// commits nothing, and both limits (retries and total time) ending a commit, a transaction and
// a metadata change with an error that says how many attempts, over how long, and which limit.
#include <gtest/gtest.h>

#include "commit/metadata_commit.h"
#include "commit/operations.h"
#include "commit/retry_policy.h"
#include "rows/row_writes.h"
#include "commit/spec_update.h"
#include "commit/transaction.h"
#include "rows/table_test_util.h"
#include "util/clock.h"
#include "write/data_writer.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::OrdersTable;

TEST(RetryPolicy, IcebergsDefaultsAndTheTablesValues) {
  auto defaults = RetryPolicy::FromProperties({});
  ASSERT_TRUE(defaults.has_value());
  EXPECT_EQ(defaults->num_retries, 4);
  EXPECT_EQ(defaults->min_wait_ms, 100);
  EXPECT_EQ(defaults->max_wait_ms, 60000);
  EXPECT_EQ(defaults->total_timeout_ms, 1800000);

  auto set = RetryPolicy::FromProperties({{"commit.retry.num-retries", "9"},
                                          {"commit.retry.min-wait-ms", "5"},
                                          {"commit.retry.max-wait-ms", "3"},  // below min: min wins
                                          {"commit.retry.total-timeout-ms", "0"}});
  ASSERT_TRUE(set.has_value());
  EXPECT_EQ(set->num_retries, 9);
  EXPECT_EQ(set->min_wait_ms, 5);
  EXPECT_EQ(set->max_wait_ms, 5);
  EXPECT_EQ(set->total_timeout_ms, 0);
  EXPECT_FALSE(set->MayRetry(1, 0.0)) << "a zero total timeout allows no retry";
}

TEST(RetryPolicy, ABadValueIsRefusedNamingTheProperty) {
  for (const std::string bad : {"lots", "-1", "2.5", "", "7 "}) {
    auto policy = RetryPolicy::FromProperties({{"commit.retry.min-wait-ms", bad}});
    ASSERT_FALSE(policy.has_value()) << "'" << bad << "'";
    EXPECT_EQ(policy.error().kind, ErrorKind::kInvalidArgument);
    EXPECT_NE(policy.error().message.find("commit.retry.min-wait-ms='" + bad + "' is not valid"), std::string::npos)
        << policy.error().message;
  }
}

TEST(RetryPolicy, SettingABadValueIsRefusedNamingThePropertyAndChangesNothing) {
  OrdersTable t;
  const std::string before = t.catalog().LoadTable(t.id())->metadata_location;
  auto set = UpdateProperties(t.catalog(), t.id(), {{"commit.retry.num-retries", "lots"}, {"owner", "sales"}});
  ASSERT_FALSE(set.has_value());
  EXPECT_EQ(set.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(set.error().message.find("commit.retry.num-retries='lots'"), std::string::npos) << set.error().message;
  EXPECT_EQ(t.catalog().LoadTable(t.id())->metadata_location, before);
  EXPECT_FALSE(t.Metadata().properties.count("owner"));
}

// Written by an engine that did not check it, the value is refused when a commit needs it.
TEST(RetryPolicy, ACommitOnATableWithABadValueIsRefusedAndChangesNothing) {
  OrdersTable t;
  txn_test::SetPropertyUnchecked(t, "commit.retry.num-retries", "lots");
  const std::string before = t.catalog().LoadTable(t.id())->metadata_location;
  auto appended = AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}}));
  ASSERT_FALSE(appended.has_value());
  EXPECT_NE(appended.error().message.find("commit.retry.num-retries='lots'"), std::string::npos)
      << appended.error().message;
  EXPECT_EQ(t.catalog().LoadTable(t.id())->metadata_location, before);
  EXPECT_TRUE(t.Rows().empty());
  // The data files written for the refused commit are removed (empty folders may stay).
  for (const auto& entry : std::filesystem::recursive_directory_iterator(t.dir()))
    EXPECT_FALSE(entry.is_regular_file() && entry.path().extension() == ".parquet") << entry.path();
}

// B lands a row at every attempt of A: A can only give up.
TEST(RetryPolicy, TheTotalTimeoutEndsACommitThatKeepsLosing) {
  OrdersTable t("country", {{"commit.retry.num-retries", "1000000"},
                            {"commit.retry.min-wait-ms", "1"},
                            {"commit.retry.max-wait-ms", "2"},
                            {"commit.retry.total-timeout-ms", "150"}});
  auto b = t.Open();
  int64_t next_id = 100;
  RowWriteOptions a_options;
  a_options.commit.before_swap = [&](int) {
    ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{next_id++, "FR", 1}})).has_value());
  };
  const int64_t start = MonotonicMicros();
  auto a = AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}}), a_options);
  const double elapsed_ms = (MonotonicMicros() - start) / 1000.0;
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().kind, ErrorKind::kCommitConflict);
  const std::string& message = a.error().message;
  EXPECT_NE(message.find("commit.retry.total-timeout-ms=150"), std::string::npos) << message;
  EXPECT_NE(message.find("gave up after"), std::string::npos) << message;
  EXPECT_NE(message.find(" ms ("), std::string::npos) << message;
  EXPECT_NE(message.find("what kept conflicting"), std::string::npos) << message;
  EXPECT_GE(elapsed_ms, 150.0);
  for (const auto& order : t.Rows()) EXPECT_NE(order.order_id, 1) << "A's row never landed";
}

TEST(RetryPolicy, ATransactionHonoursBothLimits) {
  for (const bool by_time : {false, true}) {
    OrdersTable t("country", {{"commit.retry.num-retries", by_time ? "1000000" : "2"},
                              {"commit.retry.min-wait-ms", "1"},
                              {"commit.retry.max-wait-ms", "2"},
                              {"commit.retry.total-timeout-ms", by_time ? "150" : "1800000"}});
    auto b = t.Open();
    int64_t next_id = 100;
    Transaction tx(t.catalog(), t.id());
    ASSERT_TRUE(tx.Begin().has_value());
    DataWriter writer(*t.catalog().io(), tx.staged());
    ASSERT_TRUE(writer.Write(Batch({{1, "DE", 1}})).has_value());
    tx.AddOperation(std::make_unique<FilesOperation>(
        OverwriteByFilter(txn_test::Where("country = 'DE'"), *writer.Finish(), std::nullopt,
                          IsolationLevel::kSnapshot)));
    CommitOptions options;
    options.before_swap = [&](int) {
      ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{next_id++, "FR", 1}})).has_value());
    };
    auto committed = tx.Commit(options);
    ASSERT_FALSE(committed.has_value());
    const std::string& message = committed.error().message;
    EXPECT_NE(message.find("transaction on sales.orders gave up after"), std::string::npos) << message;
    EXPECT_NE(message.find(by_time ? "commit.retry.total-timeout-ms=150" : "after 3 attempts"), std::string::npos)
        << message;
    EXPECT_NE(message.find(" ms ("), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace floe
