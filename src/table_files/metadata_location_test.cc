// Metadata document names: versions parse from both naming schemes and pad to five digits.
#include "table_files/metadata_location.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(MetadataNames, VersionsParseAndPad) {
  EXPECT_EQ(ParseMetadataVersion("/w/t/metadata/00012-0c9938a5-103e-4185-b46d-331368ae4db7.metadata.json"), 12);
  EXPECT_EQ(ParseMetadataVersion("s3://b/t/metadata/v7.metadata.json"), 7);
  EXPECT_EQ(ParseMetadataVersion("/w/t/metadata/v7.gz.metadata.json"), 7);
  EXPECT_EQ(ParseMetadataVersion("/w/t/metadata/abc.metadata.json"), -1);
  EXPECT_EQ(ParseMetadataVersion("/w/t/metadata/0c9938a5-103e.metadata.json"), -1);
  std::string loc = VersionedMetadataLocation("/w/t/metadata", 3);
  EXPECT_EQ(loc.rfind("/w/t/metadata/00003-", 0), 0u) << loc;
  EXPECT_EQ(ParseMetadataVersion(loc), 3);
  EXPECT_EQ(loc.size(), std::string("/w/t/metadata/00003-").size() + 36 + std::string(".metadata.json").size());
}

TEST(MetadataNames, TheFolderIsWriteMetadataPathOrLocationMetadata) {
  TableMetadata m;
  m.location = "/w/t/";
  EXPECT_EQ(MetadataFolder(m), "/w/t/metadata");
  m.properties["write.metadata.path"] = "s3://b/elsewhere/";
  EXPECT_EQ(MetadataFolder(m), "s3://b/elsewhere");
}

}  // namespace
}  // namespace floe
