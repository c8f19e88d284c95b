#include "server/rest_server.h"

#include <httplib.h>
#include <openssl/evp.h>

#include <optional>

#include <chrono>
#include <filesystem>
#include <thread>

#include "catalog/catalog_uri.h"
#include "catalog/rest/rest_protocol.h"
#include "catalog/sql/postgres_connection.h"
#include "catalog/sql/sqlite_connection.h"
#include "server/catalog_pool.h"
#include "server/idempotency_store.h"
#include "server/rest_handlers.h"
#include "server/request_observer.h"
#include "server/rest_routes.h"
#include "server/ui_routes.h"
#include "util/utf8.h"
#include "util/clock.h"
#include "util/uuid.h"

namespace floe {
namespace {

using nlohmann::json;

std::string IsoDuration(int64_t seconds) {
  if (seconds % 3600 == 0) return "PT" + std::to_string(seconds / 3600) + "H";
  if (seconds % 60 == 0) return "PT" + std::to_string(seconds / 60) + "M";
  return "PT" + std::to_string(seconds) + "S";
}

// The idempotency store for a catalog URI: the catalog's own SQL database when it has one.
Result<std::unique_ptr<IdempotencyStore>> OpenIdempotencyStore(const std::string& uri, IdempotencyTimes times) {
  std::string effective = uri.empty() ? "sqlite://./warehouse/catalog.db" : uri;
  FLOE_ASSIGN_OR_RETURN(CatalogUri parsed, ParseCatalogUri(effective));
  if (parsed.scheme == "sqlite" && parsed.path != ":memory:") {
    std::string path = std::filesystem::absolute(parsed.path).lexically_normal().string();
    auto opener = [path]() -> Result<std::unique_ptr<SqlConnection>> {
      FLOE_ASSIGN_OR_RETURN(auto conn, SqliteConnection::Open(path));
      return std::unique_ptr<SqlConnection>(std::move(conn));
    };
    FLOE_ASSIGN_OR_RETURN(auto store, SqlIdempotencyStore::Open(opener, times));
    return std::unique_ptr<IdempotencyStore>(std::move(store));
  }
  if (parsed.scheme == "postgresql") {
    std::string conninfo = parsed.backend_uri;
    auto opener = [conninfo]() -> Result<std::unique_ptr<SqlConnection>> {
      FLOE_ASSIGN_OR_RETURN(auto conn, PostgresConnection::Open(conninfo));
      return std::unique_ptr<SqlConnection>(std::move(conn));
    };
    FLOE_ASSIGN_OR_RETURN(auto store, SqlIdempotencyStore::Open(opener, times));
    return std::unique_ptr<IdempotencyStore>(std::move(store));
  }
  return std::unique_ptr<IdempotencyStore>(std::make_unique<MemoryIdempotencyStore>(times));
}

// A header's whole value. httplib's get_header_value goes through a C string and so stops at
// the first NUL byte: "Bearer <token>\0<anything>" would read as "Bearer <token>".
std::string HeaderValue(const httplib::Request& req, const std::string& name) {
  auto it = req.headers.find(name);
  return it == req.headers.end() ? std::string() : it->second;
}

// A Content-Length that no body can satisfy is refused as soon as the headers are read, never
// after waiting out the body deadline: 400 when it is not a plain decimal number of bytes
// (RFC 9110 allows digits only: no sign, no space), 413 when it is more than the server takes.
std::optional<RestReply> CheckContentLength(const httplib::Request& req, size_t max_body_bytes) {
  if (req.headers.count("Content-Length") > 1) {
    return ErrorReply(400, "BadRequestException", "the request has more than one Content-Length header");
  }
  const std::string text = HeaderValue(req, "Content-Length");
  if (text.empty()) return std::nullopt;
  if (text.find_first_not_of("0123456789") != std::string::npos) {
    std::string shown = EscapeInvalidUtf8(text.substr(0, 40));
    return ErrorReply(400, "BadRequestException", "Content-Length '" + shown + "' is not a number of bytes");
  }
  const size_t digits = text.find_first_not_of('0') == std::string::npos ? 0 : text.size() - text.find_first_not_of('0');
  if (digits > 19 || std::stoull(text) > max_body_bytes) {
    return ErrorReply(413, "RequestTooLargeException",
                      "Content-Length " + text.substr(0, 40) + " is more than the largest request body accepted, " +
                          std::to_string(max_body_bytes) + " bytes (floe serve --max-body-mib)");
  }
  return std::nullopt;
}

RestReply OAuthError(int status, const std::string& error, const std::string& description) {
  return RestReply{status, json{{"error", error}, {"error_description", description}}.dump(), {}};
}

bool IsOAuthPath(const httplib::Request& req) { return req.path == "/v1/oauth/tokens"; }

// The token endpoint answers errors in OAuth2's form (RFC 6749 section 5.2, the spec's
// OAuthError), never the catalog's ErrorModel: 401 invalid_client, any other refusal 400
// invalid_request (the statuses the spec declares there); a 5xx keeps its status, and so does
// a 405 (a method the spec does not declare there, answered with its Allow header).
void ToOAuthError(int* status, std::string* body) {
  json parsed = json::parse(*body, nullptr, false);
  if (parsed.is_object() && parsed.contains("error") && parsed["error"].is_string()) return;  // OAuth form already
  std::string description = "HTTP error " + std::to_string(*status);
  if (parsed.is_object() && parsed.contains("error") && parsed["error"].is_object()) {
    description = parsed["error"].value("message", description);
  }
  if (*status >= 400 && *status < 500 && *status != 401 && *status != 405) *status = 400;
  *body = json{{"error", *status == 401 ? "invalid_client" : "invalid_request"}, {"error_description", description}}.dump();
}

}  // namespace

bool IsLoopbackAddress(const std::string& host) {
  return host == "localhost" || host == "::1" || host == "[::1]" || host.rfind("127.", 0) == 0 ||
         host.rfind("::ffff:127.", 0) == 0;
}

struct RestServer::Impl : ServerEndpoints {
  RestServerOptions options;
  std::unique_ptr<GuardedHttpServer> http;
  LocationConfinement confinement;
  RequestPolicy policy;
  std::unique_ptr<ContentionScheduler> own_contention;  // when the options supply none
  std::unique_ptr<CatalogPool> pool;
  std::unique_ptr<TableAnswers> answers;
  std::unique_ptr<IdempotencyStore> idempotency;
  std::unique_ptr<Authenticator> auth;
  ServerInfo info;
  int port = 0;
  std::vector<std::string> notes;

  // What every request must pass before its body is read: a route, UTF-8 in path and query, a
  // valid token, the grant its route needs. Sets `route` and `principal` when it passes.
  std::optional<RestReply> Admit(const httplib::Request& req, Route* route, const Principal** principal);
  // Answers one admitted-or-not request; `route` and `principal` tell the observer what it was.
  RestReply Process(const httplib::Request& req, Route* route, const Principal** principal);
  // The routes the server answers itself (rest_routes.cc's table names them).
  RestReply Config(const httplib::Request& req, const RestRequest& request) override;
  RestReply IssueToken(const httplib::Request& req, const RestRequest& request) override;
  RestReply Metrics(const httplib::Request& req, const RestRequest& request) override;
  RestReply Ui(const httplib::Request& req, const RestRequest& request) override;
  // The request's metrics and access-log line; sets X-Request-Id on the response.
  void Observe(const httplib::Request& req, const Route& route, const Principal* principal, RestReply& reply,
               std::chrono::steady_clock::time_point started, int64_t started_ms);
  std::unique_ptr<RequestObserver> observer;
  RestReply RunCatalogRequest(CatalogHandler handler, const RestRequest& request);
  RestReply WithIdempotencyKey(CatalogHandler handler, const RestRequest& request, const std::string& key,
                               const std::string& raw_path);
};

RestServer::RestServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RestServer::~RestServer() = default;

Result<std::unique_ptr<RestServer>> RestServer::Create(RestServerOptions options) {
  if (options.principals.empty() && !IsLoopbackAddress(options.host)) {
    return InvalidArgument("refusing to listen on " + options.host +
                           " without tokens: configure principals (--token NAME:SECRET:GRANTS or --tokens-file) "
                           "or listen on 127.0.0.1");
  }
  if (options.threads < 1) return InvalidArgument("threads must be at least 1");
  const ConnectionLimits& limits = options.connections;
  if (limits.header_timeout_s < 1 || limits.body_timeout_s < 1 || limits.idle_timeout_s < 1) {
    return InvalidArgument("the header, body and idle timeouts must be at least 1 second");
  }
  if (limits.max_connections_per_client < 1 || limits.max_connections < options.threads) {
    return InvalidArgument("max connections per client must be at least 1, and max connections at least --threads");
  }
  auto impl = std::make_unique<Impl>();
  impl->http = std::make_unique<GuardedHttpServer>(limits, options.threads);
  ContentionScheduler* contention = options.contention;
  if (contention == nullptr) {
    impl->own_contention = std::make_unique<ContentionScheduler>();
    contention = impl->own_contention.get();
  }
  impl->policy.commit = ServerCommitOptionsFromEnvironment();
  impl->policy.commit.contention = contention;
  CatalogOptions catalog_options;
  catalog_options.name = options.catalog_name;
  catalog_options.commit_scheduler = contention;
  impl->pool = std::make_unique<CatalogPool>(options.catalog_uri, catalog_options);
  impl->answers = std::make_unique<TableAnswers>(impl->pool->metadata_cache());
  impl->policy.answers = impl->answers.get();
  {
    FLOE_ASSIGN_OR_RETURN(auto lease, impl->pool->Acquire());  // fail now, not on the first request
    impl->info.catalog_name = lease->name();
    impl->info.warehouse = lease->warehouse_location();
  }
  impl->info.prefix = impl->info.catalog_name;
  FLOE_ASSIGN_OR_RETURN(impl->confinement, LocationConfinement::Create(impl->info.warehouse, options.allowed_locations));
  impl->policy.confinement = &impl->confinement;
  if (options.max_namespaces < 1) return InvalidArgument("max namespaces must be at least 1");
  impl->policy.limits.max_namespaces = options.max_namespaces;
  IdempotencyTimes times;
  times.lifetime_ms = options.idempotency_lifetime_s * 1000;
  times.stale_ms =
      std::max<int64_t>(2 * (limits.header_timeout_s + limits.body_timeout_s + options.write_timeout_s), 60) * 1000;
  FLOE_ASSIGN_OR_RETURN(impl->idempotency, OpenIdempotencyStore(options.catalog_uri, times));
  impl->info.idempotency_lifetime = IsoDuration(options.idempotency_lifetime_s);
  impl->auth = std::make_unique<Authenticator>(options.principals, options.token_lifetime_s);

  if (impl->auth->enabled()) {
    impl->notes.push_back("authentication: bearer tokens for " + std::to_string(options.principals.size()) +
                          " principal(s); tokens also from POST /v1/oauth/tokens");
  } else {
    impl->notes.push_back("authentication: none configured, so only loopback clients are served");
  }
  impl->notes.push_back("idempotency keys: " + impl->idempotency->description() + ", lifetime " +
                        impl->info.idempotency_lifetime);
  impl->notes.push_back("warehouse: " + impl->info.warehouse);
  for (const auto& prefix : options.allowed_locations) impl->notes.push_back("tables may also live under " + prefix);
  impl->notes.push_back("connections: header deadline " + std::to_string(limits.header_timeout_s) + " s, body " +
                        std::to_string(limits.body_timeout_s) + " s, at most " +
                        std::to_string(limits.max_connections_per_client) + " per client address and " +
                        std::to_string(limits.max_connections) + " in all");

  Impl* self = impl.get();
  impl->observer = std::make_unique<RequestObserver>(options.access_log, options.log_format);
  auto handler = [self](const httplib::Request& req, httplib::Response& res) {
    auto started = std::chrono::steady_clock::now();
    int64_t started_ms = Clock::System().NowMillis();
    Route route;
    const Principal* principal = nullptr;
    RestReply reply = self->Process(req, &route, &principal);
    if (IsOAuthPath(req) && reply.status >= 400) ToOAuthError(&reply.status, &reply.body);
    self->Observe(req, route, principal, reply, started, started_ms);
    res.status = reply.status;
    std::string content_type = "application/json";
    for (const auto& [k, v] : reply.headers) {
      if (k == "Content-Type") content_type = v;
      else res.set_header(k, v);
    }
    if (!reply.body.empty()) res.set_content(reply.body, content_type);
  };
  auto& http = *impl->http;
  http.Get(".*", handler);
  http.Post(".*", handler);
  http.Delete(".*", handler);
  http.Put(".*", handler);
  http.Patch(".*", handler);
  // After the headers, before the body: a request that may not be served is answered now, so a
  // caller without the grant never gets its body parsed (or even read).
  http.set_pre_routing_handler([self](const httplib::Request& req, httplib::Response& res) {
    GuardedHttpServer::HeadersDone();
    auto started = std::chrono::steady_clock::now();
    int64_t started_ms = Clock::System().NowMillis();
    Route route;
    const Principal* principal = nullptr;
    auto refused = CheckContentLength(req, self->options.max_body_bytes);
    if (!refused) refused = self->Admit(req, &route, &principal);
    if (!refused) return httplib::Server::HandlerResponse::Unhandled;
    if (IsOAuthPath(req)) ToOAuthError(&refused->status, &refused->body);
    self->Observe(req, route, principal, *refused, started, started_ms);
    res.status = refused->status;
    for (const auto& [k, v] : refused->headers) res.set_header(k, v);
    // The body is dropped unread and unparsed (a refused caller's bytes are never parsed);
    // one too long, chunked or too slow ends the connection instead.
    const std::string length_text = HeaderValue(req, "Content-Length");
    const bool chunked = !HeaderValue(req, "Transfer-Encoding").empty();
    size_t length = 0;
    bool numeric = !length_text.empty() && length_text.size() < 19 &&
                   length_text.find_first_not_of("0123456789") == std::string::npos;
    if (numeric) length = std::stoull(length_text);
    bool drained = !chunked && (length_text.empty() || (numeric && length <= self->options.max_body_bytes &&
                                                        GuardedHttpServer::DiscardBody(length)));
    if (!drained) {
      // Its unread body must never be taken for the next request.
      res.set_header("Connection", "close");
      GuardedHttpServer::CloseAfterResponse();
    }
    res.set_content(refused->body, "application/json");
    return httplib::Server::HandlerResponse::Handled;
  });
  // Errors httplib answers itself (a body over the limit: 413, a request line too long: 414).
  // The REST spec declares neither status; Iceberg's own server (Jetty under its servlet)
  // answers these two the same way, so they stay, with the ErrorModel body.
  http.set_error_handler([self](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    std::string message = res.status == 413 ? "request body larger than " +
                                                  std::to_string(self->options.max_body_bytes) + " bytes"
                                            : "HTTP error " + std::to_string(res.status);
    std::string type = res.status == 413 ? "RequestTooLargeException" : "BadRequestException";
    std::string body = ErrorModelJson(res.status, type, message).dump();
    if (IsOAuthPath(req)) ToOAuthError(&res.status, &body);
    res.set_content(body, "application/json");
  });
  http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    res.status = 500;
    res.set_content(ErrorModelJson(500, "InternalServerError", "unexpected server error").dump(), "application/json");
  });
  http.set_payload_max_length(options.max_body_bytes);
  // Responses are written in pieces; without TCP_NODELAY each waits for the client's delayed ACK.
  http.set_tcp_nodelay(true);
  http.set_write_timeout(options.write_timeout_s, 0);
  impl->options = std::move(options);
  return std::unique_ptr<RestServer>(new RestServer(std::move(impl)));
}

Result<int> RestServer::Bind() {
  const auto& o = impl_->options;
  if (o.port == 0) {
    int port = impl_->http->bind_to_any_port(o.host);
    if (port <= 0) return IOError("cannot listen on " + o.host + ": bind failed");
    impl_->port = port;
  } else {
    if (!impl_->http->bind_to_port(o.host, o.port)) {
      return IOError("cannot listen on " + o.host + ":" + std::to_string(o.port) + " (in use, or not allowed)");
    }
    impl_->port = o.port;
  }
  return impl_->port;
}

Status RestServer::Run() {
  if (impl_->port == 0) FLOE_RETURN_IF_ERROR(Bind());
  impl_->http->listen_after_bind();
  return Ok();
}

void RestServer::Stop() { impl_->http->StopAll(); }

std::string RestServer::url() const {
  const std::string& host = impl_->options.host;
  bool v6 = host.find(':') != std::string::npos && host.front() != '[';
  return "http://" + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(impl_->port);
}

std::vector<std::string> RestServer::notes() const { return impl_->notes; }

std::optional<RestReply> RestServer::Impl::Admit(const httplib::Request& req, Route* route,
                                                 const Principal** principal) {
  const std::string raw_path = req.target.substr(0, req.target.find('?'));
  auto decoded = PercentDecode(raw_path);
  if (decoded && !IsValidUtf8(*decoded)) return ErrorReply(400, "BadRequestException", "the request path is not UTF-8");
  for (const auto& [k, v] : req.params) {
    if (!IsValidUtf8(k) || !IsValidUtf8(v)) {
      return ErrorReply(400, "BadRequestException", "the query parameters are not UTF-8");
    }
  }
  auto parsed = ParseRoute(raw_path, info.prefix);
  // TRACE, OPTIONS, CONNECT: no route takes them. On a route, a 405 naming exactly the methods
  // that route takes, as for the other methods; a path that names no route of this server is
  // answered below as for any method (there is no resource whose methods an Allow could list).
  if (parsed && req.method != "GET" && req.method != "HEAD" && req.method != "POST" && req.method != "DELETE" &&
      req.method != "PUT" && req.method != "PATCH") {
    RestReply reply = ErrorReply(405, "MethodNotAllowedException", "method " + req.method + " is not allowed here");
    reply.headers.emplace_back("Allow", AllowedMethods(*parsed));
    return reply;
  }
  if (!parsed) {
    if (parsed.error().kind == ErrorKind::kNotFound) {
      // Under /v1 (the REST spec's paths), as Iceberg's own server answers a request no route
      // takes (a path floe does not serve, a catalog prefix not this server's): 400, which
      // every route of the spec declares. Elsewhere: 404.
      if (raw_path.rfind("/v1/", 0) == 0) {
        return ErrorReply(400, "BadRequestException", "no route for request " + req.method + ": " + parsed.error().message);
      }
      return ErrorReply(404, "NoSuchRouteException", parsed.error().message);
    }
    return ErrorReply(400, "BadRequestException", parsed.error().message);
  }
  *route = std::move(*parsed);
  const RouteSpec* spec = FindRoute(*route, req.method);
  const bool needs_token = spec ? spec->access != RouteAccess::kPublic : !IsPublicRoute(*route);
  if (needs_token && auth->enabled()) {
    std::string why;
    *principal = auth->Authenticate(HeaderValue(req, "Authorization"), Clock::System().NowMillis() / 1000, &why);
    if (!*principal) {
      RestReply reply = ErrorReply(401, "NotAuthorizedException", why);
      reply.headers.emplace_back("WWW-Authenticate", "Bearer");
      return reply;
    }
  } else if (needs_token && !IsLoopbackAddress(req.remote_addr)) {
    return ErrorReply(403, "ForbiddenException", "this server has no tokens configured and serves loopback clients only");
  }
  // A method the path does not take: 405 with the methods it does (RFC 9110).
  if (!spec) {
    RestReply reply = ErrorReply(405, "MethodNotAllowedException", "method " + req.method + " is not allowed on this route");
    reply.headers.emplace_back("Allow", AllowedMethods(*route));
    return reply;
  }
  RestRequest request;
  request.method = req.method;
  request.route = *route;
  request.principal = *principal;
  return AuthorizeRoute(*spec, request);
}

void RestServer::Impl::Observe(const httplib::Request& req, const Route& route, const Principal* principal,
                               RestReply& reply, std::chrono::steady_clock::time_point started, int64_t started_ms) {
  ObservedRequest seen;
  seen.request_id = NewRequestId();
  seen.start_ms = started_ms;
  seen.remote = req.remote_addr;
  seen.principal = principal ? principal->name : "";
  seen.method = req.method;
  seen.path = req.target.substr(0, req.target.find('?'));  // a query may carry what is not ours to log
  seen.route = RouteName(route, req.method);
  if (!route.table.empty()) seen.table = NamespaceToString(route.ns) + "." + route.table;
  seen.ns = route.ns;
  seen.latency_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  bool replayed = false;
  for (const auto& [k, v] : reply.headers) replayed |= k == "Idempotent-Replayed";
  if (replayed && seen.route == "commit-table") reply.commit = CommitNote{seen.table, "unknown", "replayed"};
  observer->Finish(seen, reply);
  reply.headers.emplace_back("X-Request-Id", seen.request_id);
}

RestReply RestServer::Impl::Ui(const httplib::Request& req, const RestRequest& request) {
  const Principal* principal = request.principal;
  auto lease = pool->Acquire();
  if (!lease) return ReplyFor(lease.error(), ErrorSubject::kTable);
  UiReply page = HandleUi(**lease, req.target.substr(0, req.target.find('?')), principal, observer->activity(),
                          Clock::System().NowMillis());
  RestReply reply{page.status, std::move(page.html), {{"Content-Type", "text/html; charset=utf-8"}}};
  // The pages are ours alone: no script, nothing from elsewhere, never framed by another site.
  reply.headers.emplace_back("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'");
  reply.headers.emplace_back("X-Frame-Options", "DENY");
  return reply;
}

RestReply RestServer::Impl::Config(const httplib::Request&, const RestRequest& request) {
  return HandleConfig(request, info);
}

RestReply RestServer::Impl::Metrics(const httplib::Request&, const RestRequest& request) {
  const Principal* principal = request.principal;
  observer->SetOpenConnections(http->open_connections());
  // A table's samples name it and count its commits: shown only to a caller who may read its
  // namespace. table="other" mixes every namespace's tables: shown only to a reader of all (read@*).
  MetricsRegistry::TableFilter filter;
  if (principal != nullptr) {
    filter = [principal](const std::vector<std::string>* ns) {
      return ns != nullptr ? principal->CanRead(*ns) : principal->CanReadEverything();
    };
  }
  return RestReply{200, observer->RenderMetrics(filter), {{"Content-Type", "text/plain; version=0.0.4; charset=utf-8"}}};
}

RestReply RestServer::Impl::Process(const httplib::Request& req, Route* route, const Principal** principal) {
  RestRequest request;
  if (auto refused = Admit(req, &request.route, &request.principal)) {
    *route = request.route;
    *principal = request.principal;
    return *refused;
  }
  *route = request.route;
  *principal = request.principal;
  request.method = req.method;
  request.query.insert(req.params.begin(), req.params.end());
  request.body = req.body;
  request.if_none_match = req.get_header_value("If-None-Match");
  const RouteSpec* spec = FindRoute(request.route, req.method);  // Admit found it
  if (spec->server) return (this->*(spec->server))(req, request);
  const bool mutating = req.method == "POST" || req.method == "DELETE";
  std::string key = req.get_header_value("Idempotency-Key");
  const std::string raw_path = req.target.substr(0, req.target.find('?'));
  if (mutating && !key.empty()) return WithIdempotencyKey(spec->catalog, request, key, raw_path);
  return RunCatalogRequest(spec->catalog, request);
}

RestReply RestServer::Impl::RunCatalogRequest(CatalogHandler handler, const RestRequest& request) {
  auto lease = pool->Acquire();
  if (!lease) return ReplyFor(lease.error(), ErrorSubject::kTable);
  return handler(**lease, request, policy);
}

RestReply RestServer::Impl::WithIdempotencyKey(CatalogHandler handler, const RestRequest& request,
                                              const std::string& header_key,
                                              const std::string& raw_path) {
  // The spec asks clients for a UUIDv7; any UUID is accepted (a v4 key is as unique), in either
  // case: RFC 9562 compares UUIDs case-insensitively, so the key is kept in lower case.
  auto parsed_key = Uuid::Parse(header_key);  // exactly 36 characters, hex and dashes
  if (!parsed_key) {
    return ErrorReply(400, "BadRequestException", "Idempotency-Key must be a UUID (36 characters), got '" +
                                                      header_key.substr(0, 64) + "'");
  }
  const std::string key = parsed_key->ToString();
  // The principal is part of the request: one caller never gets another's stored answer.
  std::string route = request.method + " " + raw_path;
  std::string who = request.principal ? request.principal->name : "";
  std::string hash = Sha256Hex(route + "\n" + who + "\n" + request.body);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (true) {
    auto claim = idempotency->Claim(key, route, hash, Clock::System().NowMillis());
    if (!claim) return ReplyFor(claim.error(), ErrorSubject::kTable);
    switch (claim->state) {
      case IdempotencyClaim::State::kReplay: {
        RestReply reply{claim->status, claim->body, {}};
        if (auto location = ReferencedDocument(claim->body)) {
          auto lease = pool->Acquire();
          if (!lease) return ReplyFor(lease.error(), ErrorSubject::kTable);
          reply = ReplayTableAnswer(**lease, pool->metadata_cache().get(), *location, policy);
        }
        reply.headers.emplace_back("Idempotent-Replayed", "true");
        return reply;
      }
      case IdempotencyClaim::State::kMismatch:
        return ErrorReply(422, "UnprocessableEntityException",
                          "Idempotency-Key " + key + " was already used for a different request (" +
                              claim->first_route + "); use a new key for a new operation");
      case IdempotencyClaim::State::kInFlight:
        if (std::chrono::steady_clock::now() > deadline) {
          RestReply reply = ErrorReply(503, "ServiceUnavailableException",
                                       "a request with Idempotency-Key " + key + " is still running; retry later");
          reply.headers.emplace_back("Retry-After", "1");
          return reply;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        continue;
      case IdempotencyClaim::State::kClaimed: {
        RestReply reply = RunCatalogRequest(handler, request);
        // Only final answers are kept (2xx and 4xx); a 5xx may be retried under the same key.
        if (reply.status >= 500) {
          (void)idempotency->Release(key);
        } else if (auto done = idempotency->Finish(key, reply.status,
                                                   idempotency->keeps_references() && !reply.answer_document.empty()
                                                       ? ReplayReference(reply.answer_document)
                                                       : reply.body);
                   !done) {
          // The request ran; only its replay is lost. A retry with the key would run it again
          // once the pending claim goes stale, so say so on stderr for the operator.
          std::fprintf(stderr, "floe serve: could not store the answer for Idempotency-Key %s: %s\n", key.c_str(),
                       done.error().message.c_str());
        }
        return reply;
      }
    }
  }
}

RestReply RestServer::Impl::IssueToken(const httplib::Request& req, const RestRequest&) {
  auto form = ParseFormBody(req.body);
  if (!form) return OAuthError(400, "invalid_request", form.error().message);
  std::string grant_type, client_id, client_secret;
  for (const auto& [k, v] : *form) {
    if (k == "grant_type") grant_type = v;
    if (k == "client_id") client_id = v;
    if (k == "client_secret") client_secret = v;
  }
  if (grant_type != "client_credentials") {
    return OAuthError(400, "unsupported_grant_type", "only grant_type=client_credentials is supported");
  }
  if (client_id.empty() && client_secret.empty()) {
    // OAuth2 also allows the credentials in a Basic Authorization header.
    std::string basic = HeaderValue(req, "Authorization");
    if (basic.rfind("Basic ", 0) == 0) {
      std::string decoded(basic.size(), '\0');
      int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(decoded.data()),
                              reinterpret_cast<const unsigned char*>(basic.data() + 6), static_cast<int>(basic.size() - 6));
      if (n > 0) {
        decoded.resize(static_cast<size_t>(n));
        while (!decoded.empty() && decoded.back() == '\0') decoded.pop_back();
        size_t colon = decoded.find(':');
        if (colon != std::string::npos) {
          client_id = decoded.substr(0, colon);
          client_secret = decoded.substr(colon + 1);
        }
      }
    }
  }
  if (!auth->enabled()) {
    return OAuthError(400, "invalid_client", "this server has no principals configured (loopback clients need no token)");
  }
  auto token = auth->IssueToken(client_id, client_secret, Clock::System().NowMillis() / 1000);
  if (!token) return OAuthError(401, "invalid_client", "unknown client_id or wrong client_secret");
  return RestReply{200,
                   json{{"access_token", *token},
                        {"token_type", "bearer"},
                        {"expires_in", auth->token_lifetime_s()},
                        {"issued_token_type", "urn:ietf:params:oauth:token-type:access_token"}}
                       .dump(),
                   {}};
}

}  // namespace floe
