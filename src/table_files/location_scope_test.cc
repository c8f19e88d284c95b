#include "table_files/location_scope.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "util/uuid.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

bool Within(const std::string& inner, const std::string& outer) {
  auto a = NormalizeLocation(inner);
  auto b = NormalizeLocation(outer);
  EXPECT_TRUE(a && b) << inner << " / " << outer;
  return a && b && a->IsWithin(*b);
}

TEST(LocationScope, LocalPathsCompareBySegmentAfterNormalizing) {
  EXPECT_TRUE(Within("/w/a/t", "/w/a"));
  EXPECT_TRUE(Within("/w/a", "/w/a/"));
  EXPECT_TRUE(Within("file:///w/a/t", "/w/a"));
  EXPECT_TRUE(Within("file:/w/a/t", "file://localhost/w/a"));
  EXPECT_TRUE(Within("/w//a///t/", "/w/a"));
  EXPECT_FALSE(Within("/w/ab", "/w/a"));         // a string prefix, not a folder
  EXPECT_FALSE(Within("/w/a/../b/t", "/w/a"));   // '..' resolved
  EXPECT_FALSE(Within("/w/a/../../etc", "/w"));
  EXPECT_FALSE(Within("/w", "/w/a"));
  EXPECT_FALSE(NormalizeLocation("file://otherhost/w/a"));
  EXPECT_FALSE(NormalizeLocation(""));
  EXPECT_FALSE(NormalizeLocation(std::string("/w\0x", 4)));
}

TEST(LocationScope, RelativePathsResolveAgainstTheWorkingDirectory) {
  auto rel = NormalizeLocation("some/relative");
  ASSERT_TRUE(rel);
  EXPECT_TRUE(rel->IsWithin(*NormalizeLocation(fs::current_path().string())));
}

TEST(LocationScope, SymbolicLinksAreFollowedThroughWhatExists) {
  fs::path root = fs::temp_directory_path() / ("floe-scope-" + RandomUuidString().substr(0, 8));
  fs::create_directories(root / "w" / "a");
  fs::create_directories(root / "outside");
  fs::create_directory_symlink(root / "outside", root / "w" / "a" / "link");
  EXPECT_FALSE(Within((root / "w/a/link/t/metadata").string(), (root / "w/a").string()));
  EXPECT_TRUE(Within((root / "w/a/link/t").string(), (root / "outside").string()));
  EXPECT_TRUE(Within((root / "w/a/new/t").string(), (root / "w/a").string()));
  fs::remove_all(root);
}

TEST(LocationScope, ObjectStoreLocations) {
  EXPECT_TRUE(Within("s3://bucket/w/a/t", "s3://bucket/w/a"));
  EXPECT_TRUE(Within("s3a://bucket/w/a/t", "s3://bucket/w"));
  EXPECT_TRUE(Within("S3://bucket//w/a", "s3n://bucket/w/"));
  EXPECT_FALSE(Within("s3://bucket2/w/a", "s3://bucket/w"));
  EXPECT_FALSE(Within("s3://bucket/w/ab", "s3://bucket/w/a"));
  EXPECT_FALSE(Within("s3://bucket/w/a", "/bucket/w/a"));  // another scheme
  EXPECT_FALSE(Within("gs://bucket/w/a", "s3://bucket/w"));
  EXPECT_FALSE(NormalizeLocation("s3://bucket/w/a/../b"));  // stores take '..' literally; refused
  EXPECT_FALSE(NormalizeLocation("s3://"));
  EXPECT_EQ(NormalizeLocation("s3a://b/k//x")->ToString(), "s3://b/k/x");
  EXPECT_EQ(NormalizeLocation("file:///w/a/")->ToString(), "/w/a");
}

}  // namespace
}  // namespace floe
