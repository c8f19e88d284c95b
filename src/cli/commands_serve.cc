// floe serve: the Iceberg REST catalog server on the command line.
#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <thread>

#include "cli/commands.h"
#include "maint/maintenance.h"
#include "server/rest_server.h"

namespace floe::cli {
namespace {

struct ServeOptions {
  std::string listen = "127.0.0.1:8181";
  std::vector<std::string> tokens;
  std::string tokens_file;
  int threads = 16;
  size_t max_body_mib = 10;
  size_t max_namespaces = 10000;
  int stop_timeout_s = 10;
  int timeout_s = 30;
  ConnectionLimits connections;
  std::vector<std::string> allowed_locations;
  int64_t token_lifetime_s = 3600;
  int64_t idempotency_lifetime_s = 1800;
  std::string log_format = "text";
  std::string maintain_every;  // empty: no background maintenance
};

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

int RunServe(CliContext& ctx, const ServeOptions& o) {
  auto listen = ParseListen(o.listen);
  if (!listen) return ctx.Usage(listen.error().message);
  if (o.stop_timeout_s < 0) return ctx.Usage("--stop-timeout must be 0 or more seconds");
  int64_t maintain_every_ms = 0;
  if (!o.maintain_every.empty()) {
    auto every = ParseDurationMs(o.maintain_every);
    if (!every) return ctx.Usage("--maintain-every: " + every.error().message);
    maintain_every_ms = *every;
  }
  RestServerOptions options;
  options.catalog_uri = ctx.catalog_uri;
  if (options.catalog_uri.empty()) {
    if (const char* env = std::getenv("FLOE_CATALOG")) options.catalog_uri = env;
  }
  options.catalog_name = ctx.catalog_name;
  options.host = listen->first;
  options.port = listen->second;
  options.threads = o.threads;
  options.max_body_bytes = o.max_body_mib * 1024 * 1024;
  options.max_namespaces = o.max_namespaces;
  options.write_timeout_s = o.timeout_s;
  options.connections = o.connections;
  options.allowed_locations = o.allowed_locations;
  options.token_lifetime_s = o.token_lifetime_s;
  options.idempotency_lifetime_s = o.idempotency_lifetime_s;
  if (o.log_format == "off") options.access_log = false;
  else if (o.log_format == "json") options.log_format = AccessLogFormat::kJson;
  else if (o.log_format != "text") return ctx.Usage("--log-format must be text, json or off, not '" + o.log_format + "'");
  for (const auto& spec : o.tokens) {
    auto p = ParsePrincipal(spec);
    if (!p) return ctx.Usage("--token: " + p.error().message);
    options.principals.push_back(std::move(*p));
  }
  if (!o.tokens_file.empty()) {
    auto ps = LoadPrincipalsFile(o.tokens_file);
    if (!ps) return ctx.Fail(ps.error());
    for (auto& p : *ps) options.principals.push_back(std::move(p));
  }

  // SIGINT/SIGTERM are taken by one thread (sigwait) that stops the server; every other
  // thread, including the server's, inherits the blocked mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  const std::string catalog_uri = options.catalog_uri;
  auto server = RestServer::Create(std::move(options));
  if (!server) {
    if (server.error().kind == ErrorKind::kInvalidArgument) return ctx.Usage(server.error().message);
    return ctx.Fail(server.error());
  }
  auto port = (*server)->Bind();
  if (!port) return ctx.Fail(port.error());
  for (const auto& note : (*server)->notes()) std::cerr << "floe serve: " << note << "\n";
  std::cout << "floe serve: listening on " << (*server)->url() << std::endl;

  // Background maintenance of the tables that ask for it (floe.maintenance.enabled=true).
  std::unique_ptr<MaintenanceLoop> maintenance;
  if (maintain_every_ms > 0) {
    CatalogOptions catalog_options;
    catalog_options.name = ctx.catalog_name;
    maintenance = std::make_unique<MaintenanceLoop>(
        [catalog_uri, catalog_options] { return OpenCatalog(catalog_uri, catalog_options); },
        maintain_every_ms, [](const std::string& line) { std::cerr << "floe serve: " << line << std::endl; });
    maintenance->Start();
  }
  RestServer* raw = server->get();
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
        std::_Exit(kExitOk);
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
  if (!ran) return ctx.Fail(ran.error());
  std::cerr << "floe serve: stopped\n";
  return kExitOk;
}

}  // namespace

void RegisterServeCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto& o = ctx.Keep<ServeOptions>();
  auto* serve = app.add_subcommand("serve", "serve the catalog as an Iceberg REST catalog (HTTP)");
  serve->add_option("--listen", o.listen, "HOST:PORT to listen on (port 0: any free port)")->default_val(o.listen);
  serve->add_option("--tokens-file", o.tokens_file,
                    "a file of principals, one per line: NAME:sha256:HEX:GRANTS (HEX: sha256sum of the secret) "
                    "or NAME:SECRET:GRANTS; '#' starts a comment");
  serve->add_option("--token", o.tokens,
                    "a principal NAME:SECRET:GRANTS, e.g. etl:s3cret:write@sales,read@*; repeatable (visible to "
                    "local users in ps: prefer --tokens-file). Without any, only loopback clients are served");
  serve->add_option("--allow-location", o.allowed_locations,
                    "a prefix (folder or s3://bucket/path) where tables may live besides their namespace's "
                    "location under the warehouse; repeatable");
  serve->add_option("--threads", o.threads, "threads kept ready for connections (more start while clients wait)")
      ->default_val(o.threads);
  serve->add_option("--header-timeout", o.connections.header_timeout_s,
                    "seconds a request's line and headers may take to arrive; slower connections are closed")
      ->default_val(o.connections.header_timeout_s);
  serve->add_option("--body-timeout", o.connections.body_timeout_s,
                    "seconds a request's body may take to arrive after its headers")
      ->default_val(o.connections.body_timeout_s);
  serve->add_option("--idle-timeout", o.connections.idle_timeout_s,
                    "seconds a kept-alive connection may wait for its next request")
      ->default_val(o.connections.idle_timeout_s);
  serve->add_option("--max-connections-per-client", o.connections.max_connections_per_client,
                    "open connections one client address may hold (503 beyond)")
      ->default_val(o.connections.max_connections_per_client);
  serve->add_option("--max-connections", o.connections.max_connections,
                    "connections served at once in all (more wait for a thread)")
      ->default_val(o.connections.max_connections);
  serve->add_option("--max-body-mib", o.max_body_mib, "largest request body accepted (413 beyond)")
      ->default_val(o.max_body_mib);
  serve->add_option("--max-namespaces", o.max_namespaces,
                    "namespaces the catalog may hold; create-namespace beyond is refused (400)")
      ->default_val(o.max_namespaces);
  serve->add_option("--stop-timeout", o.stop_timeout_s,
                    "seconds SIGTERM/SIGINT waits for requests still running before the process exits without them")
      ->default_val(o.stop_timeout_s);
  serve->add_option("--timeout", o.timeout_s, "seconds writing a response may stall before the connection is closed")
      ->default_val(o.timeout_s);
  serve->add_option("--token-lifetime", o.token_lifetime_s, "seconds an issued OAuth token lives")
      ->default_val(o.token_lifetime_s);
  // At least a second: /v1/config advertises it, and keys that live 0 s would make that a lie.
  serve->add_option("--idempotency-lifetime", o.idempotency_lifetime_s,
                    "seconds an Idempotency-Key's answer is kept (1 s to 366 days)")
      ->default_val(o.idempotency_lifetime_s)
      ->check(CLI::Range(int64_t{1}, int64_t{366} * 24 * 3600));
  serve->add_option("--log-format", o.log_format,
                    "the access log on standard error, a line per request: text, json or off")
      ->default_val(o.log_format);
  serve->footer(
      "Besides the Iceberg REST API (/v1/...), the server answers GET /metrics (Prometheus text) and GET /ui "
      "(a read-only web view of namespaces and tables), with the same authentication.");
  serve->add_option("--maintain-every", o.maintain_every,
                    "DURATION (30s, 10m, 1h): maintain the tables with floe.maintenance.enabled=true that often");
  OnRun(serve, exit_status, [&] { return RunServe(ctx, o); });
}

}  // namespace floe::cli
