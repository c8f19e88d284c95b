// Serve: a catalog as an Iceberg REST catalog over HTTP (what `floe serve` runs).
//
// This is the server room's one entry point (src/server/serve.cc). It is not part of floe::floe
// (floe/floe.h does not include it): a program that calls it links the server room, as the
// floe command does. Only the server speaks HTTP; the command hands it its options and waits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "floe/result.h"

namespace floe {

// The options of `floe serve`, with its defaults. Texts are as the command line spells them;
// the messages of InvalidArgument errors name the option (--listen, --token, ...).
struct ServeOptions {
  std::string catalog_uri;  // the catalog served, as Connection::Open takes it
  std::string catalog_name = "default";
  std::string listen = "127.0.0.1:8181";  // HOST:PORT; port 0: any free port
  std::vector<std::string> tokens;        // principals NAME:SECRET:GRANTS
  std::string tokens_file;                // a file of principals, one per line
  int threads = 16;
  size_t max_body_mib = 10;
  size_t max_namespaces = 10000;
  int stop_timeout_s = 10;  // how long SIGINT/SIGTERM waits for running requests
  int timeout_s = 30;       // a response's write may stall this long
  int header_timeout_s = 10;
  int body_timeout_s = 60;
  int idle_timeout_s = 5;
  int max_connections_per_client = 64;
  int max_connections = 512;
  std::vector<std::string> allowed_locations;
  int64_t token_lifetime_s = 3600;
  int64_t idempotency_lifetime_s = 1800;
  std::string log_format = "text";  // text, json or off
  std::string maintain_every;       // a duration (30s, 10m, 1h); empty: no background maintenance
};

// InvalidArgument naming the option when `options` holds one the server cannot use (a --listen
// that is not HOST:PORT, a negative --stop-timeout, a bad duration, log format or --token).
// Opens nothing.
Status CheckServeOptions(const ServeOptions& options);

// Serves until SIGINT or SIGTERM (which it blocks in the calling process and waits for on a
// thread of its own), then stops: running requests get stop_timeout_s seconds, after which the
// process exits with status 0 without them. Prints "floe serve: listening on URL" on standard
// output once bound, and its notes, the access log and "floe serve: stopped" on standard error.
// Ok once stopped. Errors, nothing served:
//   InvalidArgument  what CheckServeOptions refuses, or an option the server refuses when it
//                    starts (listening beyond loopback without tokens, threads < 1, ...);
//   Corrupt          a line of the tokens file that is not a principal (the message names it);
//   IOError          the tokens file cannot be read, or the address cannot be bound;
//   Unavailable / IOError  the catalog cannot be opened.
Status Serve(const ServeOptions& options);

}  // namespace floe
