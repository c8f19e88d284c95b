// Test helpers for the txn room: a throwaway SQLite catalog with an orders table, batches of
// orders, and reading a table back as sorted rows.
#pragma once

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "catalog/catalog.h"
#include "catalog/commit.h"
#include "contention/contention_scheduler.h"
#include "expr/parser.h"
#include "meta/metadata_json.h"
#include "scan/table_scan.h"
#include "table_files/manifest_io.h"
#include "types/partition_spec.h"
#include "types/schema_text.h"
#include "util/uuid.h"

namespace floe::txn_test {

struct Order {
  int64_t order_id;
  std::string country;
  int64_t amount_cents;
  friend auto operator<=>(const Order&, const Order&) = default;
};

class OrdersTable {
 public:
  explicit OrdersTable(const std::string& partition_by = "country",
                       const std::map<std::string, std::string>& properties = {}, int format_version = 2) {
    dir_ = (std::filesystem::temp_directory_path() / ("floe-txn-" + RandomUuidString().substr(0, 12))).string();
    std::filesystem::create_directories(dir_);
    uri_ = "sqlite://" + dir_ + "/catalog.db";
    catalog_ = Open();
    EXPECT_TRUE(catalog_->CreateNamespace({"sales"}, {}).has_value());
    auto schema = ParseSchemaText("order_id long not null, country string, amount_cents long, ts timestamp");
    EXPECT_TRUE(schema.has_value());
    CreateTableRequest request;
    request.schema = *schema;
    auto fields = ParsePartitionFields(partition_by, *schema, PartitionSpec::kFirstFieldId);
    EXPECT_TRUE(fields.has_value());
    request.spec = PartitionSpec(0, *fields);
    request.properties = properties;
    request.format_version = format_version;
    request.properties["commit.retry.min-wait-ms"] = "1";
    request.properties["commit.retry.max-wait-ms"] = "20";
    auto created = catalog_->CreateTable(id_, request);
    EXPECT_TRUE(created.has_value()) << (created ? "" : created.error().message);
  }
  ~OrdersTable() {
    catalog_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // A second, independent catalog connection: another writer. Its commits meet the other
  // connections' of the test process in the process's contention state, as a program's do.
  std::unique_ptr<Catalog> Open() const {
    CatalogOptions options;
    options.commit_scheduler = &ContentionScheduler::Process();
    auto c = OpenCatalog(uri_, options);
    EXPECT_TRUE(c.has_value()) << (c ? "" : c.error().message);
    return std::move(*c);
  }
  Catalog& catalog() { return *catalog_; }
  const TableIdentifier& id() const { return id_; }
  const std::string& uri() const { return uri_; }
  const std::string& dir() const { return dir_; }

  TableMetadata Metadata() {
    auto t = catalog_->LoadTable(id_);
    EXPECT_TRUE(t.has_value());
    return t->metadata;
  }

  std::vector<Order> Rows(std::optional<int64_t> snapshot_id = std::nullopt) {
    auto t = catalog_->LoadTable(id_);
    EXPECT_TRUE(t.has_value());
    ScanOptions options;
    options.snapshot_id = snapshot_id;
    auto batch = ReadTable(*catalog_->io(), t->metadata, options);
    EXPECT_TRUE(batch.has_value()) << (batch ? "" : batch.error().message);
    std::vector<Order> out;
    for (size_t r = 0; batch && r < batch->num_rows; ++r) {
      auto row = batch->Row(r);
      out.push_back(Order{row[0].AsLong(), row[1].is_null() ? "" : row[1].AsBytes(),
                          row[2].is_null() ? 0 : row[2].AsLong()});
    }
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  std::string dir_, uri_;
  TableIdentifier id_{{"sales"}, "orders"};
  std::unique_ptr<Catalog> catalog_;
};

inline ColumnBatch Batch(const std::vector<Order>& orders) {
  auto schema = ParseSchemaText("order_id long not null, country string, amount_cents long, ts timestamp");
  ColumnBatch batch(*schema);
  for (const auto& o : orders) {
    auto st = batch.AppendRow({Literal::Long(o.order_id), Literal::String(o.country), Literal::Long(o.amount_cents),
                               *Literal::String("2026-01-01T10:00:00").CastTo(Type::Timestamp())});
    EXPECT_TRUE(st.has_value());
  }
  return batch;
}

// A before_swap hook that lets writer B commit `b_commits` inside A's first attempt, after A
// has validated and before it swaps: the deterministic race of the conflict-table tests.
inline std::function<void(int)> OnFirstAttempt(std::function<void()> b_commits) {
  return [b_commits = std::move(b_commits)](int attempt) {
    if (attempt == 1) b_commits();
  };
}

// Sets a table property as an engine that does not check values might (floe refuses values it
// cannot read when they are set through it): a new metadata document swapped in directly.
inline void SetPropertyUnchecked(OrdersTable& t, const std::string& key, const std::string& value) {
  auto loaded = t.catalog().LoadTable(t.id());
  ASSERT_TRUE(loaded.has_value());
  TableMetadata m = loaded->metadata;
  m.properties[key] = value;
  const std::string path = m.location + "/metadata/unchecked-" + RandomUuidString() + ".metadata.json";
  ASSERT_TRUE(t.catalog().io()->CreateIfAbsent(path, WriteTableMetadata(m)).has_value());
  PointerStore* store = t.catalog().capabilities().pointer_store;
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->SwapPointer(PointerSwap{t.id(), loaded->metadata_location, path}).has_value());
}

// Every file any snapshot of the table reaches: manifest lists, manifests, data/delete files.
inline std::set<std::string> ReachableFiles(Catalog& catalog, const TableMetadata& m) {
  std::set<std::string> out;
  for (const auto& s : m.snapshots) {
    out.insert(s.manifest_list);
    auto manifests = ReadManifestList(*catalog.io(), m, s);
    EXPECT_TRUE(manifests.has_value()) << (manifests ? "" : manifests.error().message);
    if (!manifests) continue;
    for (const auto& mf : *manifests) {
      out.insert(mf.manifest_path);
      auto entries = ReadManifestEntries(*catalog.io(), m, mf);
      EXPECT_TRUE(entries.has_value()) << (entries ? "" : entries.error().message);
      if (!entries) continue;
      for (const auto& e : *entries)
        if (e.status != EntryStatus::kDeleted) out.insert(e.file.file_path);
    }
  }
  return out;
}

inline Expr Where(const std::string& text) {
  auto e = ParseFilter(text);
  EXPECT_TRUE(e.has_value()) << text;
  return *e;
}

}  // namespace floe::txn_test
