// floe serve: the Iceberg REST catalog server on the command line.
#include <cstdlib>

#include "cli/commands.h"
#include "floe/server.h"

namespace floe::cli {
namespace {

int RunServe(CliContext& ctx, ServeOptions options) {
  // The catalog served: --catalog, else FLOE_CATALOG (as every command), else the embedded default.
  options.catalog_uri = ctx.catalog_uri;
  if (options.catalog_uri.empty()) {
    if (const char* env = std::getenv("FLOE_CATALOG")) options.catalog_uri = env;
  }
  options.catalog_name = ctx.catalog_name;
  // A bad option is a usage error (exit 2); so is anything the server refuses as it starts with
  // InvalidArgument (an unknown catalog URI, listening beyond loopback without tokens). A tokens
  // file it cannot read or use, a port it cannot bind: errors (exit 1).
  if (auto checked = CheckServeOptions(options); !checked) return ctx.Usage(checked.error().message);
  auto served = Serve(options);
  if (!served) {
    if (served.error().kind == ErrorKind::kInvalidArgument) return ctx.Usage(served.error().message);
    return ctx.Fail(served.error());
  }
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
  serve->add_option("--header-timeout", o.header_timeout_s,
                    "seconds a request's line and headers may take to arrive; slower connections are closed")
      ->default_val(o.header_timeout_s);
  serve->add_option("--body-timeout", o.body_timeout_s,
                    "seconds a request's body may take to arrive after its headers")
      ->default_val(o.body_timeout_s);
  serve->add_option("--idle-timeout", o.idle_timeout_s,
                    "seconds a kept-alive connection may wait for its next request")
      ->default_val(o.idle_timeout_s);
  serve->add_option("--max-connections-per-client", o.max_connections_per_client,
                    "open connections one client address may hold (503 beyond)")
      ->default_val(o.max_connections_per_client);
  serve->add_option("--max-connections", o.max_connections,
                    "connections served at once in all (more wait for a thread)")
      ->default_val(o.max_connections);
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
