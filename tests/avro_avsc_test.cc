// Cross-engine: avsc (an independent Avro implementation, from npm) reads the manifests and
// manifest lists floe writes, and tests/js/check_manifest.mjs checks their field names, ids and
// types against the Iceberg spec's schemas.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "avro/manifest_list.h"
#include "avro/manifest_writer.h"
#include "avro/sample_entries.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

std::string RunCommand(const std::string& cmd, int* exit_code) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    *exit_code = -1;
    return out;
  }
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = pclose(p);
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

struct Written {
  std::string path;
  int format_version;
  bool list;
  std::vector<ManifestEntry> entries;   // manifests
  std::vector<ManifestFile> manifests;  // lists
};

TEST(AvscReadsFloeManifests, FieldNamesIdsAndTypesMatchTheSpec) {
  std::string js_dir = std::string(FLOE_SOURCE_DIR) + "/tests/js";
  int rc = 0;
  RunCommand("node --version > /dev/null 2>&1", &rc);
  if (rc != 0) GTEST_SKIP() << "skipped: node is not installed (needed to run avsc)";
  if (!fs::exists(js_dir + "/node_modules/avsc")) {
    GTEST_SKIP() << "skipped: tests/js/node_modules/avsc is missing (cd tests/js && npm install)";
  }
  fs::path dir = fs::temp_directory_path() / ("floe_avsc_" + std::to_string(getpid()));
  fs::create_directories(dir);

  avro_sample::SampleTable t = avro_sample::MakeSampleTable();
  std::vector<Written> files;
  std::mt19937_64 rng(2026);
  struct Kind {
    int version;
    bool deletes;
    const char* codec;
  };
  for (Kind k : {Kind{1, false, "deflate"}, Kind{2, false, "deflate"}, Kind{2, true, "null"}, Kind{3, false, "null"},
                 Kind{3, true, "deflate"}}) {
    Written w;
    w.format_version = k.version;
    w.list = false;
    w.path = (dir / ("m-v" + std::to_string(k.version) + (k.deletes ? "-deletes" : "-data") + ".avro")).string();
    for (int i = 0; i < 700; ++i) w.entries.push_back(avro_sample::RandomEntry(rng, k.version, k.deletes, t, i));
    ManifestWriterOptions options;
    options.format_version = k.version;
    options.content = k.deletes ? ManifestContent::kDeletes : ManifestContent::kData;
    options.schema = t.schema;
    options.spec = t.spec;
    options.manifest_path = w.path;
    options.snapshot_id = 77;
    options.codec = k.codec;
    auto written = WriteManifest(options, w.entries);
    ASSERT_TRUE(written.has_value()) << written.error().ToString();
    std::ofstream(w.path, std::ios::binary) << written->bytes;
    files.push_back(w);
    Written list;
    list.format_version = k.version;
    list.list = true;
    list.path = (dir / ("snap-v" + std::to_string(k.version) + (k.deletes ? "-d" : "") + ".avro")).string();
    list.manifests = {written->manifest, written->manifest};
    list.manifests[1].manifest_path += ".copy";
    list.manifests[1].sequence_number = 3;
    list.manifests[1].min_sequence_number = 2;
    ManifestListWriterOptions lo;
    lo.format_version = k.version;
    lo.snapshot_id = 77;
    lo.sequence_number = k.version >= 2 ? 9 : 0;
    lo.codec = k.codec;
    auto lbytes = WriteManifestList(lo, list.manifests);
    ASSERT_TRUE(lbytes.has_value()) << lbytes.error().ToString();
    std::ofstream(list.path, std::ios::binary) << *lbytes;
    files.push_back(list);
  }

  std::string cmd = "cd '" + js_dir + "' && node check_manifest.mjs";
  for (const auto& f : files) cmd += " '" + f.path + "'";
  std::string out = RunCommand(cmd + " 2>&1", &rc);
  std::istringstream lines(out);
  std::string line;
  size_t i = 0;
  while (std::getline(lines, line)) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << "check_manifest.mjs printed: " << out;
    ASSERT_LT(i, files.size());
    const Written& w = files[i++];
    SCOPED_TRACE(w.path);
    EXPECT_EQ(j["file"], w.path);
    EXPECT_TRUE(j["problems"].empty()) << j["problems"].dump(2);
    EXPECT_EQ(j["format_version"], w.format_version);
    if (w.list) {
      EXPECT_EQ(j["kind"], "manifest-list");
      ASSERT_EQ(j["records"], w.manifests.size());
      int added = 0;
      for (size_t m = 0; m < w.manifests.size(); ++m) {
        EXPECT_EQ(j["manifest_paths"][m], w.manifests[m].manifest_path);
        added += w.manifests[m].added_files_count;
      }
      EXPECT_EQ(j["total_added_files"], added);
      if (w.format_version >= 2) {
        // The new manifest's unassigned sequence number became the list's; the other kept its own.
        EXPECT_EQ(j["sequence_numbers"], nlohmann::json::array({"9", "3"}));
      }
    } else {
      EXPECT_EQ(j["kind"], "manifest");
      ASSERT_EQ(j["records"], w.entries.size());
      int status[3] = {0, 0, 0};
      int64_t rows = 0;
      int null_seq = 0;
      for (const auto& e : w.entries) {
        ++status[static_cast<int>(e.status)];
        rows += e.file.record_count;
        null_seq += !e.sequence_number.has_value();
      }
      EXPECT_EQ(j["status_counts"], nlohmann::json::array({status[0], status[1], status[2]}));
      EXPECT_EQ(j["total_record_count"], std::to_string(rows));
      if (w.format_version >= 2) {
        EXPECT_EQ(j["null_sequence_numbers"], null_seq);
      }
      EXPECT_EQ(j["first"]["file_path"], w.entries[0].file.file_path);
      EXPECT_EQ(j["first"]["partition_fields"], t.partition_type->fields().size());
    }
  }
  EXPECT_EQ(i, files.size()) << "check_manifest.mjs printed: " << out;
  EXPECT_EQ(rc, 0) << out;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace floe
