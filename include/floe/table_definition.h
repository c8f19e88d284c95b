// TableDefinition: what Connection::CreateTable makes a table from, and the check a program
// runs on one before it connects (a command line checks its arguments first).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "floe/result.h"

namespace floe {

struct TableDefinition {
  // Columns as "id long not null, country string, amount decimal(10,2), ts timestamp".
  std::string schema;
  // Partition transforms over those columns: "country, day(ts)", "bucket(16, id)"; empty:
  // unpartitioned.
  std::string partition_by;
  std::map<std::string, std::string> properties;
  // Instead of `schema`: a sample file whose columns become the schema: a Parquet file's own
  // schema, or one inferred from CSV or JSON lines (long, double, boolean, date, timestamp or
  // string per column, every column optional). The format is taken from the file's extension.
  std::string schema_like;
  // The row key (Iceberg's identifier fields): top-level columns, each named once. They are
  // made required: a new table has no rows in which they could be null.
  std::vector<std::string> identifier_columns;
  int format_version = 2;  // 1, 2 or 3
  // Where the table's files go; unset: under the catalog's warehouse.
  std::optional<std::string> location;
};

// The part of a TableDefinition a problem lies in, so a caller can name its own argument.
enum class DefinitionPart { kSchema, kIdentifier, kPartitionBy, kFormatVersion };

struct DefinitionProblem {
  DefinitionPart part;
  Error error;  // InvalidArgument, or NotFound/IOError/Corrupt reading the sample file
};

// The first problem of `definition`, checked in the order schema (text or sample file: exactly
// one of them), identifier columns, partition, format version; nullopt when it has none.
// Asks no catalog; reads the sample file.
std::optional<DefinitionProblem> CheckTableDefinition(const TableDefinition& definition);

}  // namespace floe
