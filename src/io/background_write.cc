#include "io/background_write.h"

#include <system_error>
#include <utility>

namespace floe {

BackgroundWrite::BackgroundWrite(FileIO& io, std::string path, std::string bytes)
    : path_(std::move(path)), bytes_(std::move(bytes)) {
  // result_ is written only by the thread and read only after join: no lock needed.
  try {
    thread_ = std::thread([this, &io] { result_ = io.CreateUnreferenced(path_, bytes_); });
  } catch (const std::system_error&) {
    // No thread to be had (resource limits): the write is done here, and no exception leaves.
    result_ = io.CreateUnreferenced(path_, bytes_);
  }
}

BackgroundWrite::~BackgroundWrite() { (void)Wait(); }

Status BackgroundWrite::Wait() {
  if (thread_.joinable()) thread_.join();
  std::string().swap(bytes_);  // written: the memory can go
  return result_;
}

void BackgroundWrites::Start(FileIO& io, std::string path, std::string bytes) {
  writes_.push_back(std::make_unique<BackgroundWrite>(io, std::move(path), std::move(bytes)));
}

Status BackgroundWrites::WaitAll() {
  Status first = Ok();
  for (auto& write : writes_) {
    Status done = write->Wait();
    if (!done && first) first = done;
  }
  return first;
}

}  // namespace floe
