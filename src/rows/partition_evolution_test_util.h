// Test helpers: a merge-on-read table keyed by `id` whose partition spec evolves between two
// appends (so data files of the old and the new spec are both live), then one row-level write
// (upsert, delete or update) touching keys in both. Used by the txn unit test (floe's scan) and
// by tests/partition_evolution_peers_test.cc (Spark and PyIceberg read the same tables).
#pragma once

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "catalog/catalog.h"
#include "expr/parser.h"
#include "scan/table_scan.h"
#include "commit/metadata_commit.h"
#include "rows/row_writes.h"
#include "commit/spec_update.h"
#include "rows/upsert.h"
#include "types/partition_spec.h"
#include "types/schema_text.h"
#include "util/uuid.h"

namespace floe::evolution_test {

// One way a spec evolves: the spec the table is created with, then the change.
struct Evolution {
  std::string name;
  std::string initial;                  // partition text ("" = unpartitioned)
  std::vector<std::string> remove;      // partition field names removed (v2: dropped from the spec)
  std::vector<std::string> add;         // partition text added after the removals
  bool void_all = false;                // instead: a new spec with every field as void (as v1 leaves it)
};

inline std::vector<Evolution> Evolutions() {
  return {
      {"new_key_field", "", {}, {"bucket(2, id)"}},
      {"removed_field", "bucket(2, id)", {"id_bucket"}, {}},
      {"void_field", "bucket(2, id)", {}, {}, true},
      {"changed_transform", "bucket(2, id)", {"id_bucket"}, {"bucket(3, id)"}},
      {"non_key_to_key", "cat", {"cat"}, {"truncate(4, id)"}},
      {"key_plus_non_key", "bucket(2, id)", {}, {"cat"}},
  };
}

enum class Op { kUpsert, kDelete, kUpdate };
inline const char* OpName(Op op) { return op == Op::kUpsert ? "upsert" : op == Op::kDelete ? "delete" : "update"; }

// id -> (cat, v): what the table must hold.
using Model = std::map<int64_t, std::pair<std::string, std::string>>;

inline const char* kSchemaText = "id long not null, cat string, v string";

inline ColumnBatch Rows(const Schema& schema, const std::vector<int64_t>& ids, const std::string& v, Model* model) {
  ColumnBatch batch(schema);
  for (int64_t id : ids) {
    std::string cat = id % 2 ? "odd" : "even";
    EXPECT_TRUE(batch.AppendRow({Literal::Long(id), Literal::String(cat), Literal::String(v)}));
    (*model)[id] = {cat, v};
  }
  return batch;
}

// Creates `ns.name` in `catalog`, appends ids 1..6 under the initial spec, evolves, appends
// 7..12 under the new spec, then runs `op` on ids 2, 3, 8, 9 (an upsert also inserts 20).
// Returns the model of what the table must hold; fails the test on any error.
inline Model BuildScenario(Catalog& catalog, const TableIdentifier& id, const Evolution& evolution, Op op) {
  Model model;
  auto schema = ParseSchemaText(kSchemaText);
  EXPECT_TRUE(schema.has_value());
  Schema keyed(schema->schema_id(), schema->fields(), {1});
  CreateTableRequest request;
  request.schema = keyed;
  auto fields = ParsePartitionFields(evolution.initial, keyed, PartitionSpec::kFirstFieldId);
  EXPECT_TRUE(fields.has_value()) << (fields ? "" : fields.error().message);
  request.spec = PartitionSpec(0, fields ? *fields : std::vector<PartitionField>{});
  for (const char* p : {"write.delete.mode", "write.update.mode", "write.merge.mode"})
    request.properties[p] = "merge-on-read";
  auto created = catalog.CreateTable(id, request);
  EXPECT_TRUE(created.has_value()) << (created ? "" : created.error().message);
  if (!created) return model;

  auto appended = AppendBatch(catalog, id, Rows(keyed, {1, 2, 3, 4, 5, 6}, "old", &model));
  EXPECT_TRUE(appended.has_value()) << (appended ? "" : appended.error().message);

  if (evolution.void_all) {
    auto table = catalog.LoadTable(id);
    EXPECT_TRUE(table.has_value());
    std::vector<PartitionField> voided = table->metadata.DefaultSpec().fields();
    for (auto& f : voided) f.transform = Transform(TransformKind::kVoid);
    MetadataChange change;
    change.requirements.push_back(AssertDefaultSpecId{table->metadata.default_spec_id});
    change.updates.push_back(AddPartitionSpec{PartitionSpec(table->metadata.default_spec_id + 1, voided)});
    change.updates.push_back(SetDefaultSpec{-1});
    auto done = CommitMetadataChange(catalog, id, change);
    EXPECT_TRUE(done.has_value()) << (done ? "" : done.error().message);
  } else {
    SpecUpdate update;
    for (const auto& name : evolution.remove) update.RemoveField(name);
    for (const auto& text : evolution.add) update.AddField(text);
    auto done = UpdateSpec(catalog, id, update);
    EXPECT_TRUE(done.has_value()) << (done ? "" : done.error().message);
  }
  appended = AppendBatch(catalog, id, Rows(keyed, {7, 8, 9, 10, 11, 12}, "new", &model));
  EXPECT_TRUE(appended.has_value()) << (appended ? "" : appended.error().message);

  Result<RowWriteResult> written;
  auto filter = ParseFilter("id IN (2, 3, 8, 9)");
  EXPECT_TRUE(filter.has_value());
  switch (op) {
    case Op::kUpsert:
      written = Upsert(catalog, id, Rows(keyed, {2, 3, 8, 9, 20}, "upserted", &model), {});
      break;
    case Op::kDelete:
      written = DeleteWhere(catalog, id, *filter);
      for (int64_t k : {2, 3, 8, 9}) model.erase(k);
      break;
    case Op::kUpdate: {
      auto sets = ParseAssignments("v = 'updated'");
      EXPECT_TRUE(sets.has_value());
      written = UpdateWhere(catalog, id, *filter, *sets);
      for (int64_t k : {2, 3, 8, 9}) model[k].second = "updated";
      break;
    }
  }
  EXPECT_TRUE(written.has_value()) << (written ? "" : written.error().message);
  return model;
}

// The model as sorted "id|cat|v" lines.
inline std::vector<std::string> ModelLines(const Model& model) {
  std::vector<std::string> out;
  for (const auto& [id, row] : model) out.push_back(std::to_string(id) + "|" + row.first + "|" + row.second);
  std::sort(out.begin(), out.end());
  return out;
}

// The table's rows as floe's scan reads them, as sorted "id|cat|v" lines.
inline std::vector<std::string> ScanLines(Catalog& catalog, const TableIdentifier& id) {
  std::vector<std::string> out;
  auto table = catalog.LoadTable(id);
  EXPECT_TRUE(table.has_value());
  if (!table) return out;
  auto batch = ReadTable(*catalog.io(), table->metadata, ScanOptions{});
  EXPECT_TRUE(batch.has_value()) << (batch ? "" : batch.error().message);
  for (size_t r = 0; batch && r < batch->num_rows; ++r) {
    auto row = batch->Row(r);
    out.push_back(std::to_string(row[0].AsLong()) + "|" + row[1].AsBytes() + "|" + row[2].AsBytes());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace floe::evolution_test
