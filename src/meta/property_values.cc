#include "meta/property_values.h"

#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "meta/table_metadata.h"
#include "meta/table_properties.h"

namespace floe {
namespace {

enum class Kind { kCount, kBoolean, kChoice };

struct Rule {
  Kind kind;
  std::vector<std::string> choices;  // kChoice only
};

const std::map<std::string, Rule>& Rules() {
  static const auto* rules = [] {
    auto* r = new std::map<std::string, Rule>();
    for (const char* key : {props::kCommitNumRetries, props::kCommitMinWaitMs, props::kCommitMaxWaitMs,
                            props::kCommitTotalTimeoutMs, props::kManifestMinMergeCount,
                            props::kManifestTargetSizeBytes, props::kTargetFileSizeBytes,
                            props::kParquetRowGroupSizeBytes, props::kParquetPageSizeBytes,
                            props::kMetadataPreviousVersionsMax, props::kMaxSnapshotAgeMs,
                            props::kMinSnapshotsToKeep, props::kMaxRefAgeMs, props::kOrphanOlderThanMs}) {
      (*r)[key] = Rule{Kind::kCount, {}};
    }
    for (const char* key : {props::kManifestMergeEnabled, props::kMetadataDeleteAfterCommit, props::kMaintenanceEnabled}) {
      (*r)[key] = Rule{Kind::kBoolean, {}};
    }
    for (const char* key : {props::kDeleteIsolationLevel, props::kUpdateIsolationLevel, props::kMergeIsolationLevel}) {
      (*r)[key] = Rule{Kind::kChoice, {props::kIsolationSerializable, props::kIsolationSnapshot}};
    }
    for (const char* key : {props::kDeleteMode, props::kUpdateMode, props::kMergeMode}) {
      (*r)[key] = Rule{Kind::kChoice, {props::kCopyOnWrite, props::kMergeOnRead}};
    }
    return r;
  }();
  return *rules;
}

std::optional<int64_t> AsCount(const std::string& value) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || end != value.data() + value.size() || v < 0) return std::nullopt;
  return v;
}

std::optional<bool> AsBoolean(const std::string& value) {
  std::string lower = value;
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "true") return true;
  if (lower == "false") return false;
  return std::nullopt;
}

std::unexpected<Error> NotValid(const std::string& key, const std::string& value, const std::string& expected) {
  return InvalidArgument("table property " + key + "='" + value + "' is not valid: expected " + expected);
}

constexpr const char* kCountExpected = "a non-negative whole number";
constexpr const char* kBooleanExpected = "true or false";

}  // namespace

Result<int64_t> ParseCountProperty(const std::string& key, const std::string& value) {
  if (auto v = AsCount(value)) return *v;
  return NotValid(key, value, kCountExpected);
}

Result<bool> ParseBooleanProperty(const std::string& key, const std::string& value) {
  if (auto v = AsBoolean(value)) return *v;
  return NotValid(key, value, kBooleanExpected);
}

Result<int> ParseFormatVersionProperty(const std::string& value) {
  auto v = AsCount(value);
  if (!v || *v < 1 || *v > kMaxFormatVersion) return NotValid(props::kFormatVersion, value, "1, 2 or 3");
  return static_cast<int>(*v);
}

Status CheckPropertyValue(const std::string& key, const std::string& value) {
  auto it = Rules().find(key);
  if (it == Rules().end()) return Ok();
  const Rule& rule = it->second;
  std::string expected;
  switch (rule.kind) {
    case Kind::kCount:
      if (AsCount(value)) return Ok();
      expected = kCountExpected;
      break;
    case Kind::kBoolean:
      if (AsBoolean(value)) return Ok();
      expected = kBooleanExpected;
      break;
    case Kind::kChoice:
      for (const auto& choice : rule.choices)
        if (value == choice) return Ok();
      for (size_t i = 0; i < rule.choices.size(); ++i)
        expected += (i == 0 ? "'" : " or '") + rule.choices[i] + "'";
      break;
  }
  return NotValid(key, value, expected);
}

}  // namespace floe
