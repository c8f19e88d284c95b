// The incremental parse gives exactly what the full parse gives, errors included, whatever
// the previous document is; and it does reuse the snapshots both documents share.
#include "meta/metadata_reuse.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "meta/meta_test_util.h"
#include "meta/metadata_json.h"
#include "meta/metadata_writer.h"

namespace floe {
namespace {

using testing::FixturesDir;
using testing::ReadText;

// A previous document as a cache holds one after parsing it.
PreviousDocument Parsed(const std::string& text) {
  auto parsed = ParseTableMetadataReusing(text, PreviousDocument{});
  EXPECT_TRUE(parsed) << parsed.error().ToString();
  if (!parsed) return {};
  return PreviousDocument{std::make_shared<TableMetadata>(std::move(parsed->metadata)), parsed->text};
}

// A previous document as the process that wrote it holds it.
PreviousDocument Written(const TableMetadata& m, const MetadataText* previous_text = nullptr) {
  return PreviousDocument{std::make_shared<TableMetadata>(m), WriteTableMetadataText(m, previous_text)};
}

// Parses `text` both ways and expects the same outcome; returns how many snapshots were reused.
size_t ExpectSameAsFullParse(const std::string& text, const PreviousDocument& previous, const std::string& what) {
  SCOPED_TRACE(what);
  auto full = ParseTableMetadata(text);
  auto reusing = ParseTableMetadataReusing(text, previous);
  if (!full) {
    EXPECT_FALSE(reusing) << "the full parse fails with: " << full.error().ToString();
    if (!reusing) {
      EXPECT_EQ(reusing.error().kind, full.error().kind);
      EXPECT_EQ(reusing.error().message, full.error().message);
    }
    return 0;
  }
  EXPECT_TRUE(reusing) << reusing.error().ToString();
  if (!reusing) return 0;
  EXPECT_EQ(WriteTableMetadata(reusing->metadata), WriteTableMetadata(*full));
  EXPECT_EQ(TableMetadataToJson(reusing->metadata), TableMetadataToJson(*full));
  if (reusing->text) {
    // The index it returns lines up with the snapshots, so the document can be a previous.
    EXPECT_EQ(reusing->text->text, text);
    EXPECT_EQ(reusing->text->snapshot_spans.size(), full->snapshots.size());
  }
  return reusing->reused_snapshots;
}

// A table's history of `commits` appends (every `expire_every`th commit also expires the
// oldest two snapshots), with each document as floe wrote it.
struct DocumentHistory {
  std::vector<TableMetadata> metadata;
  std::vector<std::shared_ptr<const MetadataText>> texts;
};

DocumentHistory BuildHistory(int commits, int expire_every = 0, const std::string& location = "s3://bucket/t") {
  DocumentHistory h;
  TableMetadata m = testing::NewSampleTable(2);
  m.location = location;
  std::shared_ptr<const MetadataText> text = WriteTableMetadataText(m, nullptr);
  h.metadata.push_back(m);
  h.texts.push_back(text);
  std::optional<int64_t> parent;
  for (int64_t id = 1; id <= commits; ++id) {
    Snapshot s = testing::MakeSnapshot(id * 1000003, parent, id, 1000 + id);
    s.summary["note"] = "row \"" + std::to_string(id) + "\"\n\u00e9";
    s.manifest_list = location + "/metadata/snap-" + std::to_string(id) + ".avro";
    std::vector<TableUpdate> updates{AddSnapshot{s}, SetSnapshotRef{"main", testing::Branch(s.snapshot_id)}};
    if (expire_every > 0 && id % expire_every == 0) {
      updates.push_back(RemoveSnapshots{{m.snapshots[0].snapshot_id, m.snapshots[1].snapshot_id}});
    }
    auto next = ApplyCommit(&m, location + "/metadata/v" + std::to_string(id) + ".metadata.json", {}, updates,
                            2000 + id);
    EXPECT_TRUE(next) << next.error().ToString();
    m = std::move(*next);
    text = WriteTableMetadataText(m, text.get());
    h.metadata.push_back(m);
    h.texts.push_back(text);
    parent = s.snapshot_id;
  }
  return h;
}

TEST(MetadataReuse, FloeHistoryReusesEverySnapshotItAlreadyHad) {
  const DocumentHistory h = BuildHistory(40, /*expire_every=*/7);
  size_t reused_from_written = 0, reused_from_parsed = 0, possible = 0;
  for (size_t k = 1; k < h.texts.size(); ++k) {
    const std::string& text = h.texts[k]->text;
    // What both documents hold: the snapshots of k-1 that k kept.
    size_t shared = 0;
    for (const auto& s : h.metadata[k].snapshots) shared += h.metadata[k - 1].SnapshotById(s.snapshot_id) != nullptr;
    possible += shared;
    const std::string what = "document " + std::to_string(k);
    const size_t from_written = ExpectSameAsFullParse(text, {std::make_shared<TableMetadata>(h.metadata[k - 1]), h.texts[k - 1]}, what);
    const size_t from_parsed = ExpectSameAsFullParse(text, Parsed(h.texts[k - 1]->text), what + ", previous parsed");
    EXPECT_EQ(from_written, shared) << what;
    EXPECT_EQ(from_parsed, shared) << what;
    reused_from_written += from_written;
    reused_from_parsed += from_parsed;
    // Any older document works too: bytes decide, not adjacency.
    ExpectSameAsFullParse(text, Parsed(h.texts[k / 2]->text), what + ", previous " + std::to_string(k / 2));
  }
  EXPECT_GT(possible, 300u);
  EXPECT_EQ(reused_from_written, possible);
  EXPECT_EQ(reused_from_parsed, possible);
}

TEST(MetadataReuse, NoPreviousOrAnUnrelatedOneReusesNothing) {
  const DocumentHistory h = BuildHistory(12);
  const DocumentHistory other = BuildHistory(12, 0, "s3://bucket/other");  // same ids, other manifest lists
  const std::string& text = h.texts.back()->text;
  EXPECT_EQ(ExpectSameAsFullParse(text, {}, "no previous"), 0u);
  EXPECT_EQ(ExpectSameAsFullParse(text, Parsed(other.texts.back()->text), "other table"), 0u);
  EXPECT_EQ(ExpectSameAsFullParse(text, {std::make_shared<TableMetadata>(other.metadata.back()), other.texts.back()},
                                  "other table, written"),
            0u);
  // A previous whose text and metadata do not line up is not used.
  EXPECT_EQ(ExpectSameAsFullParse(text, {std::make_shared<TableMetadata>(h.metadata[5]), h.texts[6]}, "mismatched"), 0u);
}

TEST(MetadataReuse, TheSameIdWithOtherBytesIsParsedNotReused) {
  const DocumentHistory h = BuildHistory(5);
  const std::string previous = h.texts[4]->text;
  // Snapshot 2's summary says something else in the new document, under the same id.
  std::string text = h.texts[5]->text;
  const std::string from = "row \\\"2\\\"";
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), "row \\\"two\\\"");
  EXPECT_EQ(ExpectSameAsFullParse(text, Parsed(previous), "changed summary"), 3u);
  auto reusing = ParseTableMetadataReusing(text, Parsed(previous));
  ASSERT_TRUE(reusing);
  EXPECT_EQ(reusing->metadata.SnapshotById(2 * 1000003)->summary.at("note"), "row \"two\"\n\u00e9");
  // Only whitespace differs: still parsed (and still equal).
  std::string spaced = h.texts[5]->text;
  const size_t id_at = spaced.find("\"snapshot-id\":3000009");
  ASSERT_NE(id_at, std::string::npos);
  spaced.insert(id_at, " ");
  EXPECT_EQ(ExpectSameAsFullParse(spaced, Parsed(previous), "extra space"), 3u);
}

// nlohmann's re-dumps of a document: other indentation, keys sorted, or everything on one line.
std::vector<std::pair<std::string, std::string>> Reformatted(const std::string& text) {
  const nlohmann::ordered_json ordered = nlohmann::ordered_json::parse(text);
  const nlohmann::json sorted = nlohmann::json::parse(text);
  return {{"compact", ordered.dump()},
          {"indent 4", ordered.dump(4)},
          {"tabs", ordered.dump(1, '\t')},
          {"sorted keys", sorted.dump(3)},
          {"ascii escapes", sorted.dump(-1, ' ', /*ensure_ascii=*/true)}};
}

TEST(MetadataReuse, OtherLayoutsParseTheSameAndReuseAmongThemselves) {
  const DocumentHistory h = BuildHistory(20, /*expire_every=*/6);
  for (size_t k : {1u, 10u, 20u}) {
    const auto now = Reformatted(h.texts[k]->text);
    const auto before = Reformatted(h.texts[k - 1]->text);
    for (size_t v = 0; v < now.size(); ++v) {
      const std::string what = now[v].first + " document " + std::to_string(k);
      // Against floe's own layout nothing matches byte for byte, but the result is the same.
      ExpectSameAsFullParse(now[v].second, {std::make_shared<TableMetadata>(h.metadata[k - 1]), h.texts[k - 1]}, what);
      const size_t reused = ExpectSameAsFullParse(now[v].second, Parsed(before[v].second), what + ", same layout");
      EXPECT_EQ(reused, std::min(h.metadata[k - 1].snapshots.size(), h.metadata[k].snapshots.size() - 1)) << what;
    }
  }
  // Top-level keys spelled with escapes (same value for a JSON parser) and duplicate keys
  // (the last one counts): the full parse handles them.
  const std::string& text = h.texts[20]->text;
  const PreviousDocument previous = Parsed(h.texts[19]->text);
  std::string escaped = text;
  escaped.replace(escaped.find("\"snapshots\""), 11, "\"snapsh\\u006fts\"");
  EXPECT_EQ(ExpectSameAsFullParse(escaped, previous, "escaped snapshots key"), 0u);
  std::string twice = text;
  twice.insert(twice.find("\"snapshots\""), "\"snapshots\":[],");
  ExpectSameAsFullParse(twice, previous, "snapshots twice, first empty");
  std::string twice_after = text;
  twice_after.insert(twice_after.find("\"statistics\""), "\"snapshots\":[],");
  ExpectSameAsFullParse(twice_after, previous, "snapshots twice, last empty");
  std::string log_twice = text;
  log_twice.insert(log_twice.find("\"metadata-log\""), "\"snapshot-log\":[],");
  ExpectSameAsFullParse(log_twice, previous, "snapshot-log twice, last empty");
  std::string log_null = text;
  const size_t log_at = log_null.find("\"snapshot-log\":[");
  log_null.replace(log_at, log_null.find("\"metadata-log\"") - log_at, "\"snapshot-log\":null,");
  ExpectSameAsFullParse(log_null, previous, "snapshot-log null");
}

TEST(MetadataReuse, BadDocumentsGetTheFullParsesError) {
  const DocumentHistory h = BuildHistory(6);
  const std::string good = h.texts[6]->text;
  const PreviousDocument previous = Parsed(h.texts[5]->text);
  const size_t snapshots_at = good.find("\"snapshots\":[");
  ASSERT_NE(snapshots_at, std::string::npos);
  const size_t last_snapshot = good.find("\"snapshot-id\":6000018", snapshots_at);
  ASSERT_NE(last_snapshot, std::string::npos);
  auto edit = [&](size_t at, size_t erase, const std::string& insert) {
    std::string t = good;
    t.replace(at, erase, insert);
    return t;
  };
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"truncated", good.substr(0, good.size() / 2)},
      {"truncated in the last snapshot", good.substr(0, last_snapshot + 10)},
      {"garbage after", good + "x"},
      {"trailing comma in snapshots", edit(good.find("],\"statistics\""), 0, ",")},
      {"snapshots not an array", edit(snapshots_at, 13, "\"snapshots\": {\"a\": [")},
      {"a snapshot that is not an object", edit(snapshots_at, 13, "\"snapshots\": [1, ")},
      {"broken JSON in a new snapshot", edit(last_snapshot, 0, "\"x\": tru, ")},
      {"a new snapshot without timestamp", edit(good.find("\"timestamp-ms\"", last_snapshot), 14, "\"time\"")},
      {"a new snapshot with a duplicate id", edit(last_snapshot, 21, "\"snapshot-id\": 5000015")},
      {"invalid UTF-8 in a new snapshot", edit(last_snapshot, 0, "\"x\": \"\xff\", ")},
      {"shared snapshots, bad header", edit(good.find("\"last-column-id\""), 16, "\"last-column-idx\"")},
      {"shared snapshots, unknown format", edit(good.find("\"format-version\":2"), 18, "\"format-version\": 9")},
      {"current snapshot missing", edit(good.find("\"current-snapshot-id\":6000018"), 29, "\"current-snapshot-id\": 77")},
      {"a new snapshot-log entry with a string id",
       edit(good.rfind("\"snapshot-id\":6000018"), 21, "\"snapshot-id\": \"6000018\"")},
      {"a snapshot-log entry that is not an object", edit(good.find("\"snapshot-log\":[") + 16, 0, "7, ")},
      {"not an object", "[" + good + "]"},
      {"empty", ""},
  };
  for (const auto& [what, text] : bad) {
    ASSERT_FALSE(ParseTableMetadata(text)) << what << " parses; the case tests nothing";
    ExpectSameAsFullParse(text, previous, what);
  }
}

TEST(MetadataReuse, APreviousWrittenWithReplacedBytesIsNotTrusted) {
  // Written from a string that is not UTF-8, the text reads back with replacement characters:
  // the writer's metadata is not what the text parses to, so it must not be reused.
  TableMetadata m = testing::NewSampleTable(2);
  Snapshot s = testing::MakeSnapshot(7, {}, 1, 1500);
  s.summary["bad"] = std::string("ok\xff", 3);
  auto next = ApplyCommit(&m, "/w/t/metadata/v1.metadata.json", {}, {AddSnapshot{s}, SetSnapshotRef{"main", testing::Branch(7)}}, 2000);
  ASSERT_TRUE(next);
  const PreviousDocument written = Written(*next);
  EXPECT_FALSE(written.text->reparses_exactly);
  Snapshot s2 = testing::MakeSnapshot(8, 7, 2, 1600);
  auto after = ApplyCommit(&*next, "/w/t/metadata/v2.metadata.json", {}, {AddSnapshot{s2}, SetSnapshotRef{"main", testing::Branch(8)}}, 2100);
  ASSERT_TRUE(after);
  const std::string text = WriteTableMetadata(*after);
  EXPECT_EQ(ExpectSameAsFullParse(text, written, "replaced bytes"), 0u);
  auto reusing = ParseTableMetadataReusing(text, written);
  ASSERT_TRUE(reusing);
  EXPECT_EQ(reusing->metadata.SnapshotById(7)->summary.at("bad"), "ok\xef\xbf\xbd");
  EXPECT_TRUE(Written(m).text->reparses_exactly);
}

// A previous handed over (PreviousDocument::handed_over) gives up its snapshots by move.
PreviousDocument HandedOver(const std::string& text) {
  PreviousDocument p = Parsed(text);
  p.metadata = std::make_shared<TableMetadata>(*p.metadata);  // the only holder
  p.handed_over = true;
  return p;
}

TEST(MetadataReuse, AHandedOverPreviousGivesTheSameResult) {
  const DocumentHistory h = BuildHistory(20, /*expire_every=*/6);
  for (size_t k = 1; k < h.texts.size(); ++k) {
    auto full = ParseTableMetadata(h.texts[k]->text);
    ASSERT_TRUE(full);
    auto moved = ParseTableMetadataReusing(h.texts[k]->text, [&](std::string_view) { return HandedOver(h.texts[k - 1]->text); });
    ASSERT_TRUE(moved) << moved.error().ToString();
    EXPECT_EQ(WriteTableMetadata(moved->metadata), WriteTableMetadata(*full)) << k;
    if (k > 1) {
      EXPECT_GT(moved->reused_snapshots, 0u) << k;
    }
  }
  // A snapshot repeated byte for byte would be moved twice: the full parse judges (duplicate id).
  std::string text = h.texts[20]->text;
  const size_t first = text.find("{\"snapshot-id\"");
  const size_t second = text.find("{\"snapshot-id\"", first + 1);
  ASSERT_NE(second, std::string::npos);
  text.insert(first, text.substr(first, second - first));
  auto repeated = ParseTableMetadataReusing(text, [&](std::string_view) { return HandedOver(h.texts[19]->text); });
  auto full = ParseTableMetadata(text);
  ASSERT_FALSE(full);
  ASSERT_FALSE(repeated);
  EXPECT_EQ(repeated.error().message, full.error().message);
}

TEST(MetadataReuse, TheTableUuidChoosesThePrevious) {
  const DocumentHistory h = BuildHistory(4);
  std::string asked;
  auto parsed = ParseTableMetadataReusing(h.texts[4]->text, [&](std::string_view uuid) {
    asked = std::string(uuid);
    return Parsed(h.texts[3]->text);
  });
  ASSERT_TRUE(parsed);
  EXPECT_EQ(asked, h.metadata[4].table_uuid);
  EXPECT_EQ(parsed->reused_snapshots, 3u);
}

// Every fixture document (Spark, PyIceberg, DuckDB, iceberg-cpp, the spec's examples, the
// invalid ones too), parsed with no previous, with itself, and with each document of the same
// folder as previous (a table's earlier and later versions).
TEST(MetadataReuse, EveryFixtureParsesTheSame) {
  const std::filesystem::path dir = FixturesDir();
  if (dir.empty()) GTEST_SKIP() << "skipped: no fixtures";
  std::map<std::filesystem::path, std::vector<std::filesystem::path>> by_folder;
  for (const auto& root : {dir / "metadata", dir / "tables"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      const std::string name = entry.path().filename().string();
      if (!entry.is_regular_file() || !name.ends_with(".json") || name.starts_with(".")) continue;
      if (root == dir / "tables" && !name.ends_with(".metadata.json")) continue;
      by_folder[entry.path().parent_path()].push_back(entry.path());
    }
  }
  int documents = 0;
  size_t reused = 0;
  for (auto& [folder, files] : by_folder) {
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      const std::string text = ReadText(file);
      ExpectSameAsFullParse(text, {}, file.string());
      if (ParseTableMetadata(text)) {
        const size_t self = ExpectSameAsFullParse(text, Parsed(text), file.string() + ", itself");
        EXPECT_EQ(self, ParseTableMetadata(text)->snapshots.size()) << file;
      }
      for (const auto& other : files) {
        if (other == file || !ParseTableMetadata(ReadText(other))) continue;
        reused += ExpectSameAsFullParse(text, Parsed(ReadText(other)), file.string() + " after " + other.string());
      }
      ++documents;
    }
  }
  EXPECT_GE(documents, 20);
  EXPECT_GT(reused, 0u);  // some table's versions share snapshots byte for byte
}

}  // namespace
}  // namespace floe
