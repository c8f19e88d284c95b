#include "write/deletion_vector_writer.h"

#include <algorithm>

#include "parquet/deletion_vector.h"
#include "parquet/puffin.h"
#include "util/strings.h"

namespace floe {

DeletionVectorWriter::DeletionVectorWriter(FileIO& io, const TableMetadata& table, FileNamer* names)
    : io_(io), table_(table), names_(names) {}

void DeletionVectorWriter::Delete(const DataFile& data_file, const std::vector<int64_t>& positions) {
  if (positions.empty()) return;
  Target& t = targets_[data_file.file_path];
  t.data_file = data_file;
  t.added.insert(t.added.end(), positions.begin(), positions.end());
}

void DeletionVectorWriter::Carry(const DataFile& data_file, const std::vector<int64_t>& positions,
                                 std::vector<DataFile> replaced) {
  Target& t = targets_[data_file.file_path];
  t.data_file = data_file;
  t.carried.insert(t.carried.end(), positions.begin(), positions.end());
  for (auto& f : replaced) t.replaced.push_back(std::move(f));
  t.has_carry = true;
}

bool DeletionVectorWriter::carried(const std::string& data_file_path) const {
  auto it = targets_.find(data_file_path);
  return it != targets_.end() && it->second.has_carry;
}

int64_t DistinctPositions(std::vector<int64_t> positions) {
  std::sort(positions.begin(), positions.end());
  return std::unique(positions.begin(), positions.end()) - positions.begin();
}

int64_t DeletionVectorWriter::deleted_rows() const {
  int64_t n = 0;
  for (const auto& [path, t] : targets_) n += DistinctPositions(t.added);
  return n;
}

std::vector<std::string> DeletionVectorWriter::referenced_data_files() const {
  std::vector<std::string> out;
  for (const auto& [path, t] : targets_)
    if (!t.added.empty()) out.push_back(path);
  return out;
}

Result<DeletionVectorWriter::Output> DeletionVectorWriter::Finish() {
  Output out;
  parquet::PuffinWriter puffin(std::map<std::string, std::string>{{"created-by", "floe"}});
  struct Placed {
    const Target* target;
    int64_t offset, length, cardinality;
  };
  std::vector<Placed> placed;
  for (auto& [path, t] : targets_) {
    if (t.added.empty()) continue;  // carried alone: this write leaves the file's deletes as they are
    std::vector<int64_t> all = t.added;
    all.insert(all.end(), t.carried.begin(), t.carried.end());
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    auto blob = parquet::EncodeDeletionVector(all);
    if (!blob) return std::unexpected(blob.error().WithContext("deletion vector for " + path));
    const int64_t cardinality = static_cast<int64_t>(all.size());
    const auto& meta = puffin.Add(*blob, parquet::DeletionVectorBlob(path, cardinality));
    placed.push_back({&t, meta.offset, meta.length, cardinality});
  }
  if (placed.empty()) return out;
  const std::string bytes = puffin.Finish();
  FileNamer unrecorded;
  FLOE_ASSIGN_OR_RETURN(std::string file_path,
                        (names_ ? *names_ : unrecorded).NewPath(JoinPath(table_.location, "data"), "", "-deletes.puffin"));
  if (auto st = io_.CreateUnreferenced(file_path, bytes); !st)
    return std::unexpected(st.error().WithContext("writing deletion vectors " + file_path));
  written_ = file_path;
  for (const Placed& p : placed) {
    const DataFile& data = p.target->data_file;
    DataFile dv;
    dv.content = FileContent::kPositionDeletes;
    dv.file_path = file_path;
    dv.file_format = FileFormat::kPuffin;
    dv.spec_id = data.spec_id;  // a vector lives in its data file's partition
    dv.partition = data.partition;
    dv.record_count = p.cardinality;
    dv.file_size_in_bytes = static_cast<int64_t>(bytes.size());
    dv.referenced_data_file = data.file_path;
    dv.content_offset = p.offset;
    dv.content_size_in_bytes = p.length;
    out.vectors.push_back(std::move(dv));
    out.targets.push_back(data);
    out.replaced.insert(out.replaced.end(), p.target->replaced.begin(), p.target->replaced.end());
  }
  targets_.clear();
  return out;
}

void DeletionVectorWriter::Abort() {
  if (!written_.empty()) (void)io_.Delete(written_);
  written_.clear();
  targets_.clear();
}

}  // namespace floe
