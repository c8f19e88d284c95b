#include "io/fault_injecting_file_io.h"

#include "io/read_ahead.h"

namespace floe {

std::string_view FileOpName(FileOp op) {
  switch (op) {
    case FileOp::kNewInputFile: return "NewInputFile";
    case FileOp::kReadAt: return "ReadAt";
    case FileOp::kReadAll: return "ReadAll";
    case FileOp::kReadRange: return "ReadRange";
    case FileOp::kSize: return "Size";
    case FileOp::kExists: return "Exists";
    case FileOp::kCreateIfAbsent: return "CreateIfAbsent";
    case FileOp::kNewOutputFile: return "NewOutputFile";
    case FileOp::kWrite: return "Write";
    case FileOp::kClose: return "Close";
    case FileOp::kListPrefix: return "ListPrefix";
    case FileOp::kDelete: return "Delete";
  }
  return "?";
}

FaultInjectingFileIO::FaultInjectingFileIO(std::shared_ptr<FileIO> base) : base_(std::move(base)) {}

void FaultInjectingFileIO::AddRule(FaultRule rule) {
  std::lock_guard lock(mutex_);
  rules_.push_back(RuleState{std::move(rule)});
}

void FaultInjectingFileIO::ClearRules() {
  std::lock_guard lock(mutex_);
  rules_.clear();
}

int64_t FaultInjectingFileIO::Calls(FileOp op) const {
  std::lock_guard lock(mutex_);
  return calls_[static_cast<size_t>(op)];
}

int64_t FaultInjectingFileIO::InjectedFaults() const {
  std::lock_guard lock(mutex_);
  return injected_;
}

FaultInjectingFileIO::Decision FaultInjectingFileIO::Decide(FileOp op, std::string_view path) {
  std::lock_guard lock(mutex_);
  ++calls_[static_cast<size_t>(op)];
  Decision decision;
  // Every matching rule counts the call, so each rule's `skip` counts the
  // calls it matches whatever other rules do; the first rule due fires.
  for (RuleState& state : rules_) {
    const FaultRule& rule = state.rule;
    if (rule.op && *rule.op != op) continue;
    if (!rule.path_contains.empty() && path.find(rule.path_contains) == std::string_view::npos) {
      continue;
    }
    ++state.matched;
    if (decision.fail || state.matched <= rule.skip) continue;
    if (rule.times >= 0 && state.fired >= rule.times) continue;
    ++state.fired;
    ++injected_;
    decision.fail = true;
    decision.apply_first = rule.apply_then_fail;
    decision.error = Error{rule.kind, rule.message + " (" + std::string(FileOpName(op)) + " of " +
                                          std::string(path) +
                                          (rule.apply_then_fail ? ", after it took effect)" : ")")};
  }
  return decision;
}

namespace {

// Runs `call` unless the decision says to fail first; with apply_first, runs
// it and reports the fault anyway.
template <typename Call>
auto Guarded(FaultInjectingFileIO& io, FileOp op, std::string_view path, Call&& call)
    -> decltype(call()) {
  auto decision = io.Decide(op, path);
  if (!decision.fail) return call();
  if (decision.apply_first) (void)call();
  return std::unexpected(decision.error);
}

class FaultyInputFile : public InputFile, public ReadAheadFile {
 public:
  FaultyInputFile(FaultInjectingFileIO& io, std::unique_ptr<InputFile> base)
      : io_(io), base_(std::move(base)) {}
  const std::string& path() const override { return base_->path(); }
  int64_t Size() const override { return base_->Size(); }
  Result<std::string_view> ReadAt(int64_t offset, int64_t length, char* scratch) const override {
    return Guarded(io_, FileOp::kReadAt, path(),
                   [&] { return base_->ReadAt(offset, length, scratch); });
  }
  // Faults are injected into the reads the hint covers, not into the hint.
  Status WillRead(const std::vector<ByteRange>& ranges) const override { return floe::WillRead(*base_, ranges); }
  void DoneReading(const std::vector<ByteRange>& ranges) const override { floe::DoneReading(*base_, ranges); }

 private:
  FaultInjectingFileIO& io_;
  std::unique_ptr<InputFile> base_;
};

class FaultyOutputFile : public OutputFile {
 public:
  FaultyOutputFile(FaultInjectingFileIO& io, std::unique_ptr<OutputFile> base)
      : io_(io), base_(std::move(base)) {}
  const std::string& path() const override { return base_->path(); }
  int64_t Position() const override { return base_->Position(); }
  Status Write(std::string_view data) override {
    return Guarded(io_, FileOp::kWrite, path(), [&] { return base_->Write(data); });
  }
  Status Close() override {
    return Guarded(io_, FileOp::kClose, path(), [&] { return base_->Close(); });
  }
  void Abort() override { base_->Abort(); }

 private:
  FaultInjectingFileIO& io_;
  std::unique_ptr<OutputFile> base_;
};

}  // namespace

Result<std::unique_ptr<InputFile>> FaultInjectingFileIO::NewInputFile(std::string_view path) {
  return Guarded(*this, FileOp::kNewInputFile, path,
                 [&]() -> Result<std::unique_ptr<InputFile>> {
                   FLOE_ASSIGN_OR_RETURN(auto file, base_->NewInputFile(path));
                   return std::make_unique<FaultyInputFile>(*this, std::move(file));
                 });
}

Result<std::string> FaultInjectingFileIO::ReadAll(std::string_view path) {
  return Guarded(*this, FileOp::kReadAll, path, [&] { return base_->ReadAll(path); });
}

Result<std::string> FaultInjectingFileIO::ReadRange(std::string_view path, int64_t offset,
                                                    int64_t length) {
  return Guarded(*this, FileOp::kReadRange, path,
                 [&] { return base_->ReadRange(path, offset, length); });
}

Result<int64_t> FaultInjectingFileIO::Size(std::string_view path) {
  return Guarded(*this, FileOp::kSize, path, [&] { return base_->Size(path); });
}

Result<bool> FaultInjectingFileIO::Exists(std::string_view path) {
  return Guarded(*this, FileOp::kExists, path, [&] { return base_->Exists(path); });
}

Status FaultInjectingFileIO::CreateIfAbsent(std::string_view path, std::string_view data) {
  return Guarded(*this, FileOp::kCreateIfAbsent, path,
                 [&] { return base_->CreateIfAbsent(path, data); });
}

Result<std::unique_ptr<OutputFile>> FaultInjectingFileIO::NewOutputFile(std::string_view path) {
  return Guarded(*this, FileOp::kNewOutputFile, path,
                 [&]() -> Result<std::unique_ptr<OutputFile>> {
                   FLOE_ASSIGN_OR_RETURN(auto file, base_->NewOutputFile(path));
                   return std::make_unique<FaultyOutputFile>(*this, std::move(file));
                 });
}

Result<std::vector<FileInfo>> FaultInjectingFileIO::ListPrefix(std::string_view prefix) {
  return Guarded(*this, FileOp::kListPrefix, prefix, [&] { return base_->ListPrefix(prefix); });
}

Status FaultInjectingFileIO::Delete(std::string_view path) {
  return Guarded(*this, FileOp::kDelete, path, [&] { return base_->Delete(path); });
}

}  // namespace floe
