// What only the local file system can show: races between real processes,
// temporary files, relative paths, and reads of deleted files.
#include "io/local_file_io.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

namespace floe {
namespace {

class LocalFileIOTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/floe-local-io-test.XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    root_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  std::vector<std::string> FileNamesIn(const std::string& folder) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  std::string root_;
};

std::string ProcessBytes(int process) {
  // Big enough that writing it takes a while, so racers overlap.
  std::string data = "process " + std::to_string(process) + "\n";
  data.resize(256 * 1024, static_cast<char>('a' + process % 26));
  return data;
}

// Forks `processes` children that all CreateIfAbsent `path` at the same moment
// (released together through a pipe). Returns each child's outcome: 0 won,
// 1 AlreadyExists, 2 any other result.
std::vector<int> RaceProcesses(const std::string& path, int processes) {
  int gate[2];
  if (::pipe(gate) != 0) return {};
  std::vector<pid_t> children;
  for (int i = 0; i < processes; ++i) {
    pid_t pid = ::fork();
    if (pid == 0) {
      ::close(gate[1]);
      char byte;
      (void)::read(gate[0], &byte, 1);  // returns when the parent closes the gate
      LocalFileIO io;
      auto created = io.CreateIfAbsent(path, ProcessBytes(i));
      ::_exit(created ? 0 : (created.error().kind == ErrorKind::kAlreadyExists ? 1 : 2));
    }
    children.push_back(pid);
  }
  ::close(gate[0]);
  ::close(gate[1]);  // open the gate
  std::vector<int> outcomes;
  for (pid_t pid : children) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    outcomes.push_back(WIFEXITED(status) ? WEXITSTATUS(status) : 3);
  }
  return outcomes;
}

void ExpectOneWinnerPerRound(const std::string& folder, int processes, int rounds) {
  LocalFileIO io;
  for (int round = 0; round < rounds; ++round) {
    const std::string path = folder + "/metadata/v" + std::to_string(round) + ".metadata.json";
    std::vector<int> outcomes = RaceProcesses(path, processes);
    ASSERT_EQ(outcomes.size(), static_cast<size_t>(processes));
    ASSERT_EQ(std::count(outcomes.begin(), outcomes.end(), 0), 1) << "round " << round;
    ASSERT_EQ(std::count(outcomes.begin(), outcomes.end(), 1), processes - 1) << "round " << round;
    int winner = static_cast<int>(std::find(outcomes.begin(), outcomes.end(), 0) - outcomes.begin());
    auto bytes = io.ReadAll(path);
    ASSERT_TRUE(bytes) << bytes.error().ToString();
    EXPECT_TRUE(*bytes == ProcessBytes(winner)) << "round " << round << ": file does not hold the winner's bytes";
  }
}

TEST_F(LocalFileIOTest, TwoProcessesRaceCreateIfAbsentAndExactlyOneWins) {
  ExpectOneWinnerPerRound(root_, 2, 40);
}

TEST_F(LocalFileIOTest, EightProcessesRaceCreateIfAbsentAndExactlyOneWins) {
  ExpectOneWinnerPerRound(root_, 8, 25);
  // Losers removed their temporary files: only the 25 versions remain.
  EXPECT_EQ(FileNamesIn(root_ + "/metadata").size(), 25u);
}

TEST_F(LocalFileIOTest, NoTemporaryFileIsLeftBehindAfterSuccessOrFailure) {
  LocalFileIO io;
  ASSERT_TRUE(io.CreateIfAbsent(root_ + "/a", "1"));
  ASSERT_FALSE(io.CreateIfAbsent(root_ + "/a", "2"));
  auto out = io.NewOutputFile(root_ + "/b");
  ASSERT_TRUE(out);
  ASSERT_TRUE((*out)->Write("data"));
  // While writing, the bytes live in an unnamed file, or where the file system has none, in
  // a temporary file beside the target: never under the target's name.
  auto during = FileNamesIn(root_);
  ASSERT_GE(during.size(), 1u);
  ASSERT_LE(during.size(), 2u);
  EXPECT_EQ(during.back(), "a");
  if (during.size() == 2) {
    EXPECT_TRUE(during[0].starts_with(kLocalTempFilePrefix)) << during[0];
  }
  ASSERT_TRUE((*out)->Close());
  EXPECT_EQ(FileNamesIn(root_), (std::vector<std::string>{"a", "b"}));
}

// A name longer than the file system allows is a bad name (InvalidArgument, which a server
// answers 400), not an I/O failure (500).
TEST_F(LocalFileIOTest, ANameTooLongForTheFileSystemIsInvalidArgument) {
  LocalFileIO io;
  const std::string path = root_ + "/" + std::string(300, 'n') + "/metadata/v1.metadata.json";
  auto created = io.CreateIfAbsent(path, "{}");
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().kind, ErrorKind::kInvalidArgument) << created.error().message;
  auto read = io.ReadAll(root_ + "/" + std::string(300, 'n'));
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().kind, ErrorKind::kInvalidArgument) << read.error().message;
}

TEST_F(LocalFileIOTest, UnreferencedFilesAreWrittenUnderTheirOwnNameWithNoTemporaryFile) {
  LocalFileIO io;
  auto out = io.NewUnreferencedOutputFile(root_ + "/m.avro");
  ASSERT_TRUE(out);
  ASSERT_TRUE((*out)->Write("data"));
  // In place: the only name in the folder is the final one, already while writing.
  EXPECT_EQ(FileNamesIn(root_), std::vector<std::string>{"m.avro"});
  ASSERT_TRUE((*out)->Close());
  ASSERT_TRUE(io.CreateUnreferenced(root_ + "/l.avro", "list"));
  EXPECT_FALSE(io.CreateUnreferenced(root_ + "/l.avro", "again"));
  EXPECT_EQ(FileNamesIn(root_), (std::vector<std::string>{"l.avro", "m.avro"}));
  EXPECT_EQ(io.ReadAll(root_ + "/l.avro").value_or(""), "list");
}

TEST_F(LocalFileIOTest, NamedTemporaryFilesAreRemovedAfterSuccessOrFailure) {
  LocalFileIO io(LocalFileIO::Options{.use_unnamed_files = false});
  ASSERT_TRUE(io.CreateIfAbsent(root_ + "/a", "1"));
  ASSERT_FALSE(io.CreateIfAbsent(root_ + "/a", "2"));
  auto out = io.NewOutputFile(root_ + "/b");
  ASSERT_TRUE(out);
  ASSERT_TRUE((*out)->Write("data"));
  auto during = FileNamesIn(root_);
  ASSERT_EQ(during.size(), 2u);
  EXPECT_TRUE(during[0].starts_with(kLocalTempFilePrefix)) << during[0];
  ASSERT_TRUE((*out)->Close());
  EXPECT_EQ(FileNamesIn(root_), (std::vector<std::string>{"a", "b"}));
}

TEST_F(LocalFileIOTest, CreatedFilesAreReadableByOthersAndOnDisk) {
  LocalFileIO io;
  ASSERT_TRUE(io.CreateIfAbsent(root_ + "/x/y.json", "{\"a\":1}"));
  EXPECT_EQ(std::filesystem::file_size(root_ + "/x/y.json"), 7u);
  auto perms = std::filesystem::status(root_ + "/x/y.json").permissions();
  EXPECT_NE(perms & std::filesystem::perms::others_read, std::filesystem::perms::none);
}

TEST_F(LocalFileIOTest, RelativePathsResolveAgainstTheWorkingFolder) {
  auto previous = std::filesystem::current_path();
  std::filesystem::current_path(root_);
  LocalFileIO io;
  auto created = io.CreateIfAbsent("warehouse/t/metadata/v1.metadata.json", "{}");
  auto listed = io.ListPrefix("warehouse/");
  auto listed_bare = io.ListPrefix("ware");
  std::filesystem::current_path(previous);
  ASSERT_TRUE(created) << created.error().ToString();
  EXPECT_TRUE(std::filesystem::exists(root_ + "/warehouse/t/metadata/v1.metadata.json"));
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].path, "warehouse/t/metadata/v1.metadata.json");
  ASSERT_TRUE(listed_bare);
  ASSERT_EQ(listed_bare->size(), 1u);
  EXPECT_EQ((*listed_bare)[0].path, "warehouse/t/metadata/v1.metadata.json");
}

TEST_F(LocalFileIOTest, AnOpenInputFileStillReadsAfterTheFileIsDeleted) {
  for (bool use_mmap : {true, false}) {
    LocalFileIO io(LocalFileIO::Options{.use_mmap = use_mmap});
    const std::string path = root_ + "/gone" + std::to_string(use_mmap);
    ASSERT_TRUE(io.CreateIfAbsent(path, "still here"));
    auto file = io.NewInputFile(path);
    ASSERT_TRUE(file);
    ASSERT_TRUE(io.Delete(path));
    EXPECT_EQ((*file)->Read(6, 4).value_or(""), "here");
  }
}

TEST_F(LocalFileIOTest, FoldersAreNotFiles) {
  LocalFileIO io;
  std::filesystem::create_directories(root_ + "/folder/inner");
  EXPECT_FALSE(io.Exists(root_ + "/folder").value_or(true));
  EXPECT_EQ(io.ReadAll(root_ + "/folder").error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(io.Size(root_ + "/folder").error().kind, ErrorKind::kInvalidArgument);
  EXPECT_FALSE(io.Delete(root_ + "/folder"));
  EXPECT_TRUE(std::filesystem::exists(root_ + "/folder/inner"));
  // A file can't be created where a file stands in for its folder.
  ASSERT_TRUE(io.CreateIfAbsent(root_ + "/plain", "x"));
  EXPECT_FALSE(io.CreateIfAbsent(root_ + "/plain/child", "y"));
}

TEST_F(LocalFileIOTest, ListingSkipsSymlinkedFoldersButFollowsSymlinkedFiles) {
  LocalFileIO io;
  ASSERT_TRUE(io.CreateIfAbsent(root_ + "/t/real", "12345"));
  std::filesystem::create_directory_symlink(root_ + "/t", root_ + "/t/loop");
  std::filesystem::create_symlink(root_ + "/t/real", root_ + "/t/link");
  auto files = io.ListPrefix(root_ + "/t/");
  ASSERT_TRUE(files);
  std::vector<std::string> paths;
  for (const auto& file : *files) {
    paths.push_back(file.path);
    EXPECT_EQ(file.size, 5);
  }
  std::sort(paths.begin(), paths.end());
  EXPECT_EQ(paths, (std::vector<std::string>{root_ + "/t/link", root_ + "/t/real"}));
}

}  // namespace
}  // namespace floe
