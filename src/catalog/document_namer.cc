#include "catalog/document_namer.h"

namespace floe {
namespace {

thread_local const DocumentNamers::Lent* lent_here = nullptr;

}  // namespace

DocumentNamers::DocumentNamers(Lent namers) : namers_(std::move(namers)), previous_(lent_here) { lent_here = &namers_; }

DocumentNamers::~DocumentNamers() { lent_here = previous_; }

FileNamer* DocumentNamerFor(const TableIdentifier& id) {
  if (!lent_here) return nullptr;
  for (const auto& [table, namer] : *lent_here)
    if (table == id) return namer;
  return nullptr;
}

}  // namespace floe
