// Manifests and manifest lists written by floe read back field for field.
#include <gtest/gtest.h>

#include <cmath>

#include "avro/avro_binary.h"
#include "avro/avro_file.h"
#include "avro/manifest_list.h"
#include "avro/manifest_reader.h"
#include "avro/manifest_writer.h"
#include "avro/sample_entries.h"

namespace floe {
namespace {

using avro_sample::MakeSampleTable;
using avro_sample::RandomEntry;
using avro_sample::SampleTable;

bool SameValue(const Literal& a, const Literal& b) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  if (!a.type()->Equals(*b.type())) return false;
  // NaN partition values must survive too; Compare orders NaN after everything and equal to itself.
  return Literal::Compare(a, b) == 0;
}

// Compares what a reader must give back: the written entry, with v1's missing fields defaulted.
void ExpectSameEntry(const ManifestEntry& want, const ManifestEntry& got, int format_version, int64_t i) {
  SCOPED_TRACE("entry " + std::to_string(i));
  const DataFile& a = want.file;
  const DataFile& b = got.file;
  EXPECT_EQ(want.status, got.status);
  EXPECT_EQ(want.snapshot_id, got.snapshot_id);
  if (format_version == 1) {
    EXPECT_EQ(got.sequence_number, 0);
    EXPECT_EQ(got.file_sequence_number, 0);
  } else {
    EXPECT_EQ(want.sequence_number, got.sequence_number);
    EXPECT_EQ(want.file_sequence_number, got.file_sequence_number);
  }
  EXPECT_EQ(a.content, b.content);
  EXPECT_EQ(a.file_path, b.file_path);
  EXPECT_EQ(a.file_format, b.file_format);
  EXPECT_EQ(a.spec_id, b.spec_id);
  ASSERT_EQ(a.partition.size(), b.partition.size());
  for (size_t p = 0; p < a.partition.size(); ++p) {
    EXPECT_TRUE(SameValue(a.partition[p], b.partition[p]))
        << "partition field " << p << ": " << a.partition[p].ToString() << " vs " << b.partition[p].ToString();
  }
  EXPECT_EQ(a.record_count, b.record_count);
  EXPECT_EQ(a.file_size_in_bytes, b.file_size_in_bytes);
  EXPECT_EQ(a.column_sizes, b.column_sizes);
  EXPECT_EQ(a.value_counts, b.value_counts);
  EXPECT_EQ(a.null_value_counts, b.null_value_counts);
  EXPECT_EQ(a.nan_value_counts, b.nan_value_counts);
  EXPECT_EQ(a.lower_bounds, b.lower_bounds);
  EXPECT_EQ(a.upper_bounds, b.upper_bounds);
  EXPECT_EQ(a.key_metadata, b.key_metadata);
  EXPECT_EQ(a.split_offsets, b.split_offsets);
  EXPECT_EQ(a.equality_ids, b.equality_ids);
  EXPECT_EQ(a.sort_order_id, b.sort_order_id);
  EXPECT_EQ(a.first_row_id, b.first_row_id);
  EXPECT_EQ(a.referenced_data_file, b.referenced_data_file);
  EXPECT_EQ(a.content_offset, b.content_offset);
  EXPECT_EQ(a.content_size_in_bytes, b.content_size_in_bytes);
}

// Checks the written ManifestFile against the entries: counts, and summaries that bound every
// partition value and are attained.
void ExpectManifestFileDescribes(const ManifestFile& m, const std::vector<ManifestEntry>& entries,
                                 const SampleTable& t) {
  int added = 0, existing = 0, deleted = 0;
  int64_t added_rows = 0, existing_rows = 0, deleted_rows = 0;
  for (const auto& e : entries) {
    int64_t r = e.file.record_count;
    if (e.status == EntryStatus::kAdded) ++added, added_rows += r;
    if (e.status == EntryStatus::kExisting) ++existing, existing_rows += r;
    if (e.status == EntryStatus::kDeleted) ++deleted, deleted_rows += r;
  }
  EXPECT_EQ(m.added_files_count, added);
  EXPECT_EQ(m.existing_files_count, existing);
  EXPECT_EQ(m.deleted_files_count, deleted);
  EXPECT_EQ(m.added_rows_count, added_rows);
  EXPECT_EQ(m.existing_rows_count, existing_rows);
  EXPECT_EQ(m.deleted_rows_count, deleted_rows);
  const auto& fields = t.partition_type->fields();
  ASSERT_EQ(m.partitions.size(), fields.size());
  for (size_t p = 0; p < fields.size(); ++p) {
    SCOPED_TRACE("partition field " + fields[p].name);
    const PartitionFieldSummary& s = m.partitions[p];
    bool any_null = false, any_nan = false, lower_seen = false, upper_seen = false;
    ASSERT_TRUE(s.lower_bound && s.upper_bound);
    auto lower = Literal::FromBinary(fields[p].type, *s.lower_bound);
    auto upper = Literal::FromBinary(fields[p].type, *s.upper_bound);
    ASSERT_TRUE(lower && upper);
    for (const auto& e : entries) {
      const Literal& v = e.file.partition[p];
      if (v.is_null()) {
        any_null = true;
        continue;
      }
      bool nan = (fields[p].type->id() == TypeId::kDouble && std::isnan(v.AsDouble())) ||
                 (fields[p].type->id() == TypeId::kFloat && std::isnan(v.AsFloat()));
      if (nan) {
        any_nan = true;
        continue;
      }
      EXPECT_LE(Literal::Compare(*lower, v), 0);
      EXPECT_GE(Literal::Compare(*upper, v), 0);
      lower_seen |= Literal::Compare(*lower, v) == 0;
      upper_seen |= Literal::Compare(*upper, v) == 0;
    }
    EXPECT_EQ(s.contains_null, any_null);
    EXPECT_EQ(s.contains_nan.value_or(false), any_nan);
    EXPECT_TRUE(lower_seen && upper_seen);
  }
}

struct Case {
  int format_version;
  bool deletes;
  std::string codec;
  int count;
};

void RoundTrip(const Case& c) {
  SampleTable t = MakeSampleTable();
  std::mt19937_64 rng(static_cast<uint64_t>(c.format_version * 100 + c.deletes * 10 + c.count));
  std::vector<ManifestEntry> entries;
  entries.reserve(c.count);
  for (int i = 0; i < c.count; ++i) entries.push_back(RandomEntry(rng, c.format_version, c.deletes, t, i));

  ManifestWriterOptions options;
  options.format_version = c.format_version;
  options.content = c.deletes ? ManifestContent::kDeletes : ManifestContent::kData;
  options.schema = t.schema;
  options.spec = t.spec;
  options.manifest_path = "s3://bucket/warehouse/db/t/metadata/m0.avro";
  options.codec = c.codec;
  auto written = WriteManifest(options, entries);
  ASSERT_TRUE(written.has_value()) << written.error().ToString();
  EXPECT_EQ(written->manifest.manifest_length, static_cast<int64_t>(written->bytes.size()));
  EXPECT_EQ(written->manifest.manifest_path, options.manifest_path);
  EXPECT_EQ(written->manifest.partition_spec_id, 2);
  EXPECT_EQ(written->manifest.content, options.content);
  ExpectManifestFileDescribes(written->manifest, entries, t);

  auto read = ReadManifest(written->bytes, "m0.avro");
  ASSERT_TRUE(read.has_value()) << read.error().ToString();
  EXPECT_EQ(read->info.format_version, c.format_version);
  EXPECT_EQ(read->info.content, options.content);
  EXPECT_EQ(read->info.spec_id, 2);
  ASSERT_TRUE(read->info.schema.has_value());
  EXPECT_TRUE(read->info.schema->SameStructure(t.schema));
  EXPECT_EQ(read->info.schema->schema_id(), 3);
  EXPECT_TRUE(read->info.partition_type->Equals(*t.partition_type));
  ASSERT_EQ(read->entries.size(), entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    ExpectSameEntry(entries[i], read->entries[i], c.format_version, static_cast<int64_t>(i));
    if (::testing::Test::HasFailure()) return;  // one broken entry is enough to see
  }
}

// A reader asked for some columns' metrics stores only those; ReadAllMetrics then gives the
// entry just read every column's, as a full read does.
TEST(ManifestReader, DecodesOnlyTheMetricsAskedForAndTheRestOnRequest) {
  SampleTable t = MakeSampleTable();
  std::mt19937_64 rng(7);
  std::vector<ManifestEntry> entries;
  for (int i = 0; i < 500; ++i) entries.push_back(RandomEntry(rng, 2, false, t, i));
  ManifestWriterOptions options;
  options.schema = t.schema;
  options.spec = t.spec;
  options.manifest_path = "m.avro";
  auto written = WriteManifest(options, entries);
  ASSERT_TRUE(written.has_value()) << written.error().ToString();
  auto full = ReadManifest(written->bytes, "m.avro");
  ASSERT_TRUE(full.has_value());

  ManifestReadOptions some;
  some.metric_field_ids = std::vector<int>{5, 1};
  auto reader = ManifestReader::Open(written->bytes, "m.avro", some);
  ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
  ManifestEntry e;
  size_t i = 0, with_other_metrics = 0;
  auto only_asked = [](const auto& map) {
    for (const auto& [id, v] : map)
      if (id != 1 && id != 5) return false;
    return true;
  };
  while (reader->Next(&e).value()) {
    ASSERT_LT(i, full->entries.size());
    const DataFile& want = full->entries[i].file;
    with_other_metrics += want.lower_bounds.size() > 2 || want.value_counts.size() > 2;
    EXPECT_EQ(e.file.file_path, want.file_path);
    EXPECT_TRUE(e.file.partition == want.partition);
    EXPECT_TRUE(only_asked(e.file.column_sizes) && only_asked(e.file.value_counts) &&
                only_asked(e.file.null_value_counts) && only_asked(e.file.nan_value_counts) &&
                only_asked(e.file.lower_bounds) && only_asked(e.file.upper_bounds));
    for (int id : {1, 5}) {
      EXPECT_EQ(e.file.lower_bounds.count(id), want.lower_bounds.count(id));
      EXPECT_EQ(e.file.value_counts.count(id), want.value_counts.count(id));
    }
    if (i % 2 == 0) {
      ASSERT_TRUE(reader->ReadAllMetrics(&e.file).has_value());
      EXPECT_EQ(e.file.column_sizes, want.column_sizes);
      EXPECT_EQ(e.file.value_counts, want.value_counts);
      EXPECT_EQ(e.file.null_value_counts, want.null_value_counts);
      EXPECT_EQ(e.file.nan_value_counts, want.nan_value_counts);
      EXPECT_EQ(e.file.lower_bounds, want.lower_bounds);
      EXPECT_EQ(e.file.upper_bounds, want.upper_bounds);
    }
    ++i;
  }
  EXPECT_EQ(i, entries.size());
  EXPECT_GT(with_other_metrics, 0u) << "the sample must have metrics of other columns to leave out";
}

TEST(ManifestRoundTrip, V2DataManifestOf100000Entries) { RoundTrip({2, false, "deflate", 100000}); }
TEST(ManifestRoundTrip, V2DeleteManifestOf100000Entries) { RoundTrip({2, true, "deflate", 100000}); }
TEST(ManifestRoundTrip, V1DataManifestOf100000Entries) { RoundTrip({1, false, "deflate", 100000}); }
TEST(ManifestRoundTrip, V3DataManifest) { RoundTrip({3, false, "deflate", 20000}); }
TEST(ManifestRoundTrip, V3DeleteManifest) { RoundTrip({3, true, "zstandard", 20000}); }
TEST(ManifestRoundTrip, EveryCodec) {
  for (const char* codec : {"null", "deflate", "snappy", "zstandard"}) {
    SCOPED_TRACE(codec);
    RoundTrip({2, false, codec, 3000});
  }
}

TEST(ManifestRoundTrip, CodecIsNamedInTheHeader) {
  SampleTable t = MakeSampleTable();
  for (const char* codec : {"null", "deflate", "snappy", "zstandard"}) {
    ManifestWriterOptions options;
    options.schema = t.schema;
    options.spec = t.spec;
    options.codec = codec;
    auto written = WriteManifest(options, {});
    ASSERT_TRUE(written.has_value());
    auto file = avro::FileReader::Open(written->bytes, "x");
    ASSERT_TRUE(file.has_value());
    EXPECT_EQ(*file->Meta("avro.codec"), codec);
    EXPECT_EQ(*file->Meta("format-version"), "2");
    EXPECT_EQ(*file->Meta("content"), "data");
    EXPECT_EQ(*file->Meta("partition-spec-id"), "2");
    EXPECT_EQ(*file->Meta("schema-id"), "3");
    EXPECT_NE(file->Meta("schema"), nullptr);
    EXPECT_NE(file->Meta("partition-spec"), nullptr);
  }
}

TEST(ManifestWriter, RefusesEntriesThatDoNotFit) {
  SampleTable t = MakeSampleTable();
  ManifestWriterOptions options;
  options.schema = t.schema;
  options.spec = t.spec;
  auto writer = ManifestWriter::Make(options);
  ASSERT_TRUE(writer.has_value());
  std::mt19937_64 rng(1);
  ManifestEntry wrong_arity = RandomEntry(rng, 2, false, t, 0);
  wrong_arity.file.partition.pop_back();
  EXPECT_FALSE(writer->Add(wrong_arity).has_value());
  ManifestEntry a_delete = RandomEntry(rng, 2, true, t, 1);
  auto st = writer->Add(a_delete);
  ASSERT_FALSE(st.has_value());
  EXPECT_NE(st.error().message.find("data manifest"), std::string::npos);
  ManifestEntry good = RandomEntry(rng, 2, false, t, 2);
  EXPECT_TRUE(writer->Add(good).has_value());
  auto done = writer->Finish();
  ASSERT_TRUE(done.has_value());
  auto read = ReadManifest(done->bytes, "m");
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->entries.size(), 1u);  // the refused entries left nothing behind

  ManifestWriterOptions v1 = options;
  v1.format_version = 1;
  v1.content = ManifestContent::kDeletes;
  EXPECT_FALSE(ManifestWriter::Make(v1).has_value());
}

TEST(ManifestReader, InheritsFromTheManifestList) {
  SampleTable t = MakeSampleTable();
  std::mt19937_64 rng(7);
  std::vector<ManifestEntry> entries;
  for (int i = 0; i < 3; ++i) entries.push_back(RandomEntry(rng, 2, false, t, i));
  entries[0].status = EntryStatus::kAdded;  // new: everything null, inherited
  entries[0].snapshot_id.reset();
  entries[0].sequence_number.reset();
  entries[0].file_sequence_number.reset();
  entries[1].status = EntryStatus::kExisting;  // carried over: explicit numbers kept
  entries[1].snapshot_id = 11;
  entries[1].sequence_number = 3;
  entries[1].file_sequence_number = 4;
  entries[2].status = EntryStatus::kAdded;  // added with an older data sequence number
  entries[2].snapshot_id.reset();
  entries[2].sequence_number = 2;
  entries[2].file_sequence_number.reset();
  ManifestWriterOptions options;
  options.schema = t.schema;
  options.spec = t.spec;
  auto written = WriteManifest(options, entries);
  ASSERT_TRUE(written.has_value());
  EXPECT_EQ(written->manifest.sequence_number, kUnassignedSequenceNumber);
  EXPECT_EQ(written->manifest.min_sequence_number, 2);  // the explicit live numbers bound it
  EXPECT_EQ(written->manifest.added_snapshot_id, kUnassignedSnapshotId);

  // The commit assigns numbers in the manifest list; reading through it inherits them.
  auto list_bytes = WriteManifestList({2, 99, 98, 7, std::nullopt, "deflate", -1}, {written->manifest});
  ASSERT_TRUE(list_bytes.has_value());
  auto list = ReadManifestList(*list_bytes, "snap.avro");
  ASSERT_TRUE(list.has_value()) << list.error().ToString();
  ASSERT_EQ(list->manifests.size(), 1u);
  const ManifestFile& mf = list->manifests[0];
  EXPECT_EQ(mf.sequence_number, 7);
  EXPECT_EQ(mf.min_sequence_number, 2);
  EXPECT_EQ(mf.added_snapshot_id, 99);
  ManifestReadOptions ro;
  ro.manifest = &mf;
  auto read = ReadManifest(written->bytes, "m", ro);
  ASSERT_TRUE(read.has_value());
  const auto& r = read->entries;
  EXPECT_EQ(r[0].snapshot_id, 99);
  EXPECT_EQ(r[0].sequence_number, 7);
  EXPECT_EQ(r[0].file_sequence_number, 7);
  EXPECT_EQ(r[1].snapshot_id, 11);
  EXPECT_EQ(r[1].sequence_number, 3);
  EXPECT_EQ(r[1].file_sequence_number, 4);
  EXPECT_EQ(r[2].snapshot_id, 99);
  EXPECT_EQ(r[2].sequence_number, 2);
  EXPECT_EQ(r[2].file_sequence_number, 7);
  // Without the list entry nothing is invented.
  auto alone = ReadManifest(written->bytes, "m");
  ASSERT_TRUE(alone.has_value());
  EXPECT_FALSE(alone->entries[0].sequence_number.has_value());
  EXPECT_FALSE(alone->entries[0].snapshot_id.has_value());
}

// Rebuilds a container file without the key-value metadata some writers leave out.
std::string StripMetadata(const std::string& bytes) {
  avro::Decoder d(std::string_view(bytes).substr(4));
  std::string schema, codec;
  while (int64_t n = d.ReadBlockCount()) {
    for (int64_t i = 0; i < n; ++i) {
      std::string key(d.ReadBytesView());
      std::string value(d.ReadBytesView());
      if (key == "avro.schema") schema = value;
      if (key == "avro.codec") codec = value;
    }
  }
  std::string rest = bytes.substr(bytes.size() - d.remaining());  // sync marker and blocks
  std::string out("Obj\x01", 4);
  avro::Encoder e(&out);
  e.WriteLong(2);
  e.WriteString("avro.schema");
  e.WriteBytes(schema);
  e.WriteString("avro.codec");
  e.WriteBytes(codec);
  e.WriteLong(0);
  return out + rest;
}

TEST(ManifestReader, ManifestWithoutKeyValueMetadata) {
  SampleTable t = MakeSampleTable();
  std::mt19937_64 rng(9);
  std::vector<ManifestEntry> entries;
  for (int i = 0; i < 200; ++i) entries.push_back(RandomEntry(rng, 2, false, t, i));
  ManifestWriterOptions options;
  options.schema = t.schema;
  options.spec = t.spec;
  auto written = WriteManifest(options, entries);
  ASSERT_TRUE(written.has_value());
  std::string bare = StripMetadata(written->bytes);

  // With the table's metadata: the spec and schema come from there.
  TableMetadata table;
  table.schemas = {t.schema};
  table.current_schema_id = t.schema.schema_id();
  table.partition_specs = {t.spec};
  table.default_spec_id = t.spec.spec_id();
  auto with_table = ReadManifest(bare, "bare.avro", {nullptr, &table});
  ASSERT_TRUE(with_table.has_value()) << with_table.error().ToString();
  EXPECT_TRUE(with_table->info.partition_type->Equals(*t.partition_type));
  ASSERT_EQ(with_table->entries.size(), entries.size());
  for (size_t i = 0; i < entries.size(); ++i) ExpectSameEntry(entries[i], with_table->entries[i], 2, i);

  // Alone: the partition values are typed from the Avro schema, same values.
  auto alone = ReadManifest(bare, "bare.avro");
  ASSERT_TRUE(alone.has_value()) << alone.error().ToString();
  EXPECT_EQ(alone->info.format_version, 2);
  ASSERT_EQ(alone->info.partition_type->fields().size(), t.partition_type->fields().size());
  for (size_t p = 0; p < t.partition_type->fields().size(); ++p) {
    EXPECT_EQ(alone->info.partition_type->fields()[p].id, t.partition_type->fields()[p].id);
    EXPECT_TRUE(alone->info.partition_type->fields()[p].type->Equals(*t.partition_type->fields()[p].type))
        << t.partition_type->fields()[p].name;
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    for (size_t p = 0; p < entries[i].file.partition.size(); ++p) {
      EXPECT_TRUE(SameValue(entries[i].file.partition[p], alone->entries[i].file.partition[p]));
    }
  }
}

// `bytes` with the value of one key-value metadata key replaced.
std::string ReplaceMetadata(const std::string& bytes, const std::string& key, const std::string& value) {
  avro::Decoder d(std::string_view(bytes).substr(4));
  std::vector<std::pair<std::string, std::string>> pairs;
  while (int64_t n = d.ReadBlockCount()) {
    for (int64_t i = 0; i < n; ++i) {
      std::string k(d.ReadBytesView());
      std::string v(d.ReadBytesView());
      pairs.emplace_back(k, k == key ? value : v);
    }
  }
  std::string rest = bytes.substr(bytes.size() - d.remaining());
  std::string out("Obj\x01", 4);
  avro::Encoder e(&out);
  e.WriteLong(static_cast<int64_t>(pairs.size()));
  for (const auto& [k, v] : pairs) {
    e.WriteString(k);
    e.WriteBytes(v);
  }
  e.WriteLong(0);
  return out + rest;
}

// DuckDB 1.4 writes the manifest entry's Avro-like schema under the 'schema' key, which is no
// Iceberg table schema. With the table at hand (every scan has it) the reader uses the table's
// schema, as Java's does; without it the manifest cannot be typed and is refused by name.
TEST(ManifestReader, SchemaMetadataThatIsNoIcebergSchemaReadsWithTheTables) {
  SampleTable t = MakeSampleTable();
  std::mt19937_64 rng(11);
  std::vector<ManifestEntry> entries;
  for (int i = 0; i < 20; ++i) entries.push_back(RandomEntry(rng, 2, false, t, i));
  ManifestWriterOptions options;
  options.schema = t.schema;
  options.spec = t.spec;
  auto written = WriteManifest(options, entries);
  ASSERT_TRUE(written.has_value());
  std::string odd = ReplaceMetadata(written->bytes, "schema",
                                    R"({"type":"struct","fields":[{"id":126,"name":"lower_bounds","type":)"
                                    R"({"type":"array","items":{"type":"record","fields":[]}}}]})");
  TableMetadata table;
  table.schemas = {t.schema};
  table.current_schema_id = t.schema.schema_id();
  table.partition_specs = {t.spec};
  table.default_spec_id = t.spec.spec_id();
  auto with_table = ReadManifest(odd, "duckdb-m0.avro", {nullptr, &table});
  ASSERT_TRUE(with_table.has_value()) << with_table.error().ToString();
  EXPECT_TRUE(with_table->info.partition_type->Equals(*t.partition_type));
  ASSERT_EQ(with_table->entries.size(), entries.size());
  for (size_t i = 0; i < entries.size(); ++i) ExpectSameEntry(entries[i], with_table->entries[i], 2, i);

  auto alone = ReadManifest(odd, "duckdb-m0.avro");
  ASSERT_FALSE(alone.has_value());
  EXPECT_NE(alone.error().message.find("bad 'schema' metadata"), std::string::npos) << alone.error().message;
}

TEST(ManifestList, RoundTripV1V2V3) {
  for (int v : {1, 2, 3}) {
    SCOPED_TRACE("v" + std::to_string(v));
    std::vector<ManifestFile> manifests;
    std::mt19937_64 rng(v);
    for (int i = 0; i < 500; ++i) {
      ManifestFile m;
      m.manifest_path = "s3://b/t/metadata/m" + std::to_string(i) + ".avro";
      m.manifest_length = static_cast<int64_t>(rng() % 100000);
      m.partition_spec_id = static_cast<int>(rng() % 4);
      m.content = v >= 2 && rng() % 2 ? ManifestContent::kDeletes : ManifestContent::kData;
      m.sequence_number = v >= 2 ? (i % 3 == 0 ? kUnassignedSequenceNumber : static_cast<int64_t>(rng() % 50)) : 0;
      m.min_sequence_number = v >= 2 ? (i % 3 == 0 ? kUnassignedSequenceNumber : static_cast<int64_t>(rng() % 50)) : 0;
      m.added_snapshot_id = i % 5 == 0 ? kUnassignedSnapshotId : static_cast<int64_t>(rng() >> 2);
      m.added_files_count = static_cast<int32_t>(rng() % 1000);
      m.existing_files_count = static_cast<int32_t>(rng() % 1000);
      m.deleted_files_count = static_cast<int32_t>(rng() % 1000);
      m.added_rows_count = static_cast<int64_t>(rng() % 1000000);
      m.existing_rows_count = static_cast<int64_t>(rng() % 1000000);
      m.deleted_rows_count = static_cast<int64_t>(rng() % 1000000);
      for (int p = static_cast<int>(rng() % 3); p > 0; --p) {
        PartitionFieldSummary s;
        s.contains_null = rng() % 2;
        if (rng() % 2) s.contains_nan = rng() % 2 == 0;
        if (rng() % 4) s.lower_bound = avro_sample::RandomBytes(rng, rng() % 9);
        if (rng() % 4) s.upper_bound = avro_sample::RandomBytes(rng, rng() % 9);
        m.partitions.push_back(s);
      }
      if (rng() % 4 == 0) m.key_metadata = avro_sample::RandomBytes(rng, 8);
      if (v >= 3 && m.content == ManifestContent::kData && rng() % 2) m.first_row_id = static_cast<int64_t>(rng() % 1000);
      manifests.push_back(m);
    }
    ManifestListWriterOptions options;
    options.format_version = v;
    options.snapshot_id = 1234;
    options.parent_snapshot_id = v == 2 ? std::optional<int64_t>(1000) : std::nullopt;
    options.sequence_number = v >= 2 ? 51 : 0;
    auto bytes = WriteManifestList(options, manifests);
    ASSERT_TRUE(bytes.has_value()) << bytes.error().ToString();
    auto read = ReadManifestList(*bytes, "snap-1234.avro");
    ASSERT_TRUE(read.has_value()) << read.error().ToString();
    EXPECT_EQ(read->format_version, v);
    EXPECT_EQ(read->metadata.at("snapshot-id"), "1234");
    EXPECT_EQ(read->metadata.at("parent-snapshot-id"), v == 2 ? "1000" : "null");
    if (v >= 2) {
      EXPECT_EQ(read->metadata.at("sequence-number"), "51");
    }
    ASSERT_EQ(read->manifests.size(), manifests.size());
    for (size_t i = 0; i < manifests.size(); ++i) {
      const ManifestFile& a = manifests[i];
      const ManifestFile& b = read->manifests[i];
      SCOPED_TRACE(a.manifest_path);
      EXPECT_EQ(a.manifest_path, b.manifest_path);
      EXPECT_EQ(a.manifest_length, b.manifest_length);
      EXPECT_EQ(a.partition_spec_id, b.partition_spec_id);
      EXPECT_EQ(a.content, b.content);
      int64_t seq = a.sequence_number == kUnassignedSequenceNumber ? 51 : a.sequence_number;
      EXPECT_EQ(b.sequence_number, v >= 2 ? seq : 0);
      EXPECT_EQ(b.min_sequence_number, v >= 2 ? (a.min_sequence_number == kUnassignedSequenceNumber ? seq : a.min_sequence_number) : 0);
      EXPECT_EQ(b.added_snapshot_id, a.added_snapshot_id == kUnassignedSnapshotId ? 1234 : a.added_snapshot_id);
      EXPECT_EQ(a.added_files_count, b.added_files_count);
      EXPECT_EQ(a.existing_files_count, b.existing_files_count);
      EXPECT_EQ(a.deleted_files_count, b.deleted_files_count);
      EXPECT_EQ(a.added_rows_count, b.added_rows_count);
      EXPECT_EQ(a.existing_rows_count, b.existing_rows_count);
      EXPECT_EQ(a.deleted_rows_count, b.deleted_rows_count);
      ASSERT_EQ(a.partitions.size(), b.partitions.size());
      for (size_t p = 0; p < a.partitions.size(); ++p) {
        EXPECT_EQ(a.partitions[p].contains_null, b.partitions[p].contains_null);
        EXPECT_EQ(a.partitions[p].contains_nan, b.partitions[p].contains_nan);
        EXPECT_EQ(a.partitions[p].lower_bound, b.partitions[p].lower_bound);
        EXPECT_EQ(a.partitions[p].upper_bound, b.partitions[p].upper_bound);
      }
      EXPECT_EQ(a.key_metadata, b.key_metadata);
      EXPECT_EQ(a.first_row_id, b.first_row_id);
    }
  }
}

}  // namespace
}  // namespace floe
