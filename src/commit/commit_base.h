// The table a writer loaded before it wrote its files, handed on to the commit it makes, so
// that the commit's first attempt starts from it instead of loading the table again.
//
// A writer needs the table (its schema, spec, location, properties) before it writes a single
// data file, and the commit engine needs it again as the base of its first attempt: loading it
// twice costs a catalog read, and on a REST catalog an HTTP round trip and the parse of the
// whole metadata document, per commit. Handing the first load on changes nothing of what the
// commit checks: the operation keeps the snapshot the writer read (the one conflicts are
// checked from), the first attempt is validated and built on the handed base exactly as on a
// fresh load, a swap the base was too old for is lost (its requirements assert the base's
// state) and retried on a fresh load, as after any lost race (DESIGN.md, the commit loop).
//
// A base is used at most once, by the first commit it is handed to, and only when young
// (kHandedBaseMaxAgeUs): a writer that spent long writing is likely to find the table moved,
// and a load is cheaper than a lost attempt. A redo, a second commit with the same options, an
// older base: each loads afresh.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "catalog/catalog.h"

namespace floe {

// Older than this, a handed base is reloaded rather than used. A stale base costs a lost
// attempt (its manifest list, a refused swap, the retry's wait; nothing for an append the
// group commit or a REST server rebases), small beside a write that took this long.
inline constexpr int64_t kHandedBaseMaxAgeUs = 5'000'000;

class CommitBase {
 public:
  // Loads table `id` now (shared, not copied: catalog/catalog.h, SharedTable).
  static Result<std::shared_ptr<CommitBase>> Load(Catalog& catalog, const TableIdentifier& id);
  // `handed` when it names `id` and no commit took it yet (a writer may read it), else table
  // `id` loaded now.
  static Result<std::shared_ptr<CommitBase>> HandedOrLoad(Catalog& catalog, const TableIdentifier& id,
                                                          const std::shared_ptr<CommitBase>& handed);
  // `table` as loaded at `loaded_us` (util/clock.h, MonotonicMicros).
  CommitBase(SharedTable table, int64_t loaded_us);

  const TableIdentifier& id() const { return id_; }
  const std::string& metadata_location() const { return metadata_location_; }
  // The loaded metadata, for the writer: valid until a commit takes the base. The engine lets
  // go of its base before the swap so that the catalog can move it into the new document
  // (catalog/commit.cc): the writer must not read it once it has handed the base to a commit.
  const TableMetadata& metadata() const { return *view_; }
  // For a writer that reads the metadata while or after its commit runs (a retry that merges
  // deletion vectors): its own share, which keeps it alive (the catalog then copies the base
  // instead of moving it, as it did when the writer loaded a copy of its own). Null once taken.
  std::shared_ptr<const TableMetadata> KeepAlive();

  // For the commit engine: the table, when it was loaded for `id`, is younger than
  // kHandedBaseMaxAgeUs and no commit took it before; its load time goes to `loaded_us`.
  // Afterwards the base holds nothing.
  std::optional<SharedTable> Take(const TableIdentifier& id, int64_t* loaded_us);

 private:
  std::mutex mu_;  // a base handed to two commits at once goes to one of them
  TableIdentifier id_;
  std::string metadata_location_;
  std::shared_ptr<const TableMetadata> metadata_;  // null once taken
  const TableMetadata* view_ = nullptr;            // what metadata() answers, taken or not
  int64_t loaded_us_ = 0;
  bool taken_ = false;
};

}  // namespace floe
