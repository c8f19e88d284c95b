// One unreferenced file created on another thread while the caller goes on.
//
// A commit attempt writes its manifest list and the catalog then writes the metadata
// document; both are durable creates whose time is mostly the disk's flush, and neither needs
// the other's bytes (the document names the list by its path). Writing the list here lets the
// two flushes overlap. The caller must Wait before anything that needs the file to exist
// durably (the swap), and before deleting it.
#pragma once

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "floe/file_io.h"

namespace floe {

class BackgroundWrite {
 public:
  // Starts FileIO::CreateUnreferenced(path, bytes) at once. `io` must outlive this object.
  BackgroundWrite(FileIO& io, std::string path, std::string bytes);
  ~BackgroundWrite();  // waits for the write
  BackgroundWrite(const BackgroundWrite&) = delete;
  BackgroundWrite& operator=(const BackgroundWrite&) = delete;

  // The write's outcome, once it has ended. Later calls give the same answer.
  Status Wait();

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string bytes_;  // until the write has ended
  Status result_ = Ok();
  std::thread thread_;  // joinable until the first Wait
};

// Several background writes awaited together (a commit's new manifests).
class BackgroundWrites {
 public:
  void Start(FileIO& io, std::string path, std::string bytes);
  // Waits for every write started so far; the first failure among all of them, ever.
  Status WaitAll();

 private:
  std::vector<std::unique_ptr<BackgroundWrite>> writes_;
};

}  // namespace floe
