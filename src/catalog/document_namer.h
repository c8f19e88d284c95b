// Naming a catalog's new metadata document in the write intent of the commit it belongs to.
//
// A SQL catalog writes a commit's document (<NNNNN>-<uuid>.metadata.json) and then swaps its
// pointer in the database: a writer killed between the two leaves a document that nothing
// references. So the document's name comes from the writer's FileNamer (table_files/file_namer.h),
// recorded in its write intent before the document exists, like every other file of the
// attempt (invariant 10 of DESIGN.md). The storage catalog needs none: creating its document is
// its swap (the version is created once, or not at all).
//
// TableCommit carries no namer (it is the same pair of requirements and updates for every
// catalog, and travels over the wire), so the commit engine lends its namers, per table, to the
// catalog calls it makes on its own thread:
//   DocumentNamers lent({{id, names}});   // around the swap
// and the shared commit routine (catalog/commit.cc) asks DocumentNamerFor(id) on that thread.
// A group commit's leader swaps the group's document on its own thread: the document is named
// in the leader's intent (the group's first commit), which the leader clears only once that
// commit landed or certainly failed. Nothing lent (a server's request): the name is unrecorded.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "table_files/file_namer.h"

namespace floe {

class DocumentNamers {
 public:
  using Lent = std::vector<std::pair<TableIdentifier, FileNamer*>>;
  // Lends `namers` to this thread until destroyed (then the thread's earlier ones are back).
  explicit DocumentNamers(Lent namers);
  ~DocumentNamers();
  DocumentNamers(const DocumentNamers&) = delete;
  DocumentNamers& operator=(const DocumentNamers&) = delete;

 private:
  Lent namers_;
  const Lent* previous_;
};

// The namer lent to this thread for table `id`, or nullptr.
FileNamer* DocumentNamerFor(const TableIdentifier& id);

}  // namespace floe
