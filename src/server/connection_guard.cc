#include "server/connection_guard.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstring>

#include "catalog/rest/rest_protocol.h"

namespace floe {
namespace {

using SteadyClock = std::chrono::steady_clock;

std::string NumericAddress(const sockaddr_storage& addr, socklen_t len, int* port) {
  char host[NI_MAXHOST] = "";
  char serv[NI_MAXSERV] = "";
  if (getnameinfo(reinterpret_cast<const sockaddr*>(&addr), len, host, sizeof host, serv, sizeof serv,
                  NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
    return "";
  }
  if (port) *port = std::atoi(serv);
  return host;
}

// A socket whose reads stop at a deadline for the whole request, not per read.
class DeadlineStream final : public httplib::Stream {
 public:
  DeadlineStream(socket_t sock, int write_timeout_s) : sock_(sock), write_timeout_ms_(write_timeout_s * 1000) {}

  void SetDeadline(SteadyClock::time_point deadline) { deadline_ = deadline; }

  bool is_readable() const override {
    if (buffer_begin_ < buffer_end_) return true;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - SteadyClock::now()).count();
    if (left <= 0) return false;
    return Wait(POLLIN, static_cast<int>(std::min<int64_t>(left, 1 << 30)));
  }
  bool is_writable() const override { return Wait(POLLOUT, write_timeout_ms_); }

  ssize_t read(char* ptr, size_t size) override {
    if (buffer_begin_ == buffer_end_) {
      if (!is_readable()) return -1;
      ssize_t n = recv(sock_, buffer_.data(), buffer_.size(), 0);
      if (n <= 0) return n;
      buffer_begin_ = 0;
      buffer_end_ = static_cast<size_t>(n);
    }
    size_t n = std::min(size, buffer_end_ - buffer_begin_);
    std::memcpy(ptr, buffer_.data() + buffer_begin_, n);
    buffer_begin_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    return send(sock_, ptr, size, MSG_NOSIGNAL);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    if (getpeername(sock_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) ip = NumericAddress(addr, len, &port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    if (getsockname(sock_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) ip = NumericAddress(addr, len, &port);
  }
  socket_t socket() const override { return sock_; }

  // True when bytes arrive within `timeout_ms`, or false; `keep_going` is asked every 100 ms.
  bool WaitForRequest(int timeout_ms, const std::function<bool()>& keep_going) const {
    if (buffer_begin_ < buffer_end_) return true;
    for (int waited = 0; waited < timeout_ms && keep_going(); waited += 100) {
      if (Wait(POLLIN, std::min(100, timeout_ms - waited))) return true;
    }
    return false;
  }

 private:
  bool Wait(short events, int timeout_ms) const {
    pollfd pfd{sock_, events, 0};
    int n = poll(&pfd, 1, timeout_ms);
    return n > 0 && (pfd.revents & (events | POLLHUP | POLLERR));
  }

  socket_t sock_;
  int write_timeout_ms_;
  SteadyClock::time_point deadline_ = SteadyClock::now();
  std::array<char, 4096> buffer_{};
  size_t buffer_begin_ = 0;
  size_t buffer_end_ = 0;
};

// The request being read on this thread, for HeadersDone().
struct CurrentRequest {
  DeadlineStream* stream = nullptr;
  int body_timeout_s = 0;
  bool close_after = false;  // CloseAfterResponse() was called for the request being served
};
thread_local CurrentRequest current_request;

void SendBusy(socket_t sock, int limit) {
  std::string body = ErrorModelJson(503, "ServiceUnavailableException",
                                    "too many open connections from this client address (at most " +
                                        std::to_string(limit) + "); close some and retry")
                         .dump();
  std::string reply = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n"
                      "Retry-After: 1\r\nContent-Length: " +
                      std::to_string(body.size()) + "\r\n\r\n" + body;
  (void)send(sock, reply.data(), reply.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
}

// A lingering close. A response may go out before the whole request was read (a refusal of a
// body too large, answered when its headers arrive); closing with those bytes unread would
// send a reset that can destroy the response before the client reads it. So when bytes are
// waiting, or may still come (`body_left_unread`), our side is shut for writing first (the
// client sees the response end), and what
// still arrives is dropped until the client closes, goes quiet for 1 s, or 10 s pass (a
// thread per such connection at most that long; the per-client cap bounds how many).
void DrainBeforeClose(socket_t sock, bool body_left_unread) {
  pollfd pfd{sock, POLLIN, 0};
  if (!body_left_unread && poll(&pfd, 1, 0) <= 0) return;  // nothing unread: close at once
  shutdown(sock, SHUT_WR);
  const auto deadline = SteadyClock::now() + std::chrono::seconds(10);
  std::array<char, 16384> scratch;
  while (SteadyClock::now() < deadline) {
    pfd.revents = 0;
    if (poll(&pfd, 1, 1000) <= 0) return;
    if (recv(sock, scratch.data(), scratch.size(), 0) <= 0) return;
  }
}

}  // namespace

// ---- GrowingThreadPool ----

GrowingThreadPool::GrowingThreadPool(size_t core, size_t max) : max_(std::max(core, max)) {
  std::lock_guard lock(mu_);
  for (size_t i = 0; i < core; ++i) Start(true);
}

GrowingThreadPool::~GrowingThreadPool() { shutdown(); }

void GrowingThreadPool::Start(bool permanent) {
  for (auto it = workers_.begin(); it != workers_.end();) {  // reap threads that left
    if (it->done) {
      it->thread.join();
      it = workers_.erase(it);
    } else {
      ++it;
    }
  }
  ++running_;
  Worker& worker = workers_.emplace_back();
  worker.thread = std::thread([this, w = &worker, permanent] { Work(w, permanent); });
}

void GrowingThreadPool::enqueue(std::function<void()> fn) {
  std::lock_guard lock(mu_);
  tasks_.push_back(std::move(fn));
  // Each idle thread takes one task; a task no idle thread will take gets a thread of its own.
  if (tasks_.size() > idle_ && running_ < max_ && !stopping_) Start(false);
  cv_.notify_one();
}

void GrowingThreadPool::Work(Worker* self, bool permanent) {
  std::unique_lock lock(mu_);
  while (true) {
    ++idle_;
    bool woke = true;
    if (permanent) {
      cv_.wait(lock, [&] { return stopping_ || !tasks_.empty(); });
    } else {
      woke = cv_.wait_for(lock, std::chrono::seconds(2), [&] { return stopping_ || !tasks_.empty(); });
    }
    --idle_;
    if (tasks_.empty() && (stopping_ || !woke)) break;  // an extra thread leaves after 2 s idle
    auto task = std::move(tasks_.front());
    tasks_.pop_front();
    lock.unlock();
    task();
    lock.lock();
  }
  --running_;
  self->done = true;
}

void GrowingThreadPool::shutdown() {
  std::list<Worker> workers;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    cv_.notify_all();
    workers.splice(workers.end(), workers_);
  }
  // Tasks still queued are run by the workers before they leave (each closes its socket).
  for (auto& w : workers) {
    if (w.thread.joinable()) w.thread.join();
  }
}

// ---- GuardedHttpServer ----

GuardedHttpServer::GuardedHttpServer(ConnectionLimits limits, int threads) : limits_(limits), threads_(threads) {
  new_task_queue = [this] {
    return new GrowingThreadPool(static_cast<size_t>(threads_), static_cast<size_t>(limits_.max_connections));
  };
}

void GuardedHttpServer::HeadersDone() {
  if (current_request.stream) {
    current_request.stream->SetDeadline(SteadyClock::now() + std::chrono::seconds(current_request.body_timeout_s));
  }
}

void GuardedHttpServer::CloseAfterResponse() { current_request.close_after = true; }

bool GuardedHttpServer::DiscardBody(size_t length) {
  if (!current_request.stream) return false;
  std::array<char, 8192> scratch;
  while (length > 0) {
    ssize_t n = current_request.stream->read(scratch.data(), std::min(length, scratch.size()));
    if (n <= 0) return false;
    length -= static_cast<size_t>(n);
  }
  return true;
}

bool GuardedHttpServer::Admit(socket_t sock, std::string* address) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (getpeername(sock, reinterpret_cast<sockaddr*>(&addr), &len) == 0) *address = NumericAddress(addr, len, nullptr);
  std::lock_guard lock(mu_);
  int& count = per_client_[*address];
  if (count >= limits_.max_connections_per_client) {
    if (count == 0) per_client_.erase(*address);
    return false;
  }
  ++count;
  open_.insert(sock);
  return true;
}

void GuardedHttpServer::Release(socket_t sock, const std::string& address) {
  std::lock_guard lock(mu_);
  if (--per_client_[address] <= 0) per_client_.erase(address);
  open_.erase(sock);
  shutdown(sock, SHUT_RDWR);
  close(sock);
}

void GuardedHttpServer::StopAll() {
  stop();
  std::lock_guard lock(mu_);
  for (socket_t sock : open_) shutdown(sock, SHUT_RDWR);
}

size_t GuardedHttpServer::open_connections() {
  std::lock_guard lock(mu_);
  return open_.size();
}

bool GuardedHttpServer::process_and_close_socket(socket_t sock) {
  std::string address;
  if (!Admit(sock, &address)) {
    SendBusy(sock, limits_.max_connections_per_client);
    shutdown(sock, SHUT_RDWR);
    close(sock);
    return false;
  }
  bool ret = false;
  bool body_left_unread = false;
  {
    DeadlineStream stream(sock, static_cast<int>(write_timeout_sec_));
    auto running = [this] { return svr_sock_ != INVALID_SOCKET; };
    current_request = CurrentRequest{&stream, limits_.body_timeout_s};
    for (size_t left = keep_alive_max_count_; left > 0 && running(); --left) {
      // The first request may take the whole header deadline to start; later ones the idle time.
      int wait_ms = (left == keep_alive_max_count_ ? limits_.header_timeout_s : limits_.idle_timeout_s) * 1000;
      if (!stream.WaitForRequest(wait_ms, running)) break;
      stream.SetDeadline(SteadyClock::now() + std::chrono::seconds(limits_.header_timeout_s));
      bool connection_closed = false;
      current_request.close_after = false;
      ret = process_request(stream, left == 1, connection_closed, nullptr);
      if (!ret || connection_closed || current_request.close_after) break;
    }
    body_left_unread = current_request.close_after;
    current_request = CurrentRequest{};
  }
  DrainBeforeClose(sock, body_left_unread);
  Release(sock, address);
  return ret;
}

}  // namespace floe
