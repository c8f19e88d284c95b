// A catalog wrapper for tests that loses answers: the wrapped catalog applies a commit, then
// the caller is told CommitStateUnknown, as when a connection drops after the database
// committed; with LoseIntentAnswerWhen, a write intent's record lands and its caller is told it
// failed. Everything else passes through.
#pragma once

#include <atomic>
#include <functional>
#include <memory>

#include "catalog/catalog.h"
#include "catalog/intent_store.h"

namespace floe {

class FaultInjectingCatalog : public Catalog {
 public:
  explicit FaultInjectingCatalog(std::unique_ptr<Catalog> inner) : inner_(std::move(inner)) {}

  // Decides, per commit call (CommitTable or CommitTransaction, numbered from 1 together),
  // whether to drop the answer of a commit that succeeded. A commit that failed is reported as it failed.
  void DropAnswerWhen(std::function<bool(int call)> rule) { rule_ = std::move(rule); }
  // Decides whether a commit fails with CommitStateUnknown before reaching the wrapped catalog
  // (the request was lost on its way: nothing changed, but the caller cannot know that).
  void FailBeforeApplyWhen(std::function<bool(int call)> rule) { before_rule_ = std::move(rule); }
  // Decides whether a commit the wrapped catalog applied is answered with an IOError instead
  // (an unexpected failure after the swap point, as a backend might report a broken
  // connection): the caller cannot tell it from one before the swap.
  void FailAfterApplyWhen(std::function<bool(int call)> rule) { after_rule_ = std::move(rule); }
  int commits_applied_but_unanswered() const { return dropped_.load(); }
  // How many times a table was loaded through this catalog (LoadTable, and LoadSharedTable,
  // which comes here): what a writer's loads cost on a catalog where each is a round trip.
  int table_loads() const { return loads_.load(); }
  // Hands out `io` as this catalog's FileIO, so the files a writer creates itself (data files,
  // manifests, manifest lists) go through it; the wrapped catalog keeps its own for documents.
  void HandOutFileIO(std::shared_ptr<FileIO> io) { io_ = std::move(io); }
  // Decides, per intent record (numbered from 1), whether the wrapped catalog's store records it
  // and the caller is then told IOError (the database went down after the insert landed). Once
  // set, this catalog hands out its own intent store, passing everything else to the wrapped one.
  void LoseIntentAnswerWhen(std::function<bool(int record)> rule) { lossy_intents_.rule = std::move(rule); }

  std::string name() const override { return inner_->name(); }
  // The wrapped catalog's commits, which it passes on, but neither its pointer store nor its
  // intent store: a caller reaching those would go around the faults this wrapper injects.
  CatalogCapabilities capabilities() override {
    const CatalogCapabilities inner = inner_->capabilities();
    lossy_intents_.inner = inner.intent_store;
    return {.server_orders_commits = inner.server_orders_commits,
            .multi_table_commits = inner.multi_table_commits,
            .intent_store = lossy_intents_.rule && inner.intent_store ? &lossy_intents_ : nullptr};
  }
  CommitScheduler* commit_scheduler() const override { return inner_->commit_scheduler(); }
  std::shared_ptr<FileIO> io() const override { return io_ ? io_ : inner_->io(); }
  std::string warehouse_location() const override { return inner_->warehouse_location(); }
  Status CreateNamespace(const Namespace& ns, const Properties& p) override { return inner_->CreateNamespace(ns, p); }
  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override { return inner_->ListNamespaces(parent); }
  Result<size_t> CountNamespaces(size_t stop_after) override { return inner_->CountNamespaces(stop_after); }
  Result<std::vector<Namespace>> ListNamespacesBelow(const Namespace& parent) override {
    return inner_->ListNamespacesBelow(parent);
  }
  Result<Properties> LoadNamespaceProperties(const Namespace& ns) override { return inner_->LoadNamespaceProperties(ns); }
  Status UpdateNamespaceProperties(const Namespace& ns, const Properties& u, const std::vector<std::string>& r) override {
    return inner_->UpdateNamespaceProperties(ns, u, r);
  }
  Result<bool> NamespaceExists(const Namespace& ns) override { return inner_->NamespaceExists(ns); }
  Status DropNamespace(const Namespace& ns) override { return inner_->DropNamespace(ns); }
  Result<LoadedTable> CreateTable(const TableIdentifier& id, const CreateTableRequest& r) override {
    return inner_->CreateTable(id, r);
  }
  Result<LoadedTable> LoadTable(const TableIdentifier& id) override {
    ++loads_;
    return inner_->LoadTable(id);
  }
  Result<bool> TableExists(const TableIdentifier& id) override { return inner_->TableExists(id); }
  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override { return inner_->ListTables(ns); }
  Status DropTable(const TableIdentifier& id, bool purge) override { return inner_->DropTable(id, purge); }
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override {
    return inner_->RenameTable(from, to);
  }
  Result<LoadedTable> RegisterTable(const TableIdentifier& id, const std::string& location) override {
    return inner_->RegisterTable(id, location);
  }
  Result<LoadedTable> CommitTable(const TableCommit& commit) override {
    return Injected([&] { return inner_->CommitTable(commit); });
  }
  Result<std::vector<LoadedTable>> CommitTransaction(const std::vector<TableCommit>& commits) override {
    return Injected([&] { return inner_->CommitTransaction(commits); });
  }

 private:
  // The wrapped catalog's intent store, losing the answers LoseIntentAnswerWhen picks.
  struct LossyIntentStore : IntentStore {
    IntentStore* inner = nullptr;
    std::function<bool(int)> rule;
    std::atomic<int> records{0};
    Status RecordIntent(const TableIdentifier& id, const std::string& folder, const std::string& attempt_id,
                        int64_t batch_number, const std::vector<std::string>& paths) override {
      const int record = ++records;
      FLOE_RETURN_IF_ERROR(inner->RecordIntent(id, folder, attempt_id, batch_number, paths));
      if (rule(record)) return IOError("injected: intent record " + std::to_string(record) + " landed, then the connection broke");
      return Ok();
    }
    Status ClearIntent(const TableIdentifier& id, const std::string& folder, const std::string& attempt_id,
                       int64_t batches) override {
      return inner->ClearIntent(id, folder, attempt_id, batches);
    }
    Result<std::vector<WriteIntentBatch>> ListIntents(const TableIdentifier& id, const std::string& folder) override {
      return inner->ListIntents(id, folder);
    }
  };

  // `apply` (the wrapped catalog's commit) under the rules above.
  template <typename Apply>
  auto Injected(Apply apply) -> decltype(apply()) {
    int call = ++calls_;
    if (before_rule_ && before_rule_(call))
      return CommitStateUnknown("injected: commit " + std::to_string(call) + " was lost before it arrived");
    auto result = apply();
    if (result && rule_ && rule_(call)) {
      ++dropped_;
      return CommitStateUnknown("injected: the answer to commit " + std::to_string(call) + " was lost");
    }
    if (result && after_rule_ && after_rule_(call)) {
      ++dropped_;
      return IOError("injected: commit " + std::to_string(call) + " was applied, then the connection broke");
    }
    return result;
  }

  std::unique_ptr<Catalog> inner_;
  std::shared_ptr<FileIO> io_;
  std::function<bool(int)> rule_;
  std::function<bool(int)> before_rule_;
  std::function<bool(int)> after_rule_;
  std::atomic<int> calls_{0};
  std::atomic<int> dropped_{0};
  std::atomic<int> loads_{0};
  LossyIntentStore lossy_intents_;
};

}  // namespace floe
