// FileIO: the only way floe touches table files (data, manifests, metadata).
//
// The interface is small on purpose (compare LevelDB's Env): whole and ranged
// reads, create-if-absent writes, listing, delete. Nothing can overwrite or
// append to an existing file. That is invariant 1 of DESIGN.md: every name is
// unique and created once, so a reader that resolved a name can never see its
// bytes change.
//
// Paths are plain paths ("/w/t/data/a.parquet", "rel/x") or `file:` URIs
// ("file:///w/t", "file:/w/t"); see local_path.h. They are never URL-decoded:
// "%3A" is three characters of a file name.
//
// Every implementation is safe to call from several threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/result.h"

namespace floe {

struct FileInfo {
  std::string path;      // in the form the listing prefix was given in
  int64_t size = 0;      // bytes
  int64_t mtime_ms = 0;  // last modification, ms since the Unix epoch
};

// Random-access reads of one immutable file.
class InputFile {
 public:
  virtual ~InputFile() = default;

  virtual const std::string& path() const = 0;
  // Fixed when the file is opened (files never change after creation).
  virtual int64_t Size() const = 0;

  // Reads exactly `length` bytes at `offset`. The result points either into
  // `scratch` (which must hold `length` bytes) or into memory the InputFile
  // owns, such as a mapping of the file; it stays valid while both the
  // InputFile and `scratch` do. A range past the end is InvalidArgument.
  virtual Result<std::string_view> ReadAt(int64_t offset, int64_t length, char* scratch) const = 0;

  // ReadAt into a string of its own.
  Result<std::string> Read(int64_t offset, int64_t length) const;
};

// A new file written as a stream, for files too big to hold in memory.
//
// Create-if-absent: Open fails with AlreadyExists when the name exists, and
// Close fails with AlreadyExists if someone created it meanwhile; the other
// file is left untouched. Until Close succeeds no reader sees the file under
// its name, and after it the whole content is durable. Abort (and destroying
// an OutputFile that was not closed) leaves nothing behind.
class OutputFile {
 public:
  virtual ~OutputFile() = default;

  virtual const std::string& path() const = 0;
  virtual Status Write(std::string_view data) = 0;
  // Bytes written so far: the offset the next Write starts at.
  virtual int64_t Position() const = 0;
  virtual Status Close() = 0;
  virtual void Abort() = 0;
};

class FileIO {
 public:
  virtual ~FileIO() = default;

  virtual Result<std::unique_ptr<InputFile>> NewInputFile(std::string_view path) = 0;

  // The whole file. NotFound when it does not exist.
  virtual Result<std::string> ReadAll(std::string_view path);
  // Exactly `length` bytes at `offset`; a range past the end is InvalidArgument.
  virtual Result<std::string> ReadRange(std::string_view path, int64_t offset, int64_t length);
  // NotFound when it does not exist.
  virtual Result<int64_t> Size(std::string_view path) = 0;
  virtual Result<bool> Exists(std::string_view path) = 0;

  // Creates `path` holding `data`, only if no file of that name exists; else
  // AlreadyExists and nothing changes. Atomic: of several racing creators
  // (threads or processes) exactly one wins, and a reader sees either no file
  // or all of `data`. Durable when it returns. Missing parent folders are
  // created.
  virtual Status CreateIfAbsent(std::string_view path, std::string_view data) = 0;

  // A streaming writer with CreateIfAbsent's guarantees, applied at Close.
  virtual Result<std::unique_ptr<OutputFile>> NewOutputFile(std::string_view path) = 0;

  // CreateIfAbsent and NewOutputFile for a file nothing can reach yet: its name is fresh
  // (UUID-based) and only metadata written later will point to it (data and delete files,
  // manifests, manifest lists). Exactly one creator still wins and the file is durable when
  // the call (or Close) returns, but a reader who guessed the name could see it half written,
  // and a crash can leave part of it behind, unreferenced: an orphan, which orphan removal
  // reclaims after its safety window. In exchange a local disk writes it in place, one
  // directory change instead of three. Never for a file a reader finds by listing or by a
  // fixed name (metadata documents, version hints). By default the same as the atomic calls.
  virtual Status CreateUnreferenced(std::string_view path, std::string_view data) {
    return CreateIfAbsent(path, data);
  }
  virtual Result<std::unique_ptr<OutputFile>> NewUnreferencedOutputFile(std::string_view path) {
    return NewOutputFile(path);
  }

  // Every file whose path starts with `prefix`, at any depth (a prefix ending
  // in '/' lists a folder). The order is unspecified. A prefix that matches
  // nothing gives an empty list, not an error.
  virtual Result<std::vector<FileInfo>> ListPrefix(std::string_view prefix) = 0;

  // Removes a file. Deleting a file that does not exist succeeds, so a retried
  // delete whose first answer was lost is not an error.
  virtual Status Delete(std::string_view path) = 0;

  // Removes several files, each as Delete does; the first failure is returned after every
  // file was tried. Object stores do this in few requests (S3: 1,000 keys a request).
  virtual Status DeleteFiles(const std::vector<std::string>& paths);

  // Where `path` really is for this FileIO: a FileIO that maps paths (a catalog's folder for
  // relative paths, a moved table's new folder) gives the mapped path, others `path` itself.
  // Location checks compare these, so a relative table location and the absolute paths of its
  // files are seen as the same place.
  virtual std::string ResolvedPath(std::string_view path) const { return std::string(path); }
};

// InvalidArgument, naming the path, unless [offset, offset + length) lies
// within a file of `size` bytes. For implementations of ReadAt and ReadRange.
Status CheckReadRange(std::string_view path, int64_t size, int64_t offset, int64_t length);

}  // namespace floe
