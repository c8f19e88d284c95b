// Apache Avro C (Debian's libavro) reads the manifests and manifest lists floe writes, with each
// codec both implement (null, deflate, snappy): a second independent reader besides avsc.
#include <avro.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "avro/manifest_list.h"
#include "avro/manifest_writer.h"
#include "avro/sample_entries.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

struct LibavroFile {
  avro_file_reader_t reader = nullptr;
  avro_schema_t schema = nullptr;  // avro_file_reader_get_writer_schema hands out a reference
  avro_value_iface_t* iface = nullptr;
  avro_value_t value{};
  bool has_value = false;
  ~LibavroFile() {
    if (has_value) avro_value_decref(&value);
    if (iface) avro_value_iface_decref(iface);
    if (schema) avro_schema_decref(schema);
    if (reader) avro_file_reader_close(reader);
  }
};

std::string WriteTemp(const std::string& name, const std::string& bytes) {
  fs::path p = fs::temp_directory_path() / ("floe_libavro_" + std::to_string(getpid()) + "_" + name);
  std::ofstream(p, std::ios::binary) << bytes;
  return p.string();
}

std::string StringField(avro_value_t* record, const char* name) {
  avro_value_t field;
  if (avro_value_get_by_name(record, name, &field, nullptr) != 0) return "<no field>";
  const char* s = nullptr;
  size_t size = 0;
  if (avro_value_get_string(&field, &s, &size) != 0) return "<not a string>";
  return std::string(s, size > 0 ? size - 1 : 0);  // libavro counts the terminating NUL
}

TEST(LibavroInterop, ReadsFloeManifests) {
  avro_sample::SampleTable t = avro_sample::MakeSampleTable();
  for (int version : {1, 2, 3}) {
    for (const char* codec : {"null", "deflate", "snappy"}) {
      SCOPED_TRACE("v" + std::to_string(version) + " " + codec);
      std::mt19937_64 rng(version);
      std::vector<ManifestEntry> entries;
      for (int i = 0; i < 300; ++i) entries.push_back(avro_sample::RandomEntry(rng, version, false, t, i));
      ManifestWriterOptions options;
      options.format_version = version;
      options.schema = t.schema;
      options.spec = t.spec;
      options.codec = codec;
      auto written = WriteManifest(options, entries);
      ASSERT_TRUE(written.has_value()) << written.error().ToString();
      std::string path = WriteTemp("m.avro", written->bytes);

      LibavroFile f;
      ASSERT_EQ(avro_file_reader(path.c_str(), &f.reader), 0) << avro_strerror();
      f.schema = avro_file_reader_get_writer_schema(f.reader);
      f.iface = avro_generic_class_from_schema(f.schema);
      ASSERT_NE(f.iface, nullptr) << avro_strerror();
      ASSERT_EQ(avro_generic_value_new(f.iface, &f.value), 0);
      f.has_value = true;
      size_t n = 0;
      while (avro_file_reader_read_value(f.reader, &f.value) == 0) {
        ASSERT_LT(n, entries.size());
        avro_value_t status, data_file;
        ASSERT_EQ(avro_value_get_by_name(&f.value, "status", &status, nullptr), 0);
        int32_t s = -1;
        avro_value_get_int(&status, &s);
        EXPECT_EQ(s, static_cast<int32_t>(entries[n].status));
        ASSERT_EQ(avro_value_get_by_name(&f.value, "data_file", &data_file, nullptr), 0);
        EXPECT_EQ(StringField(&data_file, "file_path"), entries[n].file.file_path);
        avro_value_t record_count;
        ASSERT_EQ(avro_value_get_by_name(&data_file, "record_count", &record_count, nullptr), 0);
        int64_t rc = -1;
        avro_value_get_long(&record_count, &rc);
        EXPECT_EQ(rc, entries[n].file.record_count);
        ++n;
      }
      EXPECT_EQ(n, entries.size()) << avro_strerror();
      fs::remove(path);
    }
  }
}

TEST(LibavroInterop, ReadsFloeManifestLists) {
  std::vector<ManifestFile> manifests(50);
  for (size_t i = 0; i < manifests.size(); ++i) {
    manifests[i].manifest_path = "s3://b/t/metadata/m" + std::to_string(i) + ".avro";
    manifests[i].added_files_count = static_cast<int32_t>(i);
    manifests[i].partitions.resize(1);
  }
  for (int version : {1, 2, 3}) {
    ManifestListWriterOptions options;
    options.format_version = version;
    options.codec = "snappy";
    auto bytes = WriteManifestList(options, manifests);
    ASSERT_TRUE(bytes.has_value());
    std::string path = WriteTemp("snap.avro", *bytes);
    LibavroFile f;
    ASSERT_EQ(avro_file_reader(path.c_str(), &f.reader), 0) << avro_strerror();
    f.schema = avro_file_reader_get_writer_schema(f.reader);
    f.iface = avro_generic_class_from_schema(f.schema);
    ASSERT_NE(f.iface, nullptr);
    ASSERT_EQ(avro_generic_value_new(f.iface, &f.value), 0);
    f.has_value = true;
    size_t n = 0;
    while (avro_file_reader_read_value(f.reader, &f.value) == 0) {
      ASSERT_LT(n, manifests.size());
      EXPECT_EQ(StringField(&f.value, "manifest_path"), manifests[n].manifest_path);
      ++n;
    }
    EXPECT_EQ(n, manifests.size());
    fs::remove(path);
  }
}

}  // namespace
}  // namespace floe
