// A loopback HTTP proxy in front of the test S3 server that injects faults, for tests and
// benchmarks (header-only, not in the library).
//
// Each client connection carries one request (the emulator answers HTTP/1.0 and closes), so the
// proxy reads the request whole, decides, forwards it on a fresh upstream connection, reads the
// answer until the server closes, and passes it back, or not:
//   kUnavailable   answers 503 SlowDown itself; the server never sees the request
//   kDropRequest   closes the connection without forwarding (the client cannot tell whether
//                  the request arrived)
//   kLoseAnswer    forwards (the server acts), then closes without passing the answer on
//   kCutUpload     closes after reading half the request's body (a connection cut mid-upload)
//   kCutAnswer     forwards, then passes back the first half of the answer and closes (a
//                  connection cut mid-download)
// A per-request delay stands in for the distance to a real object store.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace floe {

class S3FaultProxy {
 public:
  enum class Fault { kUnavailable, kDropRequest, kLoseAnswer, kCutUpload, kCutAnswer };

  // Listens on 127.0.0.1 (a free port) and forwards to the server at `upstream_endpoint`
  // ("http://127.0.0.1:PORT"). nullptr when it cannot listen.
  static std::unique_ptr<S3FaultProxy> Start(const std::string& upstream_endpoint) {
    std::unique_ptr<S3FaultProxy> proxy(new S3FaultProxy());
    size_t colon = upstream_endpoint.rfind(':');
    proxy->upstream_port_ = std::stoi(upstream_endpoint.substr(colon + 1));
    proxy->listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof addr;
    if (::bind(proxy->listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(proxy->listen_fd_, 128) != 0 ||
        ::getsockname(proxy->listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      return nullptr;
    }
    proxy->port_ = ntohs(addr.sin_port);
    proxy->acceptor_ = std::thread([p = proxy.get()] { p->AcceptLoop(); });
    return proxy;
  }

  ~S3FaultProxy() {
    stopping_ = true;
    ::shutdown(listen_fd_, SHUT_RDWR);
    ::close(listen_fd_);
    acceptor_.join();
    std::vector<std::thread> workers;
    {
      std::lock_guard lock(mutex_);
      workers.swap(workers_);
    }
    for (auto& w : workers) w.join();
  }

  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }

  // The next `count` requests whose method is `method` and whose request line contains
  // `target_contains` get `fault`.
  void Inject(std::string method, std::string target_contains, Fault fault, int count = 1) {
    std::lock_guard lock(mutex_);
    rules_.push_back({std::move(method), std::move(target_contains), fault, count});
  }
  void SetDelayMs(int ms) { delay_ms_ = ms; }
  // Requests the proxy faulted so far.
  int Faulted() const { return faulted_.load(); }

 private:
  struct Rule {
    std::string method, contains;
    Fault fault;
    int remaining;
  };

  S3FaultProxy() = default;

  void AcceptLoop() {
    while (!stopping_) {
      int client = ::accept(listen_fd_, nullptr, nullptr);
      if (client < 0) {
        if (stopping_) return;
        continue;
      }
      std::lock_guard lock(mutex_);
      workers_.emplace_back([this, client] {
        Serve(client);
        ::close(client);
      });
    }
  }

  static bool ReadSome(int fd, std::string& into) {
    char buffer[65536];
    ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) return false;
    into.append(buffer, static_cast<size_t>(n));
    return true;
  }

  static void SendAll(int fd, std::string_view data) {
    while (!data.empty()) {
      ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
      if (n <= 0) return;
      data.remove_prefix(static_cast<size_t>(n));
    }
  }

  void Serve(int client) {
    std::string request;
    size_t head_end;
    while ((head_end = request.find("\r\n\r\n")) == std::string::npos) {
      if (!ReadSome(client, request)) return;
    }
    head_end += 4;
    std::string head = request.substr(0, head_end);
    std::string lower = head;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    size_t body_length = 0;
    if (size_t at = lower.find("\r\ncontent-length:"); at != std::string::npos) {
      body_length = std::stoull(lower.substr(at + 17));
    }
    const std::string line = head.substr(0, head.find("\r\n"));
    const std::string method = line.substr(0, line.find(' '));
    std::optional<Fault> fault = Match(method, line);
    if (fault == Fault::kCutUpload) {
      while (request.size() < head_end + body_length / 2) {
        if (!ReadSome(client, request)) return;
      }
      return;  // closed mid-body
    }
    while (request.size() < head_end + body_length) {
      if (!ReadSome(client, request)) return;
    }
    if (delay_ms_ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms_.load()));
    if (fault == Fault::kUnavailable) {
      const std::string body = "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>";
      SendAll(client, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/xml\r\nContent-Length: " +
                          std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
      return;
    }
    if (fault == Fault::kDropRequest) return;
    int upstream = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(upstream_port_));
    if (::connect(upstream, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(upstream);
      return;
    }
    SendAll(upstream, request);
    std::string answer;
    while (ReadSome(upstream, answer)) {
    }
    ::close(upstream);
    if (fault == Fault::kLoseAnswer) return;
    if (fault == Fault::kCutAnswer) answer.resize(answer.size() / 2);
    SendAll(client, answer);
  }

  std::optional<Fault> Match(const std::string& method, const std::string& line) {
    std::lock_guard lock(mutex_);
    for (Rule& rule : rules_) {
      if (rule.remaining > 0 && rule.method == method && line.find(rule.contains) != std::string::npos) {
        --rule.remaining;
        faulted_.fetch_add(1);
        return rule.fault;
      }
    }
    return std::nullopt;
  }

  int listen_fd_ = -1;
  int port_ = 0;
  int upstream_port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> delay_ms_{0};
  std::atomic<int> faulted_{0};
  std::thread acceptor_;
  std::mutex mutex_;
  std::vector<Rule> rules_;
  std::vector<std::thread> workers_;
};

}  // namespace floe
