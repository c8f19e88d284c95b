// The public API (include/floe/) end to end, with the error kinds its comments promise.
#include <filesystem>

#include <gtest/gtest.h>

#include "floe/floe.h"
#include "io/memory_file_io.h"
#include "util/uuid.h"

namespace floe {
namespace {

class PublicApi : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() / ("floe-api-" + RandomUuidString().substr(0, 12))).string();
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Uri() const { return "sqlite://" + dir_ + "/catalog.db"; }

  Table CreateOrders(Connection& catalog) {
    EXPECT_TRUE(catalog.CreateNamespace("sales").has_value());
    TableDefinition definition;
    definition.schema = "order_id long not null, country string, amount decimal(10,2), ts timestamp, ok boolean";
    definition.partition_by = "country";
    auto table = catalog.CreateTable("sales.orders", definition);
    EXPECT_TRUE(table.has_value()) << table.error().message;
    return *table;
  }

  static Rows Orders(std::vector<std::pair<int64_t, std::string>> orders) {
    Rows rows;
    rows.columns = {"order_id", "country"};
    for (auto& [id, country] : orders) rows.rows.push_back({id, country});
    return rows;
  }

  std::string dir_;
};

TEST_F(PublicApi, CatalogCallsAndTheirErrorKinds) {
  auto catalog = Connection::Open(Uri());
  ASSERT_TRUE(catalog.has_value()) << catalog.error().message;
  Table orders = CreateOrders(*catalog);
  EXPECT_EQ(orders.name(), "sales.orders");
  EXPECT_EQ(catalog->CreateNamespace("sales").error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(catalog->CreateTable("sales.orders", {.schema = "a long"}).error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(catalog->CreateTable("nowhere.t", {.schema = "a long"}).error().kind, ErrorKind::kNotFound);
  auto bad_schema = catalog->CreateTable("sales.bad", {.schema = "a lng"});
  ASSERT_FALSE(bad_schema.has_value());
  EXPECT_EQ(bad_schema.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(catalog->LoadTable("sales.missing").error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(Connection::Open("ftp://x").error().kind, ErrorKind::kInvalidArgument);

  EXPECT_EQ(*catalog->ListNamespaces(), std::vector<std::string>{"sales"});
  EXPECT_EQ(*catalog->ListTables("sales"), std::vector<std::string>{"sales.orders"});
  auto schema = orders.SchemaText();
  ASSERT_TRUE(schema.has_value());
  EXPECT_NE(schema->find("order_id long not null"), std::string::npos) << *schema;
  ASSERT_TRUE(catalog->DropTable("sales.orders", /*purge=*/true).has_value());
  EXPECT_TRUE(catalog->ListTables("sales")->empty());
  EXPECT_EQ(catalog->DropTable("sales.orders").error().kind, ErrorKind::kNotFound);
}

// A format 3 table (the reserved property format-version chooses it): merge-on-read deletes
// through the public API are deletion vectors, and read back.
TEST_F(PublicApi, DeletesOnAFormat3TableAreDeletionVectors) {
  auto catalog = Connection::Open(Uri());
  ASSERT_TRUE(catalog.has_value());
  ASSERT_TRUE(catalog->CreateNamespace("sales").has_value());
  auto orders = catalog->CreateTable(
      "sales.v3", {.schema = "order_id long not null, country string",
                   .partition_by = "country",
                   .properties = {{"format-version", "3"}, {"write.delete.mode", "merge-on-read"}}});
  ASSERT_TRUE(orders.has_value()) << orders.error().message;
  ASSERT_TRUE(orders->Append(Orders({{1, "DE"}, {2, "DE"}, {3, "FR"}})).has_value());
  for (const char* where : {"order_id = 1", "order_id = 3"}) {
    auto filter = Filter::Parse(where);
    ASSERT_TRUE(filter.has_value());
    auto deleted = orders->Delete(*filter);
    ASSERT_TRUE(deleted.has_value()) << deleted.error().message;
    EXPECT_EQ(deleted->rows_deleted, 1);
  }
  auto left = orders->Scan();
  ASSERT_TRUE(left.has_value()) << left.error().message;
  ASSERT_EQ(left->size(), 1u);
  EXPECT_EQ(std::get<int64_t>(left->At(0, "order_id")), 2);
  auto snapshots = orders->Snapshots();
  ASSERT_TRUE(snapshots.has_value());
  EXPECT_EQ(snapshots->back().summary.at("added-dvs"), "1");
  EXPECT_EQ(snapshots->back().summary.count("added-position-delete-files"), 0u);
}

TEST_F(PublicApi, CellsAreCastToTheColumnTypesAndReadBack) {
  auto catalog = Connection::Open(Uri());
  ASSERT_TRUE(catalog.has_value());
  Table orders = CreateOrders(*catalog);
  Rows rows;
  rows.columns = {"order_id", "country", "amount", "ts", "ok"};
  rows.rows = {{int64_t{1}, std::string("DE"), std::string("12.50"), std::string("2026-12-01T09:00:00"), true},
               {int64_t{2}, std::monostate{}, 7.25, std::monostate{}, false}};
  auto appended = orders.Append(rows);
  ASSERT_TRUE(appended.has_value()) << appended.error().message;
  EXPECT_TRUE(appended->committed);
  EXPECT_EQ(appended->rows_added, 2);
  EXPECT_EQ(appended->attempts, 1);

  auto filter = Filter::Parse("order_id = 1");
  ASSERT_TRUE(filter.has_value());
  auto read = orders.Scan({.filter = *filter});
  ASSERT_TRUE(read.has_value()) << read.error().message;
  ASSERT_EQ(read->size(), 1u);
  EXPECT_EQ(std::get<int64_t>(read->At(0, "order_id")), 1);
  EXPECT_EQ(std::get<std::string>(read->At(0, "country")), "DE");
  EXPECT_EQ(std::get<std::string>(read->At(0, "amount")), "12.50");
  EXPECT_EQ(std::get<bool>(read->At(0, "ok")), true);
  EXPECT_EQ(CellToString(read->At(0, "ts")).substr(0, 19), "2026-12-01T09:00:00");

  Rows unreadable;
  unreadable.columns = {"order_id", "ts"};
  unreadable.rows = {{int64_t{3}, std::string("yesterday")}};
  auto refused = orders.Append(unreadable);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(refused.error().message.find("column 'ts'"), std::string::npos) << refused.error().message;
  Rows unknown;
  unknown.columns = {"colour"};
  unknown.rows = {{std::string("red")}};
  EXPECT_EQ(orders.Append(unknown).error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(orders.Snapshots()->size(), 1u);  // neither refused append changed anything
}

TEST_F(PublicApi, TimeTravelDeleteAndProperties) {
  auto catalog = Connection::Open(Uri());
  ASSERT_TRUE(catalog.has_value());
  Table orders = CreateOrders(*catalog);
  auto first = orders.Append(Orders({{1, "DE"}, {2, "FR"}}));
  ASSERT_TRUE(first.has_value());
  auto second = orders.Append(Orders({{3, "DE"}}));
  ASSERT_TRUE(second.has_value());
  auto german = Filter::Parse("country = 'DE'");
  ASSERT_TRUE(german.has_value());
  auto later = Filter::Parse("order_id > 1");
  ASSERT_TRUE(later.has_value());
  auto german_later = orders.Scan({.snapshot_id = second->snapshot_id, .filter = german->And(*later)});
  ASSERT_TRUE(german_later.has_value()) << german_later.error().message;
  ASSERT_EQ(german_later->size(), 1u);
  EXPECT_EQ(std::get<int64_t>(german_later->At(0, "order_id")), 3);
  EXPECT_EQ(orders.Scan({.snapshot_id = second->snapshot_id, .filter = german->Or(*later)})->size(), 3u);
  auto deleted = orders.Delete(*german);
  ASSERT_TRUE(deleted.has_value()) << deleted.error().message;
  EXPECT_EQ(deleted->rows_deleted, 2);

  EXPECT_EQ(orders.Scan()->size(), 1u);
  auto then = orders.Scan({.snapshot_id = first->snapshot_id, .columns = {"order_id"}});
  ASSERT_TRUE(then.has_value()) << then.error().message;
  EXPECT_EQ(then->size(), 2u);
  EXPECT_EQ(then->columns, std::vector<std::string>{"order_id"});
  EXPECT_EQ(orders.Scan({.snapshot_id = 12345}).error().kind, ErrorKind::kNotFound);
  auto snapshots = orders.Snapshots();
  ASSERT_EQ(snapshots->size(), 3u);
  EXPECT_EQ(snapshots->back().operation, "delete");
  EXPECT_EQ(snapshots->back().parent_id, (*snapshots)[1].snapshot_id);

  ASSERT_TRUE(orders.SetProperties({{"owner", "sales"}}).has_value());
  EXPECT_EQ(orders.Properties()->at("owner"), "sales");
  EXPECT_EQ(orders.SetProperties({{"commit.retry.num-retries", "many"}}).error().kind, ErrorKind::kInvalidArgument);
  auto missing = Filter::Parse("colour = 'red'");
  ASSERT_TRUE(missing.has_value());  // names are resolved when the filter is used
  EXPECT_EQ(orders.Delete(*missing).error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(Filter::Parse("country = ").error().kind, ErrorKind::kInvalidArgument);
}

TEST_F(PublicApi, TransactionsOnTwoTablesLandTogetherOrNotAtAll) {
  auto catalog = Connection::Open(Uri());
  ASSERT_TRUE(catalog.has_value());
  Table orders = CreateOrders(*catalog);
  auto shipments = catalog->CreateTable("sales.shipments", {.schema = "order_id long not null, carrier string"});
  ASSERT_TRUE(shipments.has_value()) << shipments.error().message;
  auto order_tx = orders.NewTransaction();
  auto shipment_tx = shipments->NewTransaction();
  ASSERT_TRUE(order_tx.has_value() && shipment_tx.has_value());
  ASSERT_TRUE(order_tx->Append(Orders({{1, "DE"}, {2, "FR"}})).has_value());
  Rows shipped;
  shipped.columns = {"order_id", "carrier"};
  shipped.rows = {{int64_t{1}, std::string("DHL")}};
  ASSERT_TRUE(shipment_tx->Append(shipped).has_value());
  auto infos = CommitTogether({&*order_tx, &*shipment_tx}, {.idempotency_key = "batch-7"});
  ASSERT_TRUE(infos.has_value()) << infos.error().message;
  ASSERT_EQ(infos->size(), 2u);
  EXPECT_EQ((*infos)[0].rows_added, 2);
  EXPECT_EQ((*infos)[1].rows_added, 1);
  EXPECT_EQ(orders.Scan()->size(), 2u);
  EXPECT_EQ(shipments->Scan()->size(), 1u);

  // Tables of two connections cannot be committed together.
  auto elsewhere = Connection::Open("sqlite://" + dir_ + "/other.db");
  ASSERT_TRUE(elsewhere.has_value());
  ASSERT_TRUE(elsewhere->CreateNamespace("sales").has_value());
  auto far = elsewhere->CreateTable("sales.far", {.schema = "a long"});
  ASSERT_TRUE(far.has_value());
  auto near_tx = orders.NewTransaction();
  auto far_tx = far->NewTransaction();
  ASSERT_TRUE(near_tx.has_value() && far_tx.has_value());
  ASSERT_TRUE(near_tx->Append(Orders({{3, "NL"}})).has_value());
  auto mixed = CommitTogether({&*near_tx, &*far_tx});
  ASSERT_FALSE(mixed.has_value());
  EXPECT_EQ(mixed.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(orders.Scan()->size(), 2u);
}

TEST_F(PublicApi, ATransactionLandsOnceAndItsKeyMakesARerunSafe) {
  auto catalog = Connection::Open(Uri());
  ASSERT_TRUE(catalog.has_value());
  Table orders = CreateOrders(*catalog);
  auto run_job = [&](bool add_column) -> Result<CommitInfo> {
    FLOE_ASSIGN_OR_RETURN(TableTransaction tx, orders.NewTransaction());
    if (add_column) FLOE_RETURN_IF_ERROR(tx.AddColumn("note", "string"));
    FLOE_RETURN_IF_ERROR(tx.SetProperties({{"job", add_column ? "first run" : "rerun"}}));
    Rows rows;
    rows.columns = {"order_id", "country", "note"};
    rows.rows = {{int64_t{1}, std::string("DE"), std::string("first")}};
    FLOE_RETURN_IF_ERROR(tx.Append(rows));
    return tx.Commit({.idempotency_key = "nightly-1"});
  };
  auto first = run_job(true);
  ASSERT_TRUE(first.has_value()) << first.error().message;
  EXPECT_TRUE(first->committed);
  EXPECT_EQ(first->rows_added, 1);
  auto again = run_job(false);  // the orchestrator runs the job again
  ASSERT_TRUE(again.has_value()) << again.error().message;
  EXPECT_TRUE(again->idempotent_replay);
  EXPECT_FALSE(again->committed);
  EXPECT_EQ(again->snapshot_id, first->snapshot_id);
  EXPECT_EQ(orders.Properties()->at("job"), "first run");
  EXPECT_EQ(orders.Snapshots()->size(), 1u);
  auto notes = orders.Scan({.columns = {"note"}});
  ASSERT_TRUE(notes.has_value()) << notes.error().message;
  ASSERT_EQ(notes->size(), 1u);
  EXPECT_EQ(std::get<std::string>(notes->At(0, "note")), "first");

  auto tx = orders.NewTransaction();
  ASSERT_TRUE(tx.has_value());
  ASSERT_TRUE(tx->Append(Orders({{2, "FR"}})).has_value());
  ASSERT_TRUE(tx->Commit().has_value());
  EXPECT_EQ(tx->Commit().error().kind, ErrorKind::kInvalidArgument);  // committed already
  EXPECT_EQ(orders.Scan()->size(), 2u);
}

// A program's FileIO with URIs of its own holds every file of the table; only the catalog's
// database is on disk.
TEST_F(PublicApi, SchemaChangesInATransactionKeepOldRowsReadable) {
  auto catalog = Connection::Open(Uri());
  ASSERT_TRUE(catalog.has_value());
  Table orders = CreateOrders(*catalog);
  Rows rows;
  rows.columns = {"order_id", "country", "amount", "ok"};
  rows.rows = {{int64_t{1}, std::string("DE"), std::string("12.50"), true}};
  ASSERT_TRUE(orders.Append(rows).has_value());

  auto tx = orders.NewTransaction();
  ASSERT_TRUE(tx.has_value());
  ASSERT_TRUE(tx->UpdateColumn("amount", {.type = "decimal(12,2)", .doc = "EUR"}).has_value());
  ASSERT_TRUE(tx->UpdateColumn("order_id", {.make_optional = true}).has_value());
  ASSERT_TRUE(tx->MoveColumn("country", TableTransaction::Position::kFirst).has_value());
  ASSERT_TRUE(tx->MoveColumn("ok", TableTransaction::Position::kAfter, "country").has_value());
  ASSERT_TRUE(tx->RenameColumn("ok", "paid").has_value());
  ASSERT_TRUE(tx->DropColumn("ts").has_value());
  // Refused, naming the column; the transaction keeps the changes before.
  auto narrowed = tx->UpdateColumn("amount", {.type = "decimal(10,2)"});
  ASSERT_FALSE(narrowed.has_value());
  EXPECT_EQ(narrowed.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(narrowed.error().message.find("amount: decimal(12,2) -> decimal(10,2)"), std::string::npos)
      << narrowed.error().message;
  auto missing = tx->MoveColumn("colour", TableTransaction::Position::kBefore, "country");
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message.find("'colour'"), std::string::npos) << missing.error().message;
  auto committed = tx->Commit();
  ASSERT_TRUE(committed.has_value()) << committed.error().message;

  EXPECT_EQ(*orders.SchemaText(), "country string, paid boolean, order_id long, amount decimal(12,2)");
  auto read = orders.Scan();
  ASSERT_TRUE(read.has_value()) << read.error().message;
  ASSERT_EQ(read->size(), 1u);
  EXPECT_EQ(read->columns, (std::vector<std::string>{"country", "paid", "order_id", "amount"}));
  EXPECT_EQ(std::get<std::string>(read->At(0, "amount")), "12.50");
  EXPECT_EQ(std::get<bool>(read->At(0, "paid")), true);
}

TEST_F(PublicApi, APluggedInFileIOHoldsEveryTableFile) {
  auto memory = std::make_shared<MemoryFileIO>();
  ConnectionOptions options;
  options.file_io = memory;
  options.warehouse = "memory://warehouse";
  auto catalog = Connection::Open(Uri(), options);
  ASSERT_TRUE(catalog.has_value()) << catalog.error().message;
  Table orders = CreateOrders(*catalog);
  ASSERT_TRUE(orders.Append(Orders({{1, "DE"}, {2, "FR"}})).has_value());
  EXPECT_EQ(orders.Scan()->size(), 2u);
  auto files = memory->ListPrefix("memory://warehouse/sales/orders/");
  ASSERT_TRUE(files.has_value());
  int data = 0, metadata = 0;
  for (const auto& f : *files) (f.path.ends_with(".parquet") ? data : metadata)++;
  EXPECT_EQ(data, 2);      // one per partition
  EXPECT_GE(metadata, 4);  // two documents, a manifest list, a manifest
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename().string().rfind("catalog.db", 0), 0u) << entry.path();  // only the database
}

}  // namespace
}  // namespace floe
