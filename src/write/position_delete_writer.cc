#include "write/position_delete_writer.h"

#include <algorithm>

#include "write/delete_file_output.h"

namespace floe {
namespace {

std::string PartitionKey(const DataFile& f) {
  std::string key = std::to_string(f.spec_id);
  for (const auto& v : f.partition) {
    if (v.is_null()) {
      key += "|\x01";
    } else if (auto b = v.ToBinary()) {
      key += "|\x02" + std::to_string(b->size()) + ":" + *b;
    }
  }
  return key;
}

}  // namespace

const Schema& PositionDeleteSchema() {
  static const Schema schema(0, {NestedField{kDeleteFilePathFieldId, "file_path", Type::String(), true, ""},
                                 NestedField{kDeletePosFieldId, "pos", Type::Long(), true, ""}});
  return schema;
}

PositionDeleteWriter::PositionDeleteWriter(FileIO& io, const TableMetadata& table, FileNamer* names)
    : io_(io), table_(table), names_(names) {}

void PositionDeleteWriter::Delete(const DataFile& data_file, int64_t position) {
  Group& g = groups_[PartitionKey(data_file)];
  g.spec_id = data_file.spec_id;
  g.partition = data_file.partition;
  g.positions[data_file.file_path].push_back(position);
}

void PositionDeleteWriter::Delete(const DataFile& data_file, const std::vector<int64_t>& positions) {
  if (positions.empty()) return;
  Group& g = groups_[PartitionKey(data_file)];
  g.spec_id = data_file.spec_id;
  g.partition = data_file.partition;
  auto& list = g.positions[data_file.file_path];
  list.insert(list.end(), positions.begin(), positions.end());
}

int64_t PositionDeleteWriter::deleted_rows() const {
  int64_t n = 0;
  for (const auto& [key, g] : groups_)
    for (const auto& [path, positions] : g.positions) n += static_cast<int64_t>(positions.size());
  return n;
}

std::vector<std::string> PositionDeleteWriter::referenced_data_files() const {
  std::vector<std::string> out;
  for (const auto& [key, g] : groups_)
    for (const auto& [path, positions] : g.positions) out.push_back(path);
  return out;
}

Result<std::vector<DataFile>> PositionDeleteWriter::Finish() {
  std::vector<DataFile> out;
  // Full bounds on file_path: truncated ones would make every delete file look like it may
  // apply to every data file sharing the table's long location prefix.
  std::map<std::string, std::string> properties = table_.properties;
  properties["write.metadata.metrics.column.file_path"] = "full";
  properties["write.metadata.metrics.column.pos"] = "full";
  for (auto& [key, g] : groups_) {
    ColumnBatch batch(PositionDeleteSchema());
    Column& paths = batch.columns[0];
    Column& pos = batch.columns[1];
    for (auto& [path, positions] : g.positions) {  // std::map: paths ascending
      std::sort(positions.begin(), positions.end());
      positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
      for (int64_t p : positions) {
        FLOE_RETURN_IF_ERROR(paths.Append(Literal::String(path)));
        FLOE_RETURN_IF_ERROR(pos.Append(Literal::Long(p)));
        ++batch.num_rows;
      }
    }
    if (batch.num_rows == 0) continue;
    DeleteFileSpec spec;
    spec.content = FileContent::kPositionDeletes;
    spec.spec_id = g.spec_id;
    spec.partition = g.partition;
    spec.properties = properties;
    spec.names = names_;
    FLOE_ASSIGN_OR_RETURN(DataFile f, WriteDeleteFile(io_, table_, PositionDeleteSchema(), batch, spec));
    written_.push_back(f.file_path);
    if (g.positions.size() == 1) f.referenced_data_file = g.positions.begin()->first;
    out.push_back(std::move(f));
  }
  groups_.clear();
  return out;
}

void PositionDeleteWriter::Abort() {
  for (const auto& path : written_) (void)io_.Delete(path);
  written_.clear();
  groups_.clear();
}

}  // namespace floe
