// How much one request may add to a table: the limits that keep a commit (and every later load
// of the table) bounded. Each refusal is InvalidArgument naming the limit and the value seen.
#pragma once

#include <cstddef>

#include "catalog/catalog.h"

namespace floe {

struct CommitLimits {
  size_t max_updates = 10000;            // updates in one commit
  size_t max_properties = 10000;         // properties one commit (or create) sets
  size_t max_property_bytes = 1 << 20;   // their keys and values together
  size_t max_snapshots = 100;            // add-snapshot updates in one commit
  int max_schema_depth = 32;             // types nested in one another (struct, list, map)
  size_t max_table_changes = 100;        // tables in one transaction
  size_t max_namespaces = 10000;         // namespaces in the catalog (create-namespace refuses more)
};

Status CheckCommitLimits(const TableCommit& commit, const CommitLimits& limits = {});
// Properties set at once (a namespace's, a created table's).
Status CheckPropertyLimits(const Properties& properties, const CommitLimits& limits = {});
Status CheckCreateLimits(const CreateTableRequest& request, const CommitLimits& limits = {});

// How deep types nest in `schema` (a flat schema of primitives is 1).
int SchemaDepth(const Schema& schema);

}  // namespace floe
