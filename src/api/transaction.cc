#include "api/api_internal.h"
#include "floe/file_io.h"
#include "commit/operations.h"
#include "types/schema_text.h"
#include "write/data_writer.h"

namespace floe {

Status TableTransaction::AddColumn(const std::string& name, const std::string& type) {
  FLOE_ASSIGN_OR_RETURN(TypePtr parsed, ParseTypeText(type));
  return impl_->tx.UpdateSchema(SchemaUpdate().AddColumn(name, std::move(parsed)));
}

Status TableTransaction::UpdateColumn(const std::string& name, const ColumnUpdate& update) {
  ColumnChange change;
  if (!update.type.empty()) {
    FLOE_ASSIGN_OR_RETURN(change.type, Type::ParsePrimitive(update.type));
  }
  change.make_optional = update.make_optional;
  change.doc = update.doc;
  return impl_->tx.UpdateSchema(SchemaUpdate().UpdateColumn(name, change));
}

Status TableTransaction::MoveColumn(const std::string& name, Position position, const std::string& other) {
  ColumnPosition where;
  where.where = position == Position::kFirst    ? ColumnPosition::Where::kFirst
                : position == Position::kBefore ? ColumnPosition::Where::kBefore
                                                : ColumnPosition::Where::kAfter;
  where.other = other;
  return impl_->tx.UpdateSchema(SchemaUpdate().MoveColumn(name, where));
}

Status TableTransaction::RenameColumn(const std::string& name, const std::string& new_name) {
  return impl_->tx.UpdateSchema(SchemaUpdate().RenameColumn(name, new_name));
}

Status TableTransaction::DropColumn(const std::string& name) {
  return impl_->tx.UpdateSchema(SchemaUpdate().DropColumn(name));
}

Status TableTransaction::SetProperties(const std::map<std::string, std::string>& set,
                                       const std::vector<std::string>& remove) {
  return impl_->tx.UpdateProperties(set, remove);
}

Status TableTransaction::Append(const Rows& rows) {
  const TableMetadata& staged = impl_->tx.staged();
  FLOE_ASSIGN_OR_RETURN(ColumnBatch batch, RowsToBatch(rows, staged.CurrentSchema()));
  DataWriter writer(*impl_->catalog->io(), staged, impl_->tx.names());
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
  FLOE_ASSIGN_OR_RETURN(std::vector<CommitInfo> infos, CommitTogether({this}, options));
  return std::move(infos.front());
}

Result<std::vector<CommitInfo>> CommitTogether(const std::vector<TableTransaction*>& transactions,
                                               const WriteOptions& options) {
  if (transactions.empty()) return std::vector<CommitInfo>{};
  std::shared_ptr<Catalog> catalog = transactions.front()->impl_->catalog;
  std::vector<TableTransaction::Impl*> impls;
  std::vector<Transaction*> txs;
  for (TableTransaction* t : transactions) {
    if (t->impl_->catalog != catalog)
      return InvalidArgument("transaction on " + t->impl_->id.ToString() + " belongs to another connection");
    impls.push_back(t->impl_.get());
    txs.push_back(&t->impl_->tx);
  }
  for (TableTransaction::Impl* impl : impls) {
    if (!impl->appended.empty())
      impl->tx.AddOperation(std::make_unique<FilesOperation>(FastAppend(std::exchange(impl->appended, {}))),
                            options.branch);
  }
  CommitOptions commit;
  commit.idempotency_key = options.idempotency_key;
  commit.before_swap = options.before_swap;
  commit.discard_written_files = [&impls] {
    for (TableTransaction::Impl* impl : impls)
      for (const auto& path : impl->written) (void)impl->catalog->io()->Delete(path);
  };
  if (options.before_commit) options.before_commit();
  FLOE_ASSIGN_OR_RETURN(std::vector<CommitReport> reports, CommitTransactions(*catalog, txs, commit));
  std::vector<CommitInfo> infos;
  for (size_t i = 0; i < reports.size(); ++i) {
    CommitInfo info = ToCommitInfo(reports[i]);
    info.rows_added = info.committed ? impls[i]->rows_added : 0;
    infos.push_back(std::move(info));
  }
  return infos;
}

}  // namespace floe
