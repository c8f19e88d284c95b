#include "io/s3_http.h"

#include <curl/curl.h>

#include <algorithm>
#include <cstring>

namespace floe {
namespace {

struct Upload {
  std::string_view body;
  size_t offset = 0;
};

size_t ReadBody(char* buffer, size_t size, size_t count, void* user) {
  auto* upload = static_cast<Upload*>(user);
  size_t n = std::min(size * count, upload->body.size() - upload->offset);
  std::memcpy(buffer, upload->body.data() + upload->offset, n);
  upload->offset += n;
  return n;
}

// Where a body goes: the response's string, or the request's sink for a 2xx answer.
struct Download {
  HttpResponse* response;
  const HttpBodySink* sink;
  bool stopped = false;  // the sink said stop
};

size_t WriteBody(char* data, size_t size, size_t count, void* user) {
  auto* download = static_cast<Download*>(user);
  const long status = download->response->status;
  if (*download->sink && status >= 200 && status < 300) {
    if (!(*download->sink)(*download->response, std::string_view(data, size * count))) {
      download->stopped = true;
      return 0;  // curl ends the transfer with CURLE_WRITE_ERROR
    }
    return size * count;
  }
  download->response->body.append(data, size * count);
  return size * count;
}

// The status line's code, so that a body sink knows what kind of answer it receives before
// curl_easy_perform returns.
long StatusOf(std::string_view line) {
  size_t space = line.find(' ');
  if (space == std::string_view::npos) return 0;
  long code = 0;
  for (size_t i = space + 1; i < line.size() && i < space + 4; ++i) {
    if (line[i] < '0' || line[i] > '9') return 0;
    code = code * 10 + (line[i] - '0');
  }
  return code;
}

size_t WriteHeader(char* data, size_t size, size_t count, void* user) {
  std::string_view line(data, size * count);
  auto* response = static_cast<HttpResponse*>(user);
  HttpHeaders* headers = &response->headers;
  if (line.starts_with("HTTP/")) {  // a new response (after 100 Continue)
    headers->clear();
    response->status = StatusOf(line);
  }
  size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    std::string name(line.substr(0, colon));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) {
      value.remove_suffix(1);
    }
    headers->emplace_back(std::move(name), std::string(value));
  }
  return size * count;
}

std::once_flag global_init;

}  // namespace

const std::string* HttpResponse::Header(std::string_view lower_name) const {
  for (const auto& [name, value] : headers) {
    if (name == lower_name) return &value;
  }
  return nullptr;
}

HttpClient::HttpClient(HttpOptions options) : options_(options) {
  std::call_once(global_init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

HttpClient::~HttpClient() {
  for (void* handle : idle_) curl_easy_cleanup(static_cast<CURL*>(handle));
}

void* HttpClient::Take() {
  {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      void* handle = idle_.back();
      idle_.pop_back();
      return handle;
    }
  }
  return curl_easy_init();
}

void HttpClient::Give(void* handle) {
  std::lock_guard lock(mutex_);
  if (idle_.size() < options_.max_idle) {
    idle_.push_back(handle);
  } else {
    curl_easy_cleanup(static_cast<CURL*>(handle));
  }
}

HttpResponse HttpClient::Send(const HttpRequest& request) {
  HttpResponse response;
  CURL* curl = static_cast<CURL*>(Take());
  if (curl == nullptr) {
    response.transport_error = "cannot create an HTTP handle";
    response.maybe_sent = false;
    return response;
  }
  curl_easy_reset(curl);  // keeps the live connections
  Upload upload{request.body};
  curl_slist* headers = nullptr;
  for (const auto& [name, value] : request.headers) {
    headers = curl_slist_append(headers, (name + ": " + value).c_str());
  }
  // No "Expect: 100-continue": it costs a round trip per upload.
  headers = curl_slist_append(headers, "Expect:");
  const bool has_body = request.method == "PUT" || request.method == "POST";
  if (has_body && request.body.empty()) headers = curl_slist_append(headers, "Content-Type:");

  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout_ms));
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, std::max(1L, static_cast<long>(options_.stall_timeout_ms / 1000)));
  Download download{&response, &request.body_sink};
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, WriteBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &download);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, WriteHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response);
  if (request.method == "HEAD") {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else if (has_body) {
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);  // PUT, renamed below for POST
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, ReadBody);
    curl_easy_setopt(curl, CURLOPT_READDATA, &upload);
    curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    if (request.method == "POST") curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, "POST");
  } else if (request.method != "GET") {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }

  CURLcode code = curl_easy_perform(curl);
  curl_off_t first_byte = 0, total = 0, downloaded = 0;
  curl_easy_getinfo(curl, CURLINFO_STARTTRANSFER_TIME_T, &first_byte);
  curl_easy_getinfo(curl, CURLINFO_TOTAL_TIME_T, &total);
  curl_easy_getinfo(curl, CURLINFO_SIZE_DOWNLOAD_T, &downloaded);
  response.first_byte_us = static_cast<int64_t>(first_byte);
  response.total_us = static_cast<int64_t>(total);
  response.body_bytes = static_cast<int64_t>(downloaded);
  if (code == CURLE_OK) {
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  } else {
    response.status = 0;
    response.headers.clear();
    response.body.clear();
    response.transport_error = download.stopped ? "the reader stopped the transfer" : curl_easy_strerror(code);
    response.maybe_sent = !(code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST ||
                            code == CURLE_COULDNT_RESOLVE_PROXY);
  }
  curl_slist_free_all(headers);
  Give(curl);
  return response;
}

}  // namespace floe
