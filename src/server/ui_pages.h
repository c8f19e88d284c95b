// The server's read-only web view (/ui): plain HTML with inline SVG, rendered here from what
// the catalog already holds. No script and nothing fetched from elsewhere: it works offline and
// shows the same on every browser. Every text that comes from a table (names, properties,
// summaries) is escaped before it reaches the page.
//
//   /ui                          the namespaces
//   /ui/namespaces/NS            the tables of NS, and its views
//   /ui/namespaces/NS/tables/T   one table: schema, partition spec, sort order, properties,
//                                snapshot history as a timeline with branches and tags, files
//                                per partition with a size histogram and delete counts, the
//                                deletion vectors per data file (format 3), and
//                                the last hour's commits, conflicts and retries
#pragma once

#include <string>
#include <vector>

#include "meta/table_metadata.h"
#include "scan/table_stats.h"
#include "server/table_activity.h"
#include "server/ui_deletion_vectors.h"

namespace floe {

struct UiTable {
  std::string namespace_name;  // dotted
  std::string table_name;
  std::string metadata_location;
  const TableMetadata* metadata = nullptr;
  const TableStats* stats = nullptr;  // nullptr when the files could not be read (see files_error)
  std::string files_error;
  ActivitySeries activity;
  // Format 3: the deletion vectors per data file (nullptr below format 3 or when unread).
  const UiDeletionVectors* deletion_vectors = nullptr;
  std::string deletion_vectors_error;
};

std::string UiNamespacesPage(const std::vector<std::string>& namespaces);
std::string UiTablesPage(const std::string& namespace_name, const std::vector<std::string>& tables,
                         const std::vector<std::string>& views = {});
std::string UiTablePage(const UiTable& table);
std::string UiErrorPage(int status, const std::string& message);

// The URL of a namespace's or a table's page (names percent-encoded).
std::string UiNamespaceUrl(const std::string& namespace_name);
std::string UiTableUrl(const std::string& namespace_name, const std::string& table_name);

}  // namespace floe
