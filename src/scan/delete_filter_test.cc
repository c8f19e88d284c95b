// EqualityDeleteSet's hash first test must never change which rows survive: a row is deleted
// exactly when its key encoding (AppendValueKey) is one of the delete rows' encodings. Checked
// on random batches with nulls, several key columns and types, with the full hash and with
// hashes cut to a few bits, where nearly every row collides and the exact test decides.
#include "scan/delete_filter.h"

#include "meta/data_file.h"
#include "util/warning.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <set>

namespace floe {
namespace {

std::vector<NestedField> MixedFields() {
  TypePtr point = Type::Struct({NestedField{8, "x", Type::Int(), false, ""}, NestedField{9, "label", Type::String(), false, ""}});
  return {NestedField{1, "id", Type::Long(), false, ""},       NestedField{2, "country", Type::String(), false, ""},
          NestedField{3, "score", Type::Double(), false, ""},  NestedField{4, "day", Type::Date(), false, ""},
          NestedField{5, "flag", Type::Boolean(), false, ""},  NestedField{6, "amount", Type::Decimal(30, 2), false, ""},
          NestedField{7, "point", point, false, ""},           NestedField{10, "ratio", Type::Float(), false, ""},
          NestedField{11, "at", Type::Timestamp(), false, ""}};
}

// Small domains, so that random delete rows match data rows often; a null one time in seven.
void AppendRandom(Column& c, std::mt19937& rng) {
  if (rng() % 7 == 0) {
    c.AppendNull();
    return;
  }
  static const std::vector<std::string> kStrings = {"", "DE", "FR", "a country name longer than sixteen bytes"};
  static const std::vector<double> kDoubles = {0.0, -0.0, std::numeric_limits<double>::quiet_NaN(), 1.5,
                                               std::numeric_limits<double>::infinity()};
  Status s = Ok();
  switch (c.type->id()) {
    case TypeId::kLong: s = c.Append(Literal::Long(static_cast<int64_t>(rng() % 1000) - 500)); break;
    case TypeId::kInt: s = c.Append(Literal::Int(static_cast<int32_t>(rng() % 5))); break;
    case TypeId::kString: s = c.Append(Literal::String(kStrings[rng() % kStrings.size()])); break;
    case TypeId::kDouble: s = c.Append(Literal::Double(kDoubles[rng() % kDoubles.size()])); break;
    case TypeId::kFloat: s = c.Append(Literal::Float(static_cast<float>(kDoubles[rng() % kDoubles.size()]))); break;
    case TypeId::kDate: s = c.Append(Literal::Date(static_cast<int32_t>(rng() % 3))); break;
    case TypeId::kBoolean: s = c.Append(Literal::Boolean(rng() % 2)); break;
    case TypeId::kDecimal: s = c.Append(Literal::Decimal((static_cast<__int128>(rng() % 2) << 70) + rng() % 3, 30, 2)); break;
    case TypeId::kTimestamp: s = c.Append(Literal::Timestamp(static_cast<int64_t>(rng() % 3) * 1000000)); break;
    case TypeId::kStruct:
      for (Column& child : c.children) AppendRandom(child, rng);
      if (!c.nulls.empty()) c.nulls.push_back(0);
      ++c.length;
      break;
    default: FAIL() << "no random values of " << c.type->ToString();
  }
  EXPECT_TRUE(s) << s.error().ToString();
}

ColumnBatch RandomBatch(size_t rows, std::mt19937& rng) {
  ColumnBatch b(MixedFields());
  for (size_t r = 0; r < rows; ++r)
    for (Column& c : b.columns) AppendRandom(c, rng);
  b.num_rows = rows;
  return b;
}

const Column& ColumnById(const ColumnBatch& b, int id) {
  for (size_t i = 0; i < b.fields.size(); ++i) {
    if (b.fields[i].id == id) return b.columns[i];
    for (size_t j = 0; j < b.fields[i].type->fields().size(); ++j)
      if (b.fields[i].type->id() == TypeId::kStruct && b.fields[i].type->fields()[j].id == id)
        return b.columns[i].children[j];
  }
  ADD_FAILURE() << "no field " << id;
  return b.columns[0];
}

std::string KeyOf(const ColumnBatch& b, const std::vector<int>& ids, size_t row) {
  std::string key;
  for (int id : ids) AppendValueKey(ColumnById(b, id), row, &key);
  return key;
}

// The rows the exact keys alone keep: keep[r] stays set unless row r's key is deleted.
std::vector<uint8_t> ExactKeep(const ColumnBatch& data, const ColumnBatch& deletes, const std::vector<int>& ids,
                               std::vector<uint8_t> keep) {
  std::set<std::string> deleted;
  for (size_t r = 0; r < deletes.num_rows; ++r) deleted.insert(KeyOf(deletes, ids, r));
  for (size_t r = 0; r < data.num_rows; ++r)
    if (deleted.count(KeyOf(data, ids, r))) keep[r] = 0;
  return keep;
}

std::vector<uint8_t> SetKeep(const ColumnBatch& data, const ColumnBatch& deletes, const std::vector<int>& ids,
                             int hash_bits, std::vector<uint8_t> keep) {
  EqualityDeleteSet set(ids, hash_bits);
  Status added = set.Add(deletes, "deletes.parquet");
  EXPECT_TRUE(added) << added.error().ToString();
  Status applied = set.Apply(data, &keep);
  EXPECT_TRUE(applied) << applied.error().ToString();
  return keep;
}

TEST(EqualityDeleteSet, KeepsTheRowsTheExactKeysKeepWhateverTheHashWidth) {
  std::mt19937 rng(20261202);
  const std::vector<std::vector<int>> key_lists = {{1}, {2, 3}, {10, 4, 5}, {6, 11}, {7}, {8, 9}, {1, 2, 3, 4, 5, 6, 7, 10, 11}};
  for (int round = 0; round < 4; ++round) {
    ColumnBatch data = RandomBatch(2000, rng);
    std::vector<uint32_t> picked;
    for (uint32_t r = 0; r < data.num_rows; r += 1 + rng() % 400) picked.push_back(r);
    ColumnBatch deletes = data.Take(picked);  // rows of the data, and random rows that may or may not match
    deletes.Append(RandomBatch(10, rng));
    std::vector<uint8_t> keep(data.num_rows);
    for (auto& k : keep) k = rng() % 10 != 0;  // rows already deleted stay deleted
    for (const auto& ids : key_lists) {
      std::vector<uint8_t> expected = ExactKeep(data, deletes, ids, keep);
      size_t deleted = std::count(expected.begin(), expected.end(), 0) - std::count(keep.begin(), keep.end(), 0);
      ASSERT_GT(deleted, 0u) << "the test should delete rows";
      ASSERT_LT(deleted + std::count(keep.begin(), keep.end(), 0), data.num_rows) << "and keep some";
      for (int bits : {64, 20, 3, 0})
        EXPECT_EQ(SetKeep(data, deletes, ids, bits, keep), expected) << "round " << round << ", " << ids.size()
                                                                     << " key fields from " << ids[0] << ", " << bits << " hash bits";
    }
  }
}

TEST(EqualityDeleteSet, ValuesCompareAsTheSpecSaysAtAnyHashWidth) {
  // Data of the old types (int, float) against deletes of the promoted ones (long, double).
  std::vector<NestedField> old_fields = {NestedField{1, "n", Type::Int(), false, ""}, NestedField{2, "f", Type::Float(), false, ""}};
  std::vector<NestedField> new_fields = {NestedField{1, "n", Type::Long(), false, ""}, NestedField{2, "f", Type::Double(), false, ""}};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  ColumnBatch data(old_fields);
  for (auto [n, f] : std::vector<std::pair<int32_t, float>>{{1, 0.0f}, {1, -0.0f}, {2, nan}, {3, 1.5f}, {4, 2.5f}})
    ASSERT_TRUE(data.AppendRow({Literal::Int(n), Literal::Float(f)}));
  ASSERT_TRUE(data.AppendRow({Literal::Null(Type::Int()), Literal::Float(1.5f)}));
  ASSERT_TRUE(data.AppendRow({Literal::Int(5), Literal::Null(Type::Float())}));
  ColumnBatch deletes(new_fields);
  ASSERT_TRUE(deletes.AppendRow({Literal::Long(1), Literal::Double(0.0)}));  // not -0.0
  ASSERT_TRUE(deletes.AppendRow({Literal::Long(2), Literal::Double(std::nan(""))}));  // NaN matches NaN
  ASSERT_TRUE(deletes.AppendRow({Literal::Long(3), Literal::Double(1.5)}));
  ASSERT_TRUE(deletes.AppendRow({Literal::Long(int64_t{4} << 32), Literal::Double(2.5)}));  // no truncation to int
  ASSERT_TRUE(deletes.AppendRow({Literal::Null(Type::Long()), Literal::Double(1.5)}));  // null matches null
  ASSERT_TRUE(deletes.AppendRow({Literal::Long(5), Literal::Double(0.0)}));  // null matches no value
  for (int bits : {64, 1, 0})
    EXPECT_EQ(SetKeep(data, deletes, {1, 2}, bits, std::vector<uint8_t>(data.num_rows, 1)),
              (std::vector<uint8_t>{0, 1, 0, 0, 1, 0, 1}))
        << bits << " hash bits";
}

TEST(EqualityDeleteSet, DataWithoutAKeyColumnIsAnErrorNamingTheField) {
  EqualityDeleteSet set({1, 42});
  std::mt19937 rng(7);
  ColumnBatch deletes = RandomBatch(3, rng);
  Status added = set.Add(deletes, "d.parquet");
  ASSERT_FALSE(added);
  EXPECT_NE(added.error().ToString().find("field id 42"), std::string::npos) << added.error().ToString();
  EXPECT_TRUE(set.empty());
}

}  // namespace
}  // namespace floe

namespace floe {
namespace {

// A position-delete row with a null file_path (or pos) deletes nothing, and says so once: the
// spec requires both columns, so such a file is broken and its writer should hear about it.
TEST(PositionDeleteSet, NullFilePathRowsAreSkippedWithOneWarning) {
  std::vector<std::string> warnings;
  SetWarningSink([&](const std::string& m) { warnings.push_back(m); });
  Schema schema(0, {NestedField{kDeleteFilePathFieldId, "file_path", Type::String(), false, ""},
                    NestedField{kDeletePosFieldId, "pos", Type::Long(), false, ""}});
  ColumnBatch deletes(schema);
  ASSERT_TRUE(deletes.AppendRow({Literal::String("/d.parquet"), Literal::Long(1)}));
  ASSERT_TRUE(deletes.AppendRow({Literal::Null(Type::String()), Literal::Long(2)}));
  for (int data_file = 0; data_file < 2; ++data_file) {
    PositionDeleteSet set;
    ASSERT_TRUE(set.Add(deletes, "/d.parquet", "/deletes/null-path.parquet"));
    EXPECT_EQ(set.size(), 1u);
  }
  SetWarningSink(nullptr);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("/deletes/null-path.parquet"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("null file_path"), std::string::npos) << warnings[0];
}

}  // namespace
}  // namespace floe
