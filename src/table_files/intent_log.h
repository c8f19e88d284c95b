// The intent log: what a write declares before it creates a file (invariant 10 of DESIGN.md:
// every attempt's files are known before they are written, so what a crashed writer left can
// be reclaimed without listing storage).
//
// An IntentLog is the durable record of one write (one commit and its attempts). The catalogs
// implement it (catalog/intent_store.h: rows of floe_write_intents in a SQL catalog's
// database, or intent objects under the table's metadata folder in the storage catalog); a
// FileNamer (table_files/file_namer.h) records every name in it before handing the name out.
//
// Order of events, which the reclamation (maint/intent_reclamation.h) relies on:
//   1. Record(names) is durable        (the intent precedes every file it names)
//   2. the files are created           (never a name that was not recorded)
//   3. the commit lands (its files are referenced) or cleanup deleted them
//   4. Clear()                         (only after 3; an outcome unknown leaves the intent)
// A write without an IntentLog (a catalog that keeps none, such as the REST client) gets the
// same unique names, unrecorded.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "floe/result.h"

namespace floe {

class FileNamer;
struct TableMetadata;

class IntentLog {
 public:
  virtual ~IntentLog() = default;
  // Makes `paths` part of the intent, durably, before returning Ok.
  virtual Status Record(const std::vector<std::string>& paths) = 0;
  // Forgets the intent: every file it names is referenced by a landed commit or deleted.
  virtual Status Clear() = 0;
};

// One recorded batch of an intent, as a catalog reads it back.
struct WriteIntentBatch {
  std::string attempt_id;
  int64_t batch_number = 0;
  int64_t created_ms = 0;
  std::vector<std::string> paths;
  std::string where;  // the row or object it came from, for messages
};

// Table property: "false" turns a table's write intents off (its killed writers' files are
// then found by the listing sweep alone). Default true.
inline constexpr const char* kWriteIntentsEnabled = "floe.write-intents.enabled";

// A recorded write's manifest lists are "snap-<uuid>.avro": their names are reserved with the
// write's first record, before an attempt picks its snapshot id (unrecorded ones keep
// Iceberg's "snap-<snapshot id>-<attempt>-<uuid>.avro").
inline constexpr const char* kRecordedManifestListPrefix = "snap-";

// Reserves in `names` the files a commit of `table` will name after its data files: its new
// manifests (one per content and spec, usually one or two) and its manifest list, and with
// `document_too` the metadata document that follows the current one (a catalog that writes its
// document before a separate swap names it through the intent: catalog/document_namer.h). They
// join the write's first record, so one durable write covers a small append's data file,
// manifest, list and document.
void AnticipateCommitFiles(FileNamer& names, const TableMetadata& table, bool document_too);

// The text form of one batch (the storage catalog's object and the SQL row's paths column).
std::string IntentText(int64_t created_ms, const std::vector<std::string>& paths);
// Parses IntentText; Corrupt naming `where` when it is not one.
Result<WriteIntentBatch> ParseIntentText(std::string_view text, const std::string& where);

// Whether `path` is one of the storage catalog's intent objects (never an orphan itself).
bool IsIntentObject(std::string_view path);

}  // namespace floe
