#include "api/api_internal.h"
#include "io/file_io.h"
#include "txn/operations.h"
#include "write/data_writer.h"

namespace floe {

Status TableTransaction::AddColumn(const std::string& name, const std::string& type) {
  FLOE_ASSIGN_OR_RETURN(TypePtr parsed, Type::ParsePrimitive(type));
  return impl_->tx.UpdateSchema(SchemaUpdate().AddColumn(name, std::move(parsed)));
}

Status TableTransaction::SetProperties(const std::map<std::string, std::string>& set,
                                       const std::vector<std::string>& remove) {
  return impl_->tx.UpdateProperties(set, remove);
}

Status TableTransaction::Append(const Rows& rows) {
  const TableMetadata& staged = impl_->tx.staged();
  FLOE_ASSIGN_OR_RETURN(ColumnBatch batch, RowsToBatch(rows, staged.CurrentSchema()));
  DataWriter writer(*impl_->catalog->io(), staged);
  Status written = writer.Write(batch);
  auto files = written ? writer.Finish() : std::unexpected(written.error());
  if (!files) {
    writer.Abort();
    return std::unexpected(files.error());
  }
  impl_->rows_added += writer.stats().rows;
  impl_->written.insert(impl_->written.end(), writer.written_paths().begin(), writer.written_paths().end());
  impl_->appended.insert(impl_->appended.end(), files->begin(), files->end());
  return Ok();
}

Result<CommitInfo> TableTransaction::Commit(const WriteOptions& options) {
  Impl& impl = *impl_;
  if (!impl.appended.empty())
    impl.tx.AddOperation(std::make_unique<FilesOperation>(FastAppend(std::exchange(impl.appended, {}))), options.branch);
  CommitOptions commit;
  commit.idempotency_key = options.idempotency_key;
  commit.discard_written_files = [&impl] {
    for (const auto& path : impl.written) (void)impl.catalog->io()->Delete(path);
  };
  if (options.before_commit) options.before_commit();
  FLOE_ASSIGN_OR_RETURN(CommitReport report, impl.tx.Commit(commit));
  CommitInfo info = ToCommitInfo(report);
  info.rows_added = info.committed ? impl.rows_added : 0;
  return info;
}

}  // namespace floe
