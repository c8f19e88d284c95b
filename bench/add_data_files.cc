// Adds Parquet files another engine wrote to a floe table, as they are (no rewrite), in one
// append: what bench/table_scan_bench.sh uses to give floe a table whose data files DuckDB
// wrote. A benchmark helper, not a `floe` command: it trusts its input.
//
//   build/add_data_files CATALOG_URI NS.TABLE FILE...
//
// Each file's identity partition values come from the `column=value` segments of its path
// (DuckDB's PARTITION_BY folders, e.g. .../country=DE/data_0.parquet), read as strings; its row
// count from its footer. The files must have the table's field ids (DuckDB: COPY ... FIELD_IDS).
// No column metrics are recorded, so planning prunes by partition only.
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "bench_must.h"
#include "catalog/catalog.h"
#include "scan/file_source.h"
#include "commit/commit_operation.h"
#include "commit/files_operation.h"
#include "commit/operations.h"

namespace floe {
namespace {

// The value of `column` in a path's `column=value` folder, or nullopt.
std::optional<std::string> PathValue(const std::string& path, const std::string& column) {
  const std::string key = "/" + column + "=";
  size_t at = path.find(key);
  if (at == std::string::npos) return std::nullopt;
  size_t begin = at + key.size();
  size_t end = path.find('/', begin);
  if (end == std::string::npos) return std::nullopt;
  return path.substr(begin, end - begin);
}

int Run(int argc, char** argv) {
  if (argc < 4) bench::Die("usage: add_data_files CATALOG_URI NS.TABLE FILE...");
  auto catalog = bench::Must(OpenCatalog(argv[1]));
  TableIdentifier id = bench::Must(TableIdentifier::Parse(argv[2]));
  LoadedTable loaded = bench::Must(catalog->LoadTable(id));
  const TableMetadata& table = loaded.metadata;
  const PartitionSpec& spec = table.DefaultSpec();
  std::vector<DataFile> files;
  for (int i = 3; i < argc; ++i) {
    std::string path = std::filesystem::absolute(argv[i]).string();
    auto pq = bench::Must(OpenParquetFile(*catalog->io(), path));
    DataFile f;
    f.file_path = path;
    f.file_format = FileFormat::kParquet;
    f.record_count = pq->num_rows();
    f.file_size_in_bytes = static_cast<int64_t>(std::filesystem::file_size(path));
    f.spec_id = spec.spec_id();
    for (const PartitionField& pf : spec.fields()) {
      const NestedField* source = table.CurrentSchema().FindField(pf.source_id);
      if (!source || pf.transform.kind() != TransformKind::kIdentity || source->type->id() != TypeId::kString)
        bench::Die("only identity partitions of string columns are supported");
      auto value = PathValue(path, source->name);
      if (!value) bench::Die(path + " has no " + source->name + "=VALUE folder");
      f.partition.push_back(Literal::String(*value));
    }
    files.push_back(std::move(f));
  }
  FilesOperation append(FastAppend(std::move(files)));
  CommitReport report = bench::Must(CommitOperation(*catalog, id, append));
  std::cout << "added " << argc - 3 << " files in snapshot " << report.snapshot_id << "\n";
  return 0;
}

}  // namespace
}  // namespace floe

int main(int argc, char** argv) { return floe::Run(argc, argv); }
