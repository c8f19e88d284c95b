// Table evolution: schema, partition spec, sort order and properties; what each asserts, how
// it races appends and other evolutions, and bad requests refused with nothing changed.
#include <atomic>
#include <thread>

#include <gtest/gtest.h>

#include "catalog/fault_injecting_catalog.h"
#include "rows/row_writes.h"
#include "commit/schema_update.h"
#include "commit/spec_update.h"
#include "rows/table_test_util.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::OnFirstAttempt;
using txn_test::Order;
using txn_test::OrdersTable;

std::string Location(OrdersTable& t) {
  auto loaded = t.catalog().LoadTable(t.id());
  EXPECT_TRUE(loaded.has_value());
  return loaded->metadata_location;
}

TEST(SchemaEvolution, AddRenamePromoteReorderKeepRowsReadable) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 100}})).has_value());
  auto added = AddColumn(t.catalog(), t.id(), "qty", Type::Int(), "items ordered");
  ASSERT_TRUE(added.has_value()) << added.error().message;
  const Schema& s1 = added->metadata.CurrentSchema();
  EXPECT_EQ(s1.schema_id(), 1);
  ASSERT_TRUE(s1.FindField("qty"));
  EXPECT_EQ(s1.FindField("qty")->id, 5);  // after last-column-id 4
  EXPECT_FALSE(s1.FindField("qty")->required);
  EXPECT_EQ(added->metadata.last_column_id, 5);

  auto changed = UpdateSchema(t.catalog(), t.id(),
                              SchemaUpdate()
                                  .UpdateColumnType("qty", Type::Long())
                                  .RenameColumn("amount_cents", "amount")
                                  .MoveFirst("country")
                                  .SetIdentifierFields({"order_id"}));
  ASSERT_TRUE(changed.has_value()) << changed.error().message;
  const Schema& s2 = changed->metadata.CurrentSchema();
  EXPECT_EQ(s2.fields()[0].name, "country");
  EXPECT_EQ(s2.FindField("qty")->type->id(), TypeId::kLong);
  EXPECT_EQ(s2.FindField("amount")->id, 3);
  EXPECT_EQ(s2.identifier_field_ids(), std::vector<int>{1});

  // The old file reads under the new schema: renamed column by id, new column null.
  auto rows = ReadTable(*t.catalog().io(), changed->metadata, ScanOptions{});
  ASSERT_TRUE(rows.has_value()) << rows.error().message;
  ASSERT_EQ(rows->num_rows, 1u);
  EXPECT_EQ(rows->Row(0)[rows->ColumnIndexByName("amount")].AsLong(), 100);
  EXPECT_EQ(rows->Row(0)[0].AsBytes(), "DE");
  EXPECT_TRUE(rows->Row(0)[rows->ColumnIndexByName("qty")].is_null());

  // Dropping the column is a new schema; the field id is never reused.
  auto dropped = DropColumn(t.catalog(), t.id(), "qty");
  ASSERT_TRUE(dropped.has_value()) << dropped.error().message;
  EXPECT_FALSE(dropped->metadata.CurrentSchema().FindField("qty"));
  auto readded = AddColumn(t.catalog(), t.id(), "qty", Type::Long());
  ASSERT_TRUE(readded.has_value());
  EXPECT_EQ(readded->metadata.CurrentSchema().FindField("qty")->id, 6);
}

TEST(SchemaEvolution, PlanAssertsSchemaIdAndLastFieldId) {
  OrdersTable t;
  auto plan = SchemaUpdate().AddColumn("note", Type::String()).Plan(t.Metadata());
  ASSERT_TRUE(plan.has_value());
  bool schema_id = false, field_id = false;
  for (const auto& r : plan->requirements) {
    schema_id |= std::holds_alternative<AssertCurrentSchemaId>(r);
    field_id |= std::holds_alternative<AssertLastAssignedFieldId>(r);
    EXPECT_FALSE(std::holds_alternative<AssertRefSnapshotId>(r));
  }
  EXPECT_TRUE(schema_id && field_id);
  ASSERT_EQ(plan->updates.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<AddSchema>(plan->updates[0]));
  EXPECT_TRUE(std::holds_alternative<SetCurrentSchema>(plan->updates[1]));
}

TEST(SchemaEvolution, ConcurrentAppendAndSchemaChangeBothLand) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  // The schema change is planned, then an append lands before it commits.
  auto plan = SchemaUpdate().AddColumn("note", Type::String()).Plan(t.Metadata());
  ASSERT_TRUE(plan.has_value());
  auto b = t.Open();
  ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{2, "DE", 2}})).has_value());
  auto committed = CommitMetadataChange(t.catalog(), t.id(), *plan);
  ASSERT_TRUE(committed.has_value()) << committed.error().message;
  // And an append whose swap is preceded by a schema change is retried and lands.
  RowWriteOptions options;
  options.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(AddColumn(*b, t.id(), "note2", Type::String()).has_value()); });
  auto appended = AppendBatch(t.catalog(), t.id(), Batch({{3, "FR", 3}}), options);
  ASSERT_TRUE(appended.has_value()) << appended.error().message;
  // It asserts only its branch, which the schema change did not move: it lands as it is.
  EXPECT_LE(appended->commit.attempts, 2);
  auto m = t.Metadata();
  EXPECT_TRUE(m.CurrentSchema().FindField("note"));
  EXPECT_TRUE(m.CurrentSchema().FindField("note2"));
  EXPECT_EQ(t.Rows().size(), 3u);
}

TEST(SchemaEvolution, SecondConflictingSchemaChangeIsRefused) {
  OrdersTable t;
  auto a = SchemaUpdate().AddColumn("note", Type::String()).Plan(t.Metadata());
  auto b = SchemaUpdate().RenameColumn("country", "nation").Plan(t.Metadata());
  ASSERT_TRUE(a.has_value() && b.has_value());
  ASSERT_TRUE(CommitMetadataChange(t.catalog(), t.id(), *b).has_value());
  const std::string before = Location(t);
  auto refused = CommitMetadataChange(t.catalog(), t.id(), *a);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kCommitConflict);
  EXPECT_NE(refused.error().message.find("Requirement failed: current schema changed"), std::string::npos)
      << refused.error().message;
  EXPECT_NE(refused.error().message.find("schema change"), std::string::npos);
  EXPECT_EQ(Location(t), before);
  EXPECT_FALSE(t.Metadata().CurrentSchema().FindField("note"));
  EXPECT_TRUE(t.Metadata().CurrentSchema().FindField("nation"));
}

TEST(SchemaEvolution, RacingFourAppenders) {
  OrdersTable t("country", {{"commit.retry.num-retries", "50"}});
  constexpr int kWriters = 4, kBatches = 6;
  std::atomic<int> failures{0};
  std::vector<std::string> errors(kWriters);
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      auto catalog = t.Open();
      for (int b = 0; b < kBatches; ++b) {
        int64_t base_id = (w * 100 + b) * 10;
        auto r = AppendBatch(*catalog, t.id(), Batch({{base_id, "DE", w}, {base_id + 1, "FR", b}}));
        if (!r) {
          ++failures;
          errors[w] = r.error().message;
        }
      }
    });
  }
  // Meanwhile: three schema changes, each planned fresh (a refused one is planned again, as a
  // user would after reloading).
  auto catalog = t.Open();
  int schema_changes = 0;
  for (const char* column : {"note", "channel", "region"}) {
    for (int tries = 0; tries < 20; ++tries) {
      auto r = AddColumn(*catalog, t.id(), column, Type::String());
      if (r) {
        ++schema_changes;
        break;
      }
      ASSERT_EQ(r.error().kind, ErrorKind::kCommitConflict) << r.error().message;
    }
  }
  for (auto& w : writers) w.join();
  EXPECT_EQ(failures.load(), 0) << errors[0] << errors[1] << errors[2] << errors[3];
  EXPECT_EQ(schema_changes, 3);

  auto m = t.Metadata();
  for (const char* column : {"note", "channel", "region"}) EXPECT_TRUE(m.CurrentSchema().FindField(column)) << column;
  auto rows = ReadTable(*t.catalog().io(), m, ScanOptions{});
  ASSERT_TRUE(rows.has_value()) << rows.error().message;
  ASSERT_EQ(rows->num_rows, static_cast<size_t>(kWriters * kBatches * 2));
  ASSERT_EQ(rows->fields.size(), 7u);  // read under the newest schema
  std::set<int64_t> ids;
  for (size_t r = 0; r < rows->num_rows; ++r) {
    auto row = rows->Row(r);
    ids.insert(row[0].AsLong());
    EXPECT_TRUE(row[rows->ColumnIndexByName("region")].is_null());
  }
  EXPECT_EQ(ids.size(), static_cast<size_t>(kWriters * kBatches * 2));  // each exactly once
}

TEST(SchemaEvolution, LostAnswersAreReconciled) {
  OrdersTable t;
  {
    // Applied, answer lost: the reload shows the column, so it is done (not added twice).
    FaultInjectingCatalog faulty(t.Open());
    faulty.DropAnswerWhen([](int call) { return call == 1; });
    auto r = AddColumn(faulty, t.id(), "note", Type::String());
    ASSERT_TRUE(r.has_value()) << r.error().message;
    EXPECT_EQ(faulty.commits_applied_but_unanswered(), 1);
  }
  {
    // Lost on its way: not visible after the reload, so it is sent again and lands once.
    FaultInjectingCatalog faulty(t.Open());
    faulty.FailBeforeApplyWhen([](int call) { return call == 1; });
    auto r = AddColumn(faulty, t.id(), "channel", Type::String());
    ASSERT_TRUE(r.has_value()) << r.error().message;
  }
  auto m = t.Metadata();
  EXPECT_EQ(m.schemas.size(), 3u);
  EXPECT_TRUE(m.CurrentSchema().FindField("note"));
  EXPECT_TRUE(m.CurrentSchema().FindField("channel"));
  EXPECT_EQ(m.last_column_id, 6);
}

TEST(SchemaEvolution, BadRequestsAreRefusedAndChangeNothing) {
  OrdersTable t;
  ASSERT_TRUE(SetIdentifierFields(t.catalog(), t.id(), {"order_id"}).has_value());
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  const std::string before = Location(t);
  struct Case {
    std::string expect;
    Result<LoadedTable> result;
  };
  std::vector<Case> cases;
  cases.push_back({"Cannot delete identifier field 'order_id'", DropColumn(t.catalog(), t.id(), "order_id")});
  cases.push_back({"Cannot change column type: amount_cents: long -> int",
                   UpdateColumnType(t.catalog(), t.id(), "amount_cents", Type::Int())});
  cases.push_back({"Cannot change column type: country: string -> long",
                   UpdateColumnType(t.catalog(), t.id(), "country", Type::Long())});
  cases.push_back({"Cannot add column 'country': a column of that name already exists",
                   AddColumn(t.catalog(), t.id(), "country", Type::String())});
  cases.push_back({"Cannot rename column 'country' to 'ts': a column of that name already exists",
                   RenameColumn(t.catalog(), t.id(), "country", "ts")});
  cases.push_back({"column 'nope' is not in the table's schema", DropColumn(t.catalog(), t.id(), "nope")});
  cases.push_back({"Cannot drop column 'country': partition field 'country'", DropColumn(t.catalog(), t.id(), "country")});
  cases.push_back({"no column named 'nope'", AddPartitionField(t.catalog(), t.id(), "day(nope)")});
  cases.push_back({"Cannot add duplicate partition field", AddPartitionField(t.catalog(), t.id(), "country")});
  cases.push_back({"Cannot remove partition field 'ts'", RemovePartitionField(t.catalog(), t.id(), "ts")});
  cases.push_back({"identifier field 'amount_cents' must be required",
                   SetIdentifierFields(t.catalog(), t.id(), {"amount_cents"})});
  cases.push_back({"no column named 'nope'", SetSortOrder(t.catalog(), t.id(), "nope desc")});
  for (const auto& c : cases) {
    ASSERT_FALSE(c.result.has_value()) << c.expect;
    EXPECT_EQ(c.result.error().kind, ErrorKind::kInvalidArgument) << c.result.error().message;
    EXPECT_NE(c.result.error().message.find(c.expect), std::string::npos)
        << "want '" << c.expect << "' in: " << c.result.error().message;
  }
  EXPECT_EQ(Location(t), before);  // nothing was committed
  EXPECT_EQ(t.Rows().size(), 1u);
}

TEST(SpecEvolution, NewSpecForNewFilesOldFilesKeepTheirs) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  auto plan = SpecUpdate().AddField("day(ts)").Plan(t.Metadata());
  ASSERT_TRUE(plan.has_value());
  bool spec_id = false, partition_id = false;
  for (const auto& r : plan->requirements) {
    spec_id |= std::holds_alternative<AssertDefaultSpecId>(r);
    partition_id |= std::holds_alternative<AssertLastAssignedPartitionId>(r);
  }
  EXPECT_TRUE(spec_id && partition_id);
  auto added = CommitMetadataChange(t.catalog(), t.id(), *plan);
  ASSERT_TRUE(added.has_value()) << added.error().message;
  EXPECT_EQ(added->metadata.default_spec_id, 1);
  ASSERT_EQ(added->metadata.DefaultSpec().fields().size(), 2u);
  EXPECT_EQ(added->metadata.DefaultSpec().fields()[1].field_id, 1001);
  EXPECT_EQ(added->metadata.DefaultSpec().fields()[1].name, "ts_day");
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{2, "FR", 2}})).has_value());

  auto removed = RemovePartitionField(t.catalog(), t.id(), "country");
  ASSERT_TRUE(removed.has_value()) << removed.error().message;
  EXPECT_EQ(removed->metadata.DefaultSpec().fields().size(), 1u);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{3, "NL", 3}})).has_value());
  // Re-adding country gets its old field id back.
  auto readded = AddPartitionField(t.catalog(), t.id(), "country");
  ASSERT_TRUE(readded.has_value()) << readded.error().message;
  EXPECT_EQ(readded->metadata.DefaultSpec().fields().back().field_id, 1000);

  auto tasks = PlanFiles(*t.catalog().io(), t.Metadata(), ScanOptions{});
  ASSERT_TRUE(tasks.has_value());
  std::set<int> specs;
  for (const auto& task : *tasks) specs.insert(task.file.spec_id);
  EXPECT_EQ(specs, (std::set<int>{0, 1, 2}));
  std::vector<Order> expected = {{1, "DE", 1}, {2, "FR", 2}, {3, "NL", 3}};
  EXPECT_EQ(t.Rows(), expected);
  // A filter on the partition column still finds rows across specs.
  ScanOptions by_country;
  by_country.filter_text = "country = 'FR'";
  auto fr = ReadTable(*t.catalog().io(), t.Metadata(), by_country);
  ASSERT_TRUE(fr.has_value());
  EXPECT_EQ(fr->num_rows, 1u);
}

TEST(SpecEvolution, TwoConflictingSpecChangesSecondRefused) {
  OrdersTable t;
  auto a = SpecUpdate().AddField("day(ts)").Plan(t.Metadata());
  auto b = SpecUpdate().AddField("bucket(4, order_id)").Plan(t.Metadata());
  ASSERT_TRUE(a.has_value() && b.has_value());
  ASSERT_TRUE(CommitMetadataChange(t.catalog(), t.id(), *a).has_value());
  auto refused = CommitMetadataChange(t.catalog(), t.id(), *b);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kCommitConflict);
  EXPECT_NE(refused.error().message.find("Requirement failed: default partition spec changed"), std::string::npos)
      << refused.error().message;
}

TEST(SortOrderAndProperties, SetAndAssert) {
  OrdersTable t;
  auto sorted = SetSortOrder(t.catalog(), t.id(), "country, order_id desc nulls first");
  ASSERT_TRUE(sorted.has_value()) << sorted.error().message;
  const SortOrder* order = sorted->metadata.SortOrderById(sorted->metadata.default_sort_order_id);
  ASSERT_TRUE(order);
  ASSERT_EQ(order->fields().size(), 2u);
  EXPECT_EQ(order->fields()[1].direction, SortDirection::kDescending);
  EXPECT_EQ(order->fields()[1].null_order, NullOrder::kNullsFirst);
  auto plan = PlanSortOrder(t.Metadata(), "order_id");
  ASSERT_TRUE(plan.has_value());
  EXPECT_TRUE(std::holds_alternative<AssertDefaultSortOrderId>(plan->requirements[1]));

  auto props = UpdateProperties(t.catalog(), t.id(), {{"owner", "sales"}, {"write.delete.mode", "merge-on-read"}});
  ASSERT_TRUE(props.has_value());
  EXPECT_EQ(props->metadata.properties.at("owner"), "sales");
  auto removed = UpdateProperties(t.catalog(), t.id(), {}, {"owner"});
  ASSERT_TRUE(removed.has_value());
  EXPECT_FALSE(removed->metadata.properties.count("owner"));
  auto both = UpdateProperties(t.catalog(), t.id(), {{"a", "1"}}, {"a"});
  ASSERT_FALSE(both.has_value());
}

}  // namespace
}  // namespace floe
