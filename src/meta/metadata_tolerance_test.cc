#include "meta/metadata_tolerance.h"

#include <gtest/gtest.h>

#include <vector>

#include "meta/meta_test_util.h"
#include "meta/metadata_json.h"
#include "util/warning.h"

namespace floe {
namespace {

// Collects the warnings reported while it lives.
class CapturedWarnings {
 public:
  CapturedWarnings() {
    SetWarningSink([this](const std::string& m) { messages.push_back(m); });
  }
  ~CapturedWarnings() { SetWarningSink(nullptr); }
  std::vector<std::string> messages;
};

// NewSampleTable's document (fields 1 to 3) as another engine might have written it.
nlohmann::json Inconsistent(const std::string& location) {
  TableMetadata m = testing::NewSampleTable();
  m.location = location;
  nlohmann::json j = nlohmann::json::parse(WriteTableMetadata(m));
  j["last-column-id"] = 1;
  j["written-by"] = "impala";
  return j;
}

TEST(MetadataTolerance, LowLastColumnIdIsRaisedWithAWarningAndWrittenCorrected) {
  CapturedWarnings warnings;
  auto m = ParseTableMetadata(Inconsistent("/w/low-last-column-id").dump());
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->last_column_id, 3);
  ASSERT_EQ(warnings.messages.size(), 2u);
  EXPECT_NE(warnings.messages[0].find("/w/low-last-column-id has last-column-id 1, lower than field id 3"),
            std::string::npos)
      << warnings.messages[0];
  EXPECT_NE(warnings.messages[1].find("(written-by)"), std::string::npos) << warnings.messages[1];

  nlohmann::json written = nlohmann::json::parse(WriteTableMetadata(*m));
  EXPECT_EQ(written["last-column-id"], 3);
  EXPECT_FALSE(written.contains("written-by"));
  // Strict on write: the document as read would not pass floe's own check.
  TableMetadata as_written = *m;
  as_written.last_column_id = 1;
  EXPECT_FALSE(as_written.Validate());
}

TEST(MetadataTolerance, EachWarningOnce) {
  CapturedWarnings warnings;
  const std::string text = Inconsistent("/w/warned-once").dump();
  ASSERT_TRUE(ParseTableMetadata(text));
  ASSERT_TRUE(ParseTableMetadata(text));
  EXPECT_EQ(warnings.messages.size(), 2u);  // one per tolerance, not per read
}

TEST(MetadataTolerance, ConsistentDocumentsWarnNothing) {
  CapturedWarnings warnings;
  TableMetadata m = testing::NewSampleTable();
  ASSERT_TRUE(ParseTableMetadata(WriteTableMetadata(m)));
  EXPECT_TRUE(warnings.messages.empty());
}

}  // namespace
}  // namespace floe
