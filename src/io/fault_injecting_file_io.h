// A FileIO wrapper that fails chosen calls, so tests can show that floe
// survives storage failures: a failed write, a failed read, and the worst
// case, a call whose effect happened but whose answer was lost.
//
//   auto io = std::make_shared<FaultInjectingFileIO>(std::make_shared<MemoryFileIO>());
//   io->AddRule({.op = FileOp::kCreateIfAbsent, .skip = 2});          // the 3rd create fails
//   io->AddRule({.path_contains = "/metadata/", .times = -1});         // every metadata call fails
//   io->AddRule({.op = FileOp::kCreateIfAbsent, .apply_then_fail = true});  // lost answer
//
// Calls through InputFiles and OutputFiles it hands out (ReadAt, Write,
// Close) are checked against the rules too. Thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/file_io.h"

namespace floe {

enum class FileOp {
  kNewInputFile,
  kReadAt,  // InputFile::ReadAt
  kReadAll,
  kReadRange,
  kSize,
  kExists,
  kCreateIfAbsent,
  kNewOutputFile,
  kWrite,  // OutputFile::Write
  kClose,  // OutputFile::Close
  kListPrefix,
  kDelete,
};
inline constexpr size_t kFileOpCount = 12;

std::string_view FileOpName(FileOp op);

struct FaultRule {
  // Which calls the rule matches. Every member has a default so a rule can be
  // written with designated initializers naming only what it needs.
  std::optional<FileOp> op = std::nullopt;  // every operation when unset
  std::string path_contains = "";           // every path when empty (kListPrefix: the prefix)
  int64_t skip = 0;                         // let this many matching calls through first
  int64_t times = 1;                        // then fail this many; -1: every one after
  // Run the call on the wrapped FileIO, then report the failure anyway: the
  // effect happened but the caller cannot know (a lost answer).
  bool apply_then_fail = false;
  ErrorKind kind = ErrorKind::kIOError;
  std::string message = "injected fault";
};

class FaultInjectingFileIO : public FileIO {
 public:
  explicit FaultInjectingFileIO(std::shared_ptr<FileIO> base);

  void AddRule(FaultRule rule);
  void ClearRules();
  // Calls of `op` made so far, failed or not.
  int64_t Calls(FileOp op) const;
  // Faults injected so far.
  int64_t InjectedFaults() const;
  FileIO& base() { return *base_; }

  Result<std::unique_ptr<InputFile>> NewInputFile(std::string_view path) override;
  Result<std::string> ReadAll(std::string_view path) override;
  Result<std::string> ReadRange(std::string_view path, int64_t offset, int64_t length) override;
  Result<int64_t> Size(std::string_view path) override;
  Result<bool> Exists(std::string_view path) override;
  Status CreateIfAbsent(std::string_view path, std::string_view data) override;
  Result<std::unique_ptr<OutputFile>> NewOutputFile(std::string_view path) override;
  Result<std::vector<FileInfo>> ListPrefix(std::string_view prefix) override;
  Status Delete(std::string_view path) override;

  // What to do with one call; used by the InputFile and OutputFile wrappers.
  struct Decision {
    bool fail = false;
    bool apply_first = false;
    Error error;
  };
  Decision Decide(FileOp op, std::string_view path);

 private:
  struct RuleState {
    FaultRule rule;
    int64_t matched = 0;
    int64_t fired = 0;
  };

  std::shared_ptr<FileIO> base_;
  mutable std::mutex mutex_;
  std::vector<RuleState> rules_;
  std::array<int64_t, kFileOpCount> calls_{};
  int64_t injected_ = 0;
};

}  // namespace floe
