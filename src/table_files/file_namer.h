// Names for the new files of one write, each recorded in the write's intent log before it is
// handed out (table_files/intent_log.h has the interface and the order of events).
//
// FileNamer reserves names in batches per folder and kind: the first name asked for in a
// folder is recorded alone, then 2, 4, ... up to 64 at once, so a writer streaming thousands of
// files pays one record per 64 files and a small commit one per file it writes. A reserved name
// that is never used costs nothing: reclaiming a name with no file behind it is a delete of
// nothing. A write without an IntentLog (a catalog that keeps none, such as the REST client)
// gets the same unique names, unrecorded.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "table_files/intent_log.h"
#include "floe/result.h"

namespace floe {

class FileNamer {
 public:
  static constexpr size_t kMaxBatch = 64;

  // nullptr: names are not recorded.
  explicit FileNamer(std::unique_ptr<IntentLog> log = nullptr);

  // "<folder>/<prefix><uuid><suffix>", recorded in the intent before it is returned. An error
  // from the intent is returned as is: no name, so no file.
  Result<std::string> NewPath(const std::string& folder, const std::string& prefix, const std::string& suffix);

  // Names the write will ask for later in `folder` with `prefix` and `suffix` (its commit's
  // manifests and manifest list, say): `count` of them join the next record, whichever name
  // triggers it, so that a write naming a data file, then manifests, then a manifest list
  // makes one record, not one per kind. Unrecorded namers ignore it.
  void Anticipate(const std::string& folder, const std::string& prefix, const std::string& suffix, size_t count);

  // Clears the intent (see the order above). Names reserved and not yet used are dropped with
  // it; a name asked for afterwards starts a new record.
  Status Clear();

  bool recording() const { return log_ != nullptr; }
  // How many records were made (a benchmark's count of intent writes).
  int64_t records() const;

 private:
  struct Reserved {
    std::deque<std::string> names;
    size_t next_batch = 1;
  };
  mutable std::mutex mu_;
  std::unique_ptr<IntentLog> log_;
  struct Anticipated {
    std::string folder, prefix, suffix;
    size_t count = 0;
  };
  std::map<std::string, Reserved> reserved_;  // by folder, prefix and suffix
  std::vector<Anticipated> anticipated_;      // for the next record, then again after Clear
  int64_t records_ = 0;
};

}  // namespace floe
