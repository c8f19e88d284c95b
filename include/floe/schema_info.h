// SchemaInfo: a table's current schema as people read it (one row per field) and as Iceberg
// writes it (JSON), with its default partition spec. Table::CurrentSchema and
// TableFolder::CurrentSchema return it; Table::SchemaText is the compact form CreateTable takes.
#pragma once

#include <string>
#include <vector>

namespace floe {

struct ColumnInfo {
  int id = 0;
  // Nested fields under their dotted names (loc.lat, points.element.x, tags.value): the names
  // schema changes take.
  std::string name;
  std::string type;         // Iceberg's type text: long, decimal(10,2), struct<...>
  bool required = false;
  bool identifier = false;  // one of the schema's identifier fields (the row key)
  std::string doc;
};

struct SchemaInfo {
  int schema_id = 0;
  std::vector<ColumnInfo> columns;  // every field, each nested one after its parent
  int spec_id = 0;                  // the default partition spec
  std::string partition_spec;       // "country, day(ts)"; empty when unpartitioned
  // Iceberg's JSON form of the schema, plus "partition-spec": the default spec's JSON form.
  // Compact; bytes that are not UTF-8 (a doc string) are U+FFFD.
  std::string json;
};

}  // namespace floe
