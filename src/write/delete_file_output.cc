#include "write/delete_file_output.h"

#include "parquet/parquet_writer.h"
#include "util/strings.h"
#include "write/data_writer.h"
#include "write/file_sink.h"
#include "write/parquet_data_file.h"

namespace floe {

Result<DataFile> WriteDeleteFile(FileIO& io, const TableMetadata& table, const Schema& schema, const ColumnBatch& rows,
                                 const DeleteFileSpec& spec) {
  if (spec.content == FileContent::kData) return InvalidArgument("WriteDeleteFile: content must be a delete kind");
  std::string dir = JoinPath(table.location, "data");
  const PartitionSpec* partition_spec = table.SpecById(spec.spec_id);
  if (!partition_spec) return InvalidArgument("delete file for unknown partition spec " + std::to_string(spec.spec_id));
  if (!partition_spec->fields().empty()) dir += "/" + PartitionPath(*partition_spec, spec.partition);
  const char* kind = spec.content == FileContent::kPositionDeletes ? "-deletes.parquet" : "-eq-deletes.parquet";
  FileNamer unrecorded;
  FLOE_ASSIGN_OR_RETURN(std::string path, (spec.names ? *spec.names : unrecorded).NewPath(dir, "", kind));

  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<OutputFile> out, io.NewUnreferencedOutputFile(path));
  FileIOSink sink(std::move(out));
  auto writer = parquet::ParquetWriter::Open(&sink, schema, spec.properties);
  if (!writer) {
    sink.Abort();
    return std::unexpected(writer.error().WithContext("delete file " + path));
  }
  StoreIcebergSchema(**writer, schema);
  if (auto st = (*writer)->Write(rows); !st) {
    sink.Abort();
    return std::unexpected(st.error().WithContext("delete file " + path));
  }
  auto metrics = (*writer)->Close();
  if (!metrics) {
    sink.Abort();
    (void)io.Delete(path);
    return std::unexpected(metrics.error().WithContext("delete file " + path));
  }
  DataFile f = ParquetDataFile(path, *metrics);
  f.content = spec.content;
  f.spec_id = spec.spec_id;
  f.partition = spec.partition;
  f.equality_ids = spec.equality_ids;
  return f;
}

}  // namespace floe
