#include "table_files/intent_log.h"

#include <charconv>

#include "meta/table_metadata.h"
#include "table_files/file_namer.h"
#include "table_files/metadata_location.h"

namespace floe {
namespace {

constexpr std::string_view kIntentHeader = "floe-write-intent 1";

}  // namespace

void AnticipateCommitFiles(FileNamer& names, const TableMetadata& table, bool document_too) {
  if (!names.recording()) return;
  const std::string folder = MetadataFolder(table);
  // The commit engine names them (txn/commit_loop.cc: "<uuid>-m0.avro" manifests and a
  // kRecordedManifestListPrefix list).
  names.Anticipate(folder, "", "-m0.avro", 2);
  names.Anticipate(folder, kRecordedManifestListPrefix, ".avro", 1);
  if (!document_too) return;
  // The document's likely name: the version after the current one, which is its log's last
  // entry plus one (the catalog numbers each commit so). A commit that ends up with another
  // version records its name on its own.
  const int64_t previous = table.metadata_log.empty() ? -1 : ParseMetadataVersion(table.metadata_log.back().metadata_file);
  if (table.metadata_log.empty() || previous >= 0)
    names.Anticipate(folder, VersionedMetadataPrefix(previous + 2), kMetadataSuffix, 1);
}

std::string IntentText(int64_t created_ms, const std::vector<std::string>& paths) {
  std::string out(kIntentHeader);
  out += "\ncreated-ms " + std::to_string(created_ms) + "\n";
  for (const auto& p : paths) out += p + "\n";
  return out;
}

Result<WriteIntentBatch> ParseIntentText(std::string_view text, const std::string& where) {
  auto corrupt = [&](const std::string& why) { return Corrupt("write intent " + where + ": " + why); };
  WriteIntentBatch batch;
  batch.where = where;
  size_t line_number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    if (end == std::string_view::npos) return corrupt("truncated (no end of line after line " + std::to_string(line_number + 1) + ")");
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end + 1);
    ++line_number;
    if (line_number == 1) {
      if (line != kIntentHeader) return corrupt("first line is not '" + std::string(kIntentHeader) + "'");
    } else if (line_number == 2) {
      constexpr std::string_view kCreated = "created-ms ";
      if (!line.starts_with(kCreated)) return corrupt("second line is not 'created-ms <ms>'");
      line.remove_prefix(kCreated.size());
      auto [p, ec] = std::from_chars(line.data(), line.data() + line.size(), batch.created_ms);
      if (ec != std::errc() || p != line.data() + line.size() || batch.created_ms < 0)
        return corrupt("created-ms '" + std::string(line) + "' is not a time in ms");
    } else {
      if (line.empty()) return corrupt("empty path on line " + std::to_string(line_number));
      batch.paths.emplace_back(line);
    }
  }
  if (line_number < 2) return corrupt("missing its header");
  return batch;
}

bool IsIntentObject(std::string_view path) {
  return path.find("/floe-intents/") != std::string_view::npos && path.ends_with(".txt");
}

}  // namespace floe
