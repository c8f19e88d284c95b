// floe/server.h: the server room's entry point. It turns the command's options into the
// server's, runs it until a stop signal, and runs background maintenance beside it.
#include "floe/server.h"

#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "maint/maintenance.h"
#include "server/auth.h"
#include "server/rest_server.h"

namespace floe {
namespace {

Result<std::pair<std::string, int>> ParseListen(const std::string& text) {
  size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
    return InvalidArgument("--listen expects HOST:PORT, e.g. 127.0.0.1:8181, got '" + text + "'");
  }
  std::string host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  std::string port_text = text.substr(colon + 1);
  if (port_text.find_first_not_of("0123456789") != std::string::npos || port_text.size() > 5) {
    return InvalidArgument("--listen: bad port '" + port_text + "'");
  }
  int port = std::stoi(port_text);
  if (port > 65535) return InvalidArgument("--listen: port " + port_text + " is out of range");
  return std::make_pair(host, port);
}

// 0: no background maintenance.
Result<int64_t> MaintainEveryMs(const ServeOptions& o) {
  if (o.maintain_every.empty()) return int64_t{0};
  auto every = ParseDurationMs(o.maintain_every);
  if (!every) return InvalidArgument("--maintain-every: " + every.error().message);
  return *every;
}

// The server's options; InvalidArgument as CheckServeOptions says, Corrupt or IOError from the
// tokens file.
Result<RestServerOptions> ServerOptionsOf(const ServeOptions& o) {
  FLOE_ASSIGN_OR_RETURN(auto listen, ParseListen(o.listen));
  if (o.stop_timeout_s < 0) return InvalidArgument("--stop-timeout must be 0 or more seconds");
  FLOE_RETURN_IF_ERROR(MaintainEveryMs(o));
  RestServerOptions options;
  options.catalog_uri = o.catalog_uri;
  options.catalog_name = o.catalog_name;
  options.host = listen.first;
  options.port = listen.second;
  options.threads = o.threads;
  options.max_body_bytes = o.max_body_mib * 1024 * 1024;
  options.max_namespaces = o.max_namespaces;
  options.write_timeout_s = o.timeout_s;
  options.connections = {.header_timeout_s = o.header_timeout_s,
                         .body_timeout_s = o.body_timeout_s,
                         .idle_timeout_s = o.idle_timeout_s,
                         .max_connections_per_client = o.max_connections_per_client,
                         .max_connections = o.max_connections};
  options.allowed_locations = o.allowed_locations;
  options.token_lifetime_s = o.token_lifetime_s;
  options.idempotency_lifetime_s = o.idempotency_lifetime_s;
  if (o.log_format == "off") options.access_log = false;
  else if (o.log_format == "json") options.log_format = AccessLogFormat::kJson;
  else if (o.log_format != "text") return InvalidArgument("--log-format must be text, json or off, not '" + o.log_format + "'");
  for (const auto& spec : o.tokens) {
    auto p = ParsePrincipal(spec);
    if (!p) return InvalidArgument("--token: " + p.error().message);
    options.principals.push_back(std::move(*p));
  }
  return options;
}

// Principals from the tokens file. A line that is not one is the file's fault, not an option's:
// Corrupt, so a caller tells it from what CheckServeOptions refuses.
Status AddTokensFile(const std::string& path, RestServerOptions& options) {
  auto principals = LoadPrincipalsFile(path);
  if (!principals) {
    if (principals.error().kind == ErrorKind::kInvalidArgument) return Corrupt(principals.error().message);
    return std::unexpected(principals.error());
  }
  for (auto& p : *principals) options.principals.push_back(std::move(p));
  return Ok();
}

}  // namespace

Status CheckServeOptions(const ServeOptions& options) {
  FLOE_RETURN_IF_ERROR(ServerOptionsOf(options));
  return Ok();
}

Status Serve(const ServeOptions& o) {
  FLOE_ASSIGN_OR_RETURN(RestServerOptions options, ServerOptionsOf(o));
  FLOE_ASSIGN_OR_RETURN(const int64_t maintain_every_ms, MaintainEveryMs(o));
  // The process's contention state: the clients' commits (group commit) and the server's own
  // (background maintenance) meet in it. Declared first, so it outlives both.
  ContentionScheduler contention;
  options.contention = &contention;
  if (!o.tokens_file.empty()) FLOE_RETURN_IF_ERROR(AddTokensFile(o.tokens_file, options));

  // SIGINT/SIGTERM are taken by one thread (sigwait) that stops the server; every other
  // thread, including the server's, inherits the blocked mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<RestServer> server, RestServer::Create(std::move(options)));
  FLOE_RETURN_IF_ERROR(server->Bind());
  for (const auto& note : server->notes()) std::cerr << "floe serve: " << note << "\n";
  std::cout << "floe serve: listening on " << server->url() << std::endl;

  // Background maintenance of the tables that ask for it (floe.maintenance.enabled=true).
  std::unique_ptr<MaintenanceLoop> maintenance;
  if (maintain_every_ms > 0) {
    CatalogOptions catalog_options;
    catalog_options.name = o.catalog_name;
    catalog_options.commit_scheduler = &contention;
    maintenance = std::make_unique<MaintenanceLoop>(
        [catalog_uri = o.catalog_uri, catalog_options] { return OpenCatalog(catalog_uri, catalog_options); },
        maintain_every_ms, [](const std::string& line) { std::cerr << "floe serve: " << line << std::endl; });
    maintenance->Start();
  }
  RestServer* raw = server.get();
  // Stopping waits for the requests being served, but not forever: one stuck in a long
  // computation or a held database lock would otherwise keep the process alive after SIGTERM.
  // Past the grace the process ends without them, as a crash would (every commit is one atomic
  // swap, so an abandoned request either landed or changed nothing).
  std::mutex stop_mu;
  std::condition_variable stop_cv;
  bool run_returned = false;
  const int stop_timeout_s = o.stop_timeout_s;
  std::thread waiter([&, raw, signals] {
    int sig = 0;
    sigwait(&signals, &sig);
    if (sig != SIGINT && sig != SIGTERM) return;
    // Stop is asked again every 100 ms: one that comes before the server started listening
    // would otherwise be lost.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(stop_timeout_s);
    std::unique_lock lock(stop_mu);
    while (!run_returned) {
      if (std::chrono::steady_clock::now() >= deadline) {
        std::cerr << "floe serve: requests still running " << stop_timeout_s
                  << " s after the stop signal (--stop-timeout); exiting without them" << std::endl;
        std::_Exit(0);
      }
      raw->Stop();
      stop_cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return run_returned; });
    }
  });
  auto ran = raw->Run();
  {
    std::lock_guard lock(stop_mu);
    run_returned = true;
  }
  stop_cv.notify_all();
  // Wake the waiter if the server stopped on its own.
  pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  if (maintenance) maintenance->Stop();
  FLOE_RETURN_IF_ERROR(ran);
  std::cerr << "floe serve: stopped\n";
  return Ok();
}

}  // namespace floe
