// GroupRowsByPartition against the spec applied to each row on its own: every row in exactly
// one group, in ascending order, each group's tuple the one PartitionOf gives its rows, one
// group per distinct tuple; with nulls, several fields, and more distinct source values than
// the grouping remembers (so both of its paths run).
#include "write/partition_rows.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace floe {
namespace {

Schema Events() {
  return Schema(0, {{1, "id", Type::Long(), true, ""},
                    {2, "country", Type::String(), false, ""},
                    {3, "ts", Type::Timestamp(), false, ""},
                    {4, "price", Type::Double(), false, ""}});
}

ColumnBatch Rows(int n) {
  ColumnBatch batch(Events());
  const char* countries[] = {"DE", "FR", "US", "NL", "DE\x01", ""};
  for (int r = 0; r < n; ++r) {
    std::vector<Literal> row;
    row.push_back(Literal::Long(r));
    row.push_back(r % 11 == 0 ? Literal::Null(Type::String()) : Literal::String(countries[(r * 7) % 6]));
    // Distinct in every row (more than the remembered cells), few distinct days.
    row.push_back(r % 13 == 0 ? Literal::Null(Type::Timestamp())
                              : Literal::Timestamp(int64_t{r} * 37'000'000 + (r % 3) * 86'400'000'000));
    row.push_back(Literal::Double(r % 5 == 0 ? -0.0 : 0.0));
    EXPECT_TRUE(batch.AppendRow(row));
  }
  return batch;
}

void ExpectMatchesRowByRow(const PartitionSpec& spec, const ColumnBatch& batch) {
  auto groups = GroupRowsByPartition(spec, batch);
  ASSERT_TRUE(groups) << groups.error().ToString();
  std::vector<int> group_of_row(batch.num_rows, -1);
  std::set<std::string> keys;
  for (size_t g = 0; g < groups->size(); ++g) {
    const PartitionGroup& group = (*groups)[g];
    EXPECT_TRUE(keys.insert(group.key).second) << "two groups with one key";
    ASSERT_FALSE(group.rows.empty());
    for (size_t i = 0; i < group.rows.size(); ++i) {
      const uint32_t r = group.rows[i];
      ASSERT_LT(r, batch.num_rows);
      if (i > 0) EXPECT_LT(group.rows[i - 1], r);
      EXPECT_EQ(group_of_row[r], -1) << "row " << r << " in two groups";
      group_of_row[r] = static_cast<int>(g);
    }
  }
  std::map<std::string, size_t> group_of_tuple;
  for (size_t r = 0; r < batch.num_rows; ++r) {
    ASSERT_NE(group_of_row[r], -1) << "row " << r << " in no group";
    std::vector<Literal> sources;
    for (const auto& f : spec.fields()) sources.push_back(batch.columns[batch.ColumnIndexById(f.source_id)].Get(r));
    auto tuple = spec.PartitionOf(sources);
    ASSERT_TRUE(tuple);
    const auto& got = (*groups)[group_of_row[r]].tuple;
    ASSERT_EQ(got.size(), tuple->size());
    std::string text;
    for (size_t p = 0; p < got.size(); ++p) {
      EXPECT_EQ(got[p].ToString(), (*tuple)[p].ToString()) << "row " << r << " field " << p;
      text += (*tuple)[p].ToString() + "|";
    }
    auto [it, inserted] = group_of_tuple.emplace(text, group_of_row[r]);
    EXPECT_EQ(it->second, static_cast<size_t>(group_of_row[r])) << "one tuple in two groups: " << text;
  }
}

TEST(GroupRowsByPartition, EqualsTheSpecAppliedRowByRow) {
  const ColumnBatch batch = Rows(10'000);
  ExpectMatchesRowByRow(PartitionSpec(1, {{2, 1000, "country", Transform::Identity()}}), batch);
  ExpectMatchesRowByRow(PartitionSpec(2, {{3, 1000, "ts_day", Transform::Day()}}), batch);
  ExpectMatchesRowByRow(PartitionSpec(3, {{2, 1000, "country", Transform::Identity()},
                                          {1, 1001, "id_bucket", Transform::Bucket(8)},
                                          {3, 1002, "ts_day", Transform::Day()}}),
                        batch);
  // -0.0 and 0.0 are different cells; identity keeps them apart exactly as row by row does.
  ExpectMatchesRowByRow(PartitionSpec(4, {{4, 1000, "price", Transform::Identity()}}), batch);
}

TEST(GroupRowsByPartition, StringsDifferingInOneByteAreApart) {
  // Every length from 0 to 12 (both sides of the 4- and 8-byte comparisons), each string
  // also with one byte changed at each position, and a zero byte; rows in a shuffled order.
  std::vector<std::string> values;
  for (size_t n = 0; n <= 12; ++n) {
    std::string base;
    for (size_t i = 0; i < n; ++i) base.push_back(static_cast<char>('a' + i));
    values.push_back(base);
    for (size_t i = 0; i < n; ++i) {
      std::string changed = base;
      changed[i] = 'Z';
      values.push_back(changed);
      changed[i] = '\0';
      values.push_back(changed);
    }
  }
  const Schema schema(0, {{1, "id", Type::Long(), true, ""}, {2, "s", Type::String(), false, ""}});
  ColumnBatch batch(schema);
  for (int r = 0; r < 3000; ++r) {
    const std::string& v = values[(static_cast<size_t>(r) * 7919) % values.size()];
    ASSERT_TRUE(batch.AppendRow({Literal::Long(r), Literal::String(v)}));
  }
  ExpectMatchesRowByRow(PartitionSpec(1, {{2, 1000, "s", Transform::Identity()}}), batch);
  ExpectMatchesRowByRow(PartitionSpec(2, {{2, 1000, "s_trunc", Transform::Truncate(3)}}), batch);
  auto groups = GroupRowsByPartition(PartitionSpec(1, {{2, 1000, "s", Transform::Identity()}}), batch);
  ASSERT_TRUE(groups);
  EXPECT_EQ(groups->size(), std::set<std::string>(values.begin(), values.end()).size());
}

TEST(GroupRowsByPartition, AMissingSourceColumnIsNamed) {
  const ColumnBatch batch = Rows(3);
  auto groups = GroupRowsByPartition(PartitionSpec(1, {{9, 1000, "x", Transform::Identity()}}), batch);
  ASSERT_FALSE(groups);
  EXPECT_EQ(groups.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(groups.error().message.find("9"), std::string::npos);
}

}  // namespace
}  // namespace floe
