// One suite that every FileIO must pass: what callers rely on, whichever
// storage is underneath.
#include "floe/file_io.h"

#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <thread>

#include <gtest/gtest.h>

#include "io/fault_injecting_file_io.h"
#include "io/local_file_io.h"
#include "io/memory_file_io.h"
#include "io/read_ahead.h"
#include "io/s3_test_env.h"
#include "util/clock.h"

namespace floe {
namespace {

std::string MakeTempFolder() {
  char pattern[] = "/tmp/floe-io-test.XXXXXX";
  char* made = ::mkdtemp(pattern);
  return made == nullptr ? std::string() : std::string(made);
}

// Each implementation names its root (a fresh folder or prefix; empty to skip, saying why) and
// how to remove it; kLocalPaths when file: URIs and plain paths are its names.
struct OnDisk {
  static constexpr bool kLocalPaths = true;
  static std::string Root() { return MakeTempFolder(); }
  static void Remove(FileIO&, const std::string& root) { std::filesystem::remove_all(root); }
};
struct LocalMmap : OnDisk {
  static std::shared_ptr<FileIO> Make() { return std::make_shared<LocalFileIO>(); }
};
// pread, and named temporary files instead of unnamed ones (the other publish path).
struct LocalPread : OnDisk {
  static std::shared_ptr<FileIO> Make() {
    return std::make_shared<LocalFileIO>(LocalFileIO::Options{.use_mmap = false, .use_unnamed_files = false});
  }
};
struct Memory {
  static constexpr bool kLocalPaths = true;
  static std::shared_ptr<FileIO> Make() { return std::make_shared<MemoryFileIO>(); }
  static std::string Root() { return "/memory/test"; }
  static void Remove(FileIO&, const std::string&) {}
};
// A program's own URIs ("memory://..."), each its own name.
struct MemoryUris {
  static constexpr bool kLocalPaths = false;
  static std::shared_ptr<FileIO> Make() { return std::make_shared<MemoryFileIO>(); }
  static std::string Root() { return "memory://warehouse/test"; }
  static void Remove(FileIO&, const std::string&) {}
};
// The wrapper with no rules must behave exactly like what it wraps.
struct FaultInjectingOverLocal : OnDisk {
  static std::shared_ptr<FileIO> Make() {
    return std::make_shared<FaultInjectingFileIO>(std::make_shared<LocalFileIO>());
  }
};
// moto's S3 (scripts/s3.sh), one request at a time; a fresh prefix per test.
struct S3 {
  static constexpr bool kLocalPaths = false;
  static std::shared_ptr<FileIO> Make() { return TestS3FileIO(); }
  static std::string Root() { return TestS3Prefix("io"); }
  static void Remove(FileIO& io, const std::string& root) {
    auto files = io.ListPrefix(root + "/");
    if (!files) return;
    std::vector<std::string> paths;
    for (const FileInfo& f : *files) paths.push_back(f.path);
    (void)io.DeleteFiles(paths);
  }
};

std::string Pattern(size_t size);

template <typename Impl>
class FileIOTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if constexpr (std::is_same_v<Impl, S3>) {
      if (!TestS3Config()) GTEST_SKIP() << kNoS3Message;
    }
    io_ = Impl::Make();
    ASSERT_NE(io_, nullptr) << "cannot reach the test S3 server or create its bucket";
    root_ = Impl::Root();
    ASSERT_FALSE(root_.empty());
  }
  void TearDown() override {
    if (io_ && !root_.empty()) Impl::Remove(*io_, root_);
  }
  std::string At(std::string_view relative) const { return root_ + "/" + std::string(relative); }
  FileIO& io() { return *io_; }

  std::vector<std::string> ListedPaths(std::string_view prefix) {
    auto files = io().ListPrefix(prefix);
    EXPECT_TRUE(files) << files.error().ToString();
    std::vector<std::string> paths;
    if (files) {
      for (const FileInfo& file : *files) paths.push_back(file.path);
    }
    std::sort(paths.begin(), paths.end());
    return paths;
  }

  // 8 threads create each of `rounds` names at the same moment through `create` (a FileIO
  // create call): exactly one wins each name, and its bytes are what the name holds.
  template <typename Create>
  void ExpectOneWinnerPerName(const std::string& folder, int rounds, Create create) {
    constexpr int kThreads = 8;
    for (int round = 0; round < rounds; ++round) {
      const std::string path = At(folder + "/v" + std::to_string(round) + ".metadata.json");
      std::atomic<int> ready{0};
      std::vector<int> outcome(kThreads, -1);
      std::vector<std::thread> threads;
      for (int i = 0; i < kThreads; ++i) {
        threads.emplace_back([&, i] {
          ready.fetch_add(1);
          while (ready.load() < kThreads) {
          }
          Status created = create(io(), path, "writer " + std::to_string(i) + Pattern(1000));
          outcome[i] = created ? 1 : (created.error().kind == ErrorKind::kAlreadyExists ? 0 : 2);
        });
      }
      for (auto& thread : threads) thread.join();
      ASSERT_EQ(std::count(outcome.begin(), outcome.end(), 2), 0) << "round " << round;
      ASSERT_EQ(std::count(outcome.begin(), outcome.end(), 1), 1) << "round " << round;
      int winner = static_cast<int>(std::find(outcome.begin(), outcome.end(), 1) - outcome.begin());
      EXPECT_EQ(io().ReadAll(path).value_or(""), "writer " + std::to_string(winner) + Pattern(1000));
    }
    EXPECT_EQ(ListedPaths(At(folder + "/")).size(), static_cast<size_t>(rounds));
  }

  std::shared_ptr<FileIO> io_;
  std::string root_;
};

struct ImplNames {
  template <typename T>
  static std::string GetName(int) {
    if (std::is_same_v<T, LocalMmap>) return "LocalMmap";
    if (std::is_same_v<T, LocalPread>) return "LocalPread";
    if (std::is_same_v<T, Memory>) return "Memory";
    if (std::is_same_v<T, MemoryUris>) return "MemoryUris";
    if (std::is_same_v<T, S3>) return "S3";
    return "FaultInjectingOverLocal";
  }
};

using Implementations = ::testing::Types<LocalMmap, LocalPread, Memory, MemoryUris, FaultInjectingOverLocal, S3>;
TYPED_TEST_SUITE(FileIOTest, Implementations, ImplNames);

std::string Pattern(size_t size) {
  std::string data(size, '\0');
  for (size_t i = 0; i < size; ++i) data[i] = static_cast<char>((i * 7919 + i / 251) & 0xFF);
  return data;
}

TYPED_TEST(FileIOTest, CreatedFileReadsBackWholeAndBySize) {
  const std::string data("binary\0with nul\xff", 17);
  ASSERT_TRUE(this->io().CreateIfAbsent(this->At("a.bin"), data));
  auto read = this->io().ReadAll(this->At("a.bin"));
  ASSERT_TRUE(read) << read.error().ToString();
  EXPECT_EQ(*read, data);
  EXPECT_EQ(this->io().Size(this->At("a.bin")).value_or(-1), 17);
  EXPECT_TRUE(this->io().Exists(this->At("a.bin")).value_or(false));
}

TYPED_TEST(FileIOTest, CreateIfAbsentRefusesAnExistingNameAndKeepsTheFirstBytes) {
  ASSERT_TRUE(this->io().CreateIfAbsent(this->At("v1.metadata.json"), "first"));
  auto second = this->io().CreateIfAbsent(this->At("v1.metadata.json"), "second!");
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_NE(second.error().message.find("v1.metadata.json"), std::string::npos);
  EXPECT_EQ(this->io().ReadAll(this->At("v1.metadata.json")).value_or(""), "first");
  // Nothing else (no temporary file) is left beside it.
  EXPECT_EQ(this->ListedPaths(this->root_ + "/"), std::vector<std::string>{this->At("v1.metadata.json")});
}

TYPED_TEST(FileIOTest, CreateIfAbsentMakesMissingParentFolders) {
  const std::string path = this->At("t/metadata/deep/x.json");
  ASSERT_TRUE(this->io().CreateIfAbsent(path, "{}"));
  EXPECT_EQ(this->io().ReadAll(path).value_or(""), "{}");
}

TYPED_TEST(FileIOTest, EmptyFileIsAFile) {
  ASSERT_TRUE(this->io().CreateIfAbsent(this->At("empty"), ""));
  EXPECT_TRUE(this->io().Exists(this->At("empty")).value_or(false));
  EXPECT_EQ(this->io().Size(this->At("empty")).value_or(-1), 0);
  auto read = this->io().ReadAll(this->At("empty"));
  ASSERT_TRUE(read);
  EXPECT_TRUE(read->empty());
  auto file = this->io().NewInputFile(this->At("empty"));
  ASSERT_TRUE(file);
  EXPECT_EQ((*file)->Size(), 0);
  EXPECT_EQ((*file)->Read(0, 0).value_or("x"), "");
}

TYPED_TEST(FileIOTest, MissingFileIsNotFound) {
  const std::string path = this->At("nope/missing.avro");
  EXPECT_FALSE(this->io().Exists(path).value_or(true));
  for (auto kind : {this->io().ReadAll(path).error().kind, this->io().Size(path).error().kind,
                    this->io().ReadRange(path, 0, 1).error().kind,
                    this->io().NewInputFile(path).error().kind}) {
    EXPECT_EQ(kind, ErrorKind::kNotFound);
  }
  EXPECT_NE(this->io().ReadAll(path).error().message.find("missing.avro"), std::string::npos);
}

TYPED_TEST(FileIOTest, RangedReadsAreExactAndRefuseRangesPastTheEnd) {
  const std::string data = Pattern(10'000);
  ASSERT_TRUE(this->io().CreateIfAbsent(this->At("r"), data));
  EXPECT_EQ(this->io().ReadRange(this->At("r"), 0, 10).value_or(""), data.substr(0, 10));
  EXPECT_EQ(this->io().ReadRange(this->At("r"), 9'990, 10).value_or(""), data.substr(9'990));
  EXPECT_EQ(this->io().ReadRange(this->At("r"), 10'000, 0).value_or("x"), "");
  for (auto [offset, length] : std::vector<std::pair<int64_t, int64_t>>{
           {9'995, 10}, {10'001, 0}, {-1, 5}, {0, -1}, {INT64_MAX, 2}}) {
    auto read = this->io().ReadRange(this->At("r"), offset, length);
    ASSERT_FALSE(read) << offset << "+" << length;
    EXPECT_EQ(read.error().kind, ErrorKind::kInvalidArgument);
  }
}

TYPED_TEST(FileIOTest, InputFileServesRandomAccessReads) {
  const std::string data = Pattern(1 << 20);
  ASSERT_TRUE(this->io().CreateIfAbsent(this->At("data.parquet"), data));
  auto opened = this->io().NewInputFile(this->At("data.parquet"));
  ASSERT_TRUE(opened) << opened.error().ToString();
  const InputFile& file = **opened;
  EXPECT_EQ(file.Size(), 1 << 20);
  EXPECT_EQ(file.path(), this->At("data.parquet"));
  std::string scratch(4096, '\0');
  // Footer first, then pages out of order, as a Parquet reader does.
  for (int64_t offset : {int64_t{(1 << 20) - 8}, int64_t{4}, int64_t{700'000}, int64_t{0}}) {
    int64_t length = std::min<int64_t>(4096, file.Size() - offset);
    auto view = file.ReadAt(offset, length, scratch.data());
    ASSERT_TRUE(view) << view.error().ToString();
    EXPECT_EQ(*view, std::string_view(data).substr(offset, length));
  }
  EXPECT_EQ(file.ReadAt(file.Size() - 2, 4, scratch.data()).error().kind,
            ErrorKind::kInvalidArgument);
  EXPECT_EQ(file.Read(100, 50).value_or(""), data.substr(100, 50));
}

// WillRead (read_ahead.h) is a hint: whatever it fetched, every read gives the file's bytes, inside the hinted
// ranges, across their edges and outside them, and from several threads at once.
TYPED_TEST(FileIOTest, InputFileReadsTheSameBytesAfterWillRead) {
  const std::string data = Pattern(300'000);
  ASSERT_TRUE(this->io().CreateIfAbsent(this->At("hinted.parquet"), data));
  auto opened = this->io().NewInputFile(this->At("hinted.parquet"));
  ASSERT_TRUE(opened) << opened.error().ToString();
  const InputFile& file = **opened;
  ASSERT_TRUE(WillRead(file, {{4, 1000}, {1500, 20'000}, {1500, 10}, {100'000, 0}, {200'000, 50'000}}));
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::string scratch(30'000, '\0');
      for (auto [offset, length] : std::vector<std::pair<int64_t, int64_t>>{
               {4, 1000}, {1500 + t, 19'000}, {1000, 1000}, {0, 4}, {210'000, 30'000}, {249'990, 20},
               {299'990, 10}, {60'000 + t * 7, 5'000}}) {
        auto view = file.ReadAt(offset, length, scratch.data());
        if (!view || *view != std::string_view(data).substr(offset, length)) wrong.fetch_add(1);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  std::string scratch(16, '\0');
  EXPECT_EQ(file.ReadAt(299'995, 10, scratch.data()).error().kind, ErrorKind::kInvalidArgument);
}

TYPED_TEST(FileIOTest, OutputFileStreamsABigFileThatAppearsOnlyAtClose) {
  const std::string data = Pattern(5 * (1 << 20) + 123);
  const std::string path = this->At("data/big.parquet");
  auto opened = this->io().NewOutputFile(path);
  ASSERT_TRUE(opened) << opened.error().ToString();
  OutputFile& out = **opened;
  size_t offset = 0;
  // Mixed piece sizes: tiny ones that get gathered and ones larger than any buffer.
  for (size_t piece : {size_t{1}, size_t{100}, size_t{3 << 20}, size_t{7}, size_t{65536}}) {
    ASSERT_TRUE(out.Write(std::string_view(data).substr(offset, piece)));
    offset += piece;
    EXPECT_EQ(out.Position(), static_cast<int64_t>(offset));
  }
  ASSERT_TRUE(out.Write(std::string_view(data).substr(offset)));
  EXPECT_EQ(out.Position(), static_cast<int64_t>(data.size()));
  EXPECT_FALSE(this->io().Exists(path).value_or(true));
  ASSERT_TRUE(out.Close());
  EXPECT_EQ(this->io().ReadAll(path).value_or(""), data);
  EXPECT_FALSE(out.Write("more"));
  EXPECT_EQ(this->ListedPaths(this->root_ + "/"), std::vector<std::string>{path});
}

TYPED_TEST(FileIOTest, OutputFileRefusesExistingNamesAtOpenAndAtClose) {
  ASSERT_TRUE(this->io().CreateIfAbsent(this->At("taken"), "old"));
  auto refused = this->io().NewOutputFile(this->At("taken"));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kAlreadyExists);

  auto late = this->io().NewOutputFile(this->At("raced"));
  ASSERT_TRUE(late);
  ASSERT_TRUE((*late)->Write("loser"));
  ASSERT_TRUE(this->io().CreateIfAbsent(this->At("raced"), "winner"));
  auto closed = (*late)->Close();
  ASSERT_FALSE(closed);
  EXPECT_EQ(closed.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(this->io().ReadAll(this->At("raced")).value_or(""), "winner");
  EXPECT_EQ(this->ListedPaths(this->root_ + "/"),
            (std::vector<std::string>{this->At("raced"), this->At("taken")}));
}

TYPED_TEST(FileIOTest, AbortedOrAbandonedOutputFileLeavesNothing) {
  {
    auto out = this->io().NewOutputFile(this->At("aborted"));
    ASSERT_TRUE(out);
    ASSERT_TRUE((*out)->Write(Pattern(2 << 20)));
    (*out)->Abort();
    EXPECT_FALSE((*out)->Close());
  }
  {
    auto out = this->io().NewOutputFile(this->At("dropped"));
    ASSERT_TRUE(out);
    ASSERT_TRUE((*out)->Write("partial"));
  }  // destroyed without Close
  EXPECT_TRUE(this->ListedPaths(this->root_ + "/").empty());
  EXPECT_FALSE(this->io().Exists(this->At("aborted")).value_or(true));
  // The names are still free.
  EXPECT_TRUE(this->io().CreateIfAbsent(this->At("aborted"), "x"));
}

// Unreferenced files (fresh names, published later by metadata) keep create-if-absent's
// one-winner rule, durability and cleanup; only their visibility while written may differ.
TYPED_TEST(FileIOTest, UnreferencedFilesAreCreatedOnceWithMissingFoldersAndNoLeftovers) {
  const std::string path = this->At("t/metadata/snap-1-1-abc.avro");
  const std::string data = Pattern(70000);
  ASSERT_TRUE(this->io().CreateUnreferenced(path, data));
  EXPECT_EQ(this->io().ReadAll(path).value_or(""), data);
  auto again = this->io().CreateUnreferenced(path, "second");
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_NE(again.error().message.find(path), std::string::npos) << again.error().message;
  EXPECT_EQ(this->io().ReadAll(path).value_or(""), data);

  const std::string streamed = this->At("t/data/p=1/f.parquet");
  auto out = this->io().NewUnreferencedOutputFile(streamed);
  ASSERT_TRUE(out) << out.error().ToString();
  ASSERT_TRUE((*out)->Write(Pattern(3 << 20)));
  ASSERT_TRUE((*out)->Write("tail"));
  EXPECT_EQ((*out)->Position(), (3 << 20) + 4);
  ASSERT_TRUE((*out)->Close());
  EXPECT_EQ(this->io().ReadAll(streamed).value_or(""), Pattern(3 << 20) + "tail");
  auto taken = this->io().NewUnreferencedOutputFile(streamed);
  ASSERT_FALSE(taken);
  EXPECT_EQ(taken.error().kind, ErrorKind::kAlreadyExists);

  {
    auto aborted = this->io().NewUnreferencedOutputFile(this->At("t/data/aborted.parquet"));
    ASSERT_TRUE(aborted);
    ASSERT_TRUE((*aborted)->Write(Pattern(2 << 20)));
    (*aborted)->Abort();
    auto dropped = this->io().NewUnreferencedOutputFile(this->At("t/data/dropped.parquet"));
    ASSERT_TRUE(dropped);
    ASSERT_TRUE((*dropped)->Write("partial"));
  }  // `dropped` destroyed without Close
  EXPECT_EQ(this->ListedPaths(this->At("t/")), (std::vector<std::string>{streamed, path}));
}

TYPED_TEST(FileIOTest, ListPrefixFindsFilesAtAnyDepthWithSizesAndTimes) {
  const int64_t before = NowMillis();
  ASSERT_TRUE(this->io().CreateIfAbsent(this->At("t/data/a.parquet"), "aaaa"));
  ASSERT_TRUE(this->io().CreateIfAbsent(this->At("t/data/p=1/b.parquet"), "bb"));
  ASSERT_TRUE(this->io().CreateIfAbsent(this->At("t/metadata/v1.metadata.json"), "{}"));
  ASSERT_TRUE(this->io().CreateIfAbsent(this->At("t2/other"), "o"));
  const int64_t after = NowMillis();

  auto files = this->io().ListPrefix(this->At("t/"));
  ASSERT_TRUE(files) << files.error().ToString();
  ASSERT_EQ(files->size(), 3u);
  std::sort(files->begin(), files->end(),
            [](const FileInfo& a, const FileInfo& b) { return a.path < b.path; });
  EXPECT_EQ((*files)[0].path, this->At("t/data/a.parquet"));
  EXPECT_EQ((*files)[0].size, 4);
  EXPECT_EQ((*files)[1].path, this->At("t/data/p=1/b.parquet"));
  EXPECT_EQ((*files)[1].size, 2);
  EXPECT_EQ((*files)[2].path, this->At("t/metadata/v1.metadata.json"));
  for (const FileInfo& file : *files) {
    // File systems keep coarse times; allow a little slack either side.
    EXPECT_GE(file.mtime_ms, before - 2'000) << file.path;
    EXPECT_LE(file.mtime_ms, after + 2'000) << file.path;
  }

  // A prefix is a string prefix, not only a folder.
  EXPECT_EQ(this->ListedPaths(this->At("t")),
            (std::vector<std::string>{this->At("t/data/a.parquet"), this->At("t/data/p=1/b.parquet"),
                                      this->At("t/metadata/v1.metadata.json"), this->At("t2/other")}));
  EXPECT_EQ(this->ListedPaths(this->At("t/data/p")),
            std::vector<std::string>{this->At("t/data/p=1/b.parquet")});
  EXPECT_EQ(this->ListedPaths(this->At("t/metadata/v1.metadata.json")),
            std::vector<std::string>{this->At("t/metadata/v1.metadata.json")});
  EXPECT_TRUE(this->ListedPaths(this->At("nothing/here/")).empty());
  EXPECT_TRUE(this->ListedPaths(this->At("t/data/zzz")).empty());
}

TYPED_TEST(FileIOTest, DeleteRemovesAndIsIdempotent) {
  ASSERT_TRUE(this->io().CreateIfAbsent(this->At("d/x"), "x"));
  ASSERT_TRUE(this->io().CreateIfAbsent(this->At("d/y"), "y"));
  ASSERT_TRUE(this->io().Delete(this->At("d/x")));
  EXPECT_FALSE(this->io().Exists(this->At("d/x")).value_or(true));
  EXPECT_EQ(this->io().ReadAll(this->At("d/x")).error().kind, ErrorKind::kNotFound);
  EXPECT_TRUE(this->io().Delete(this->At("d/x")));  // again: still fine
  EXPECT_EQ(this->ListedPaths(this->At("d/")), std::vector<std::string>{this->At("d/y")});
}

TYPED_TEST(FileIOTest, FileUrisAndPlainPathsNameTheSameFile) {
  if (!TypeParam::kLocalPaths) GTEST_SKIP() << "file: URIs are local names";
  const std::string plain = this->At("u/v1.metadata.json");
  ASSERT_TRUE(this->io().CreateIfAbsent("file://" + plain, "uri"));
  EXPECT_EQ(this->io().ReadAll(plain).value_or(""), "uri");
  EXPECT_EQ(this->io().ReadAll("file:" + plain).value_or(""), "uri");
  EXPECT_EQ(this->io().CreateIfAbsent("file:" + plain, "again").error().kind,
            ErrorKind::kAlreadyExists);
  // Listings answer in the form they were asked in.
  EXPECT_EQ(this->ListedPaths("file://" + this->At("u/")),
            std::vector<std::string>{"file://" + plain});
  EXPECT_EQ(this->ListedPaths(this->At("u/")), std::vector<std::string>{plain});
  // A local disk has no other schemes; the memory FileIO takes any URI as a name of its own.
  const ErrorKind other_scheme =
      std::is_same_v<TypeParam, Memory> ? ErrorKind::kNotFound : ErrorKind::kNotSupported;
  EXPECT_EQ(this->io().ReadAll("s3://bucket/key").error().kind, other_scheme);
}

TYPED_TEST(FileIOTest, PercentEscapesArePartOfTheName) {
  const std::string path = this->At("data/ts=2020-01-01T00%3A00%3A00/f.parquet");
  ASSERT_TRUE(this->io().CreateIfAbsent(path, "p"));
  EXPECT_EQ(this->io().ReadAll(path).value_or(""), "p");
  EXPECT_FALSE(this->io().Exists(this->At("data/ts=2020-01-01T00:00:00/f.parquet")).value_or(true));
  EXPECT_EQ(this->ListedPaths(this->At("data/")), std::vector<std::string>{path});
}

TYPED_TEST(FileIOTest, RacingThreadsCreateOneWinnerWhoseBytesStay) {
  this->ExpectOneWinnerPerName("race", 20, [](FileIO& io, const std::string& path, const std::string& data) {
    return io.CreateIfAbsent(path, data);
  });
}

TYPED_TEST(FileIOTest, RacingUnreferencedCreatesHaveOneWinnerWhoseBytesStay) {
  this->ExpectOneWinnerPerName("urace", 10, [](FileIO& io, const std::string& path, const std::string& data) {
    return io.CreateUnreferenced(path, data);
  });
}

TYPED_TEST(FileIOTest, ReadersSeeNoFileOrTheWholeFileNeverAPart) {
  const std::string data = Pattern(4 << 20);
  const std::string path = this->At("atomic/v2.metadata.json");
  std::atomic<bool> done{false};
  std::atomic<int> partial{0}, whole{0};
  std::thread reader([&] {
    while (!done.load()) {
      auto read = this->io().ReadAll(path);
      if (read) {
        if (*read == data) {
          whole.fetch_add(1);
        } else {
          partial.fetch_add(1);
        }
      }
    }
  });
  ASSERT_TRUE(this->io().CreateIfAbsent(path, data));
  while (whole.load() == 0 && partial.load() == 0) std::this_thread::yield();
  done = true;
  reader.join();
  EXPECT_EQ(partial.load(), 0);
  EXPECT_GT(whole.load(), 0);
}

}  // namespace
}  // namespace floe
