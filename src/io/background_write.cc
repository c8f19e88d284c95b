#include "io/background_write.h"

#include <utility>

namespace floe {

BackgroundWrite::BackgroundWrite(FileIO& io, std::string path, std::string bytes) : path_(std::move(path)) {
  // result_ is written only by the thread and read only after join: no lock needed.
  thread_ = std::thread([this, &io, bytes = std::move(bytes)] { result_ = io.CreateUnreferenced(path_, bytes); });
}

BackgroundWrite::~BackgroundWrite() { (void)Wait(); }

Status BackgroundWrite::Wait() {
  if (thread_.joinable()) thread_.join();
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
