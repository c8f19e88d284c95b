// The HTTP server's connections, guarded against slow and greedy clients.
//
// cpp-httplib (Debian 12 ships 0.11) reads a request with one per-read timeout and serves
// connections from a fixed thread pool, so 16 half-sent requests hold all 16 workers until
// each read times out, and a client sending one byte every few seconds holds one forever.
// GuardedHttpServer replaces its per-connection loop (the override SSLServer uses too):
//   - each request must arrive whole within deadlines counted from its first byte: the
//     request line and headers within `header_timeout_s`, the body within `body_timeout_s`
//     more; a connection that misses one is closed (no answer: it was not a request yet);
//   - a client address holds at most `max_connections_per_client` connections at once; one
//     more is answered 503 and closed before anything of it is read;
//   - connections are served by GrowingThreadPool: a slow socket occupies a thread of its own,
//     never the workers other clients need, up to `max_connections` at once;
//   - Stop() shuts every open connection down, so the server stops within a moment.
#pragma once

#include <httplib.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace floe {

struct ConnectionLimits {
  int header_timeout_s = 10;
  int body_timeout_s = 60;
  int idle_timeout_s = 5;  // between requests on a kept-alive connection
  int max_connections_per_client = 64;
  int max_connections = 512;
};

// Serves tasks on `core` permanent threads, and starts a thread for a task that would otherwise
// wait, up to `max` threads in all; beyond that tasks wait in order.
class GrowingThreadPool : public httplib::TaskQueue {
 public:
  GrowingThreadPool(size_t core, size_t max);
  ~GrowingThreadPool() override;
  void enqueue(std::function<void()> fn) override;
  void shutdown() override;

 private:
  struct Worker {
    std::thread thread;
    bool done = false;  // Work returned: join it (under mu_) before starting another
  };
  void Start(bool permanent);  // with mu_ held
  void Work(Worker* self, bool permanent);
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;
  std::list<Worker> workers_;  // joined at shutdown, so no thread outlives the pool
  size_t max_;
  size_t idle_ = 0;
  size_t running_ = 0;  // threads alive
  bool stopping_ = false;
};

class GuardedHttpServer : public httplib::Server {
 public:
  // `threads` are kept ready; more are started while connections wait, up to max_connections.
  GuardedHttpServer(ConnectionLimits limits, int threads);
  const ConnectionLimits& limits() const { return limits_; }

  // The body deadline starts: call when a request's headers were read (pre-routing).
  static void HeadersDone();
  // Reads and drops the next `length` bytes of the current request (a body left unread by a
  // refusal), so the connection stays usable and closes cleanly; false when they did not come.
  static bool DiscardBody(size_t length);
  // Ends the connection once the current response is written. A "Connection: close" header on
  // the response alone does not: httplib keeps a connection by what the request asked.
  static void CloseAfterResponse();
  // Stops listening and shuts down every open connection.
  void StopAll();
  // Connections being served right now.
  size_t open_connections();

 private:
  bool process_and_close_socket(socket_t sock) override;
  bool Admit(socket_t sock, std::string* address);
  void Release(socket_t sock, const std::string& address);

  ConnectionLimits limits_;
  int threads_;
  std::mutex mu_;
  std::map<std::string, int> per_client_;
  std::set<socket_t> open_;
};

}  // namespace floe
