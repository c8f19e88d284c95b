#include "io/s3_config.h"

#include <cstdlib>
#include <fstream>

namespace floe {
namespace {

using Section = std::map<std::string, std::string>;

std::string Strip(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

// The `key = value` lines of section `wanted` of an INI-style AWS file (nested blocks such as
// "s3 =\n  endpoint_url = ..." are skipped). An unreadable or missing file gives nothing.
Section ReadSection(const std::string& file, const std::string& wanted) {
  Section out;
  std::ifstream in(file);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    std::string text = Strip(line);
    if (text.empty() || text[0] == '#' || text[0] == ';') continue;
    if (text.front() == '[' && text.back() == ']') {
      inside = Strip(std::string_view(text).substr(1, text.size() - 2)) == wanted;
      continue;
    }
    if (!inside || line[0] == ' ' || line[0] == '\t') continue;
    size_t eq = text.find('=');
    if (eq == std::string::npos) continue;
    out[Strip(std::string_view(text).substr(0, eq))] = Strip(std::string_view(text).substr(eq + 1));
  }
  return out;
}

std::optional<std::string> NonEmpty(const std::optional<std::string>& value) {
  if (value && !value->empty()) return value;
  return std::nullopt;
}

std::optional<std::string> Get(const std::map<std::string, std::string>& m, const std::string& key) {
  auto it = m.find(key);
  if (it == m.end() || it->second.empty()) return std::nullopt;
  return it->second;
}

bool IsIpOrLocalhost(std::string_view host) {
  if (host == "localhost" || host.ends_with(".localhost") || host.starts_with('[')) return true;
  return !host.empty() && host.find_first_not_of("0123456789.") == std::string_view::npos;
}

Result<std::string> CheckEndpoint(std::string endpoint, const std::string& from) {
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  size_t sep = endpoint.find("://");
  std::string scheme = sep == std::string::npos ? "" : endpoint.substr(0, sep);
  std::string host = sep == std::string::npos ? "" : endpoint.substr(sep + 3);
  if ((scheme != "http" && scheme != "https") || host.empty() || host.find('/') != std::string::npos) {
    return InvalidArgument("S3 endpoint '" + endpoint + "' (from " + from +
                           ") is not of the form http(s)://host[:port]");
  }
  return endpoint;
}

}  // namespace

std::optional<std::string> ProcessEnv(std::string_view name) {
  const char* value = std::getenv(std::string(name).c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

bool IsS3Property(std::string_view name) { return name.starts_with("s3."); }

std::string S3Config::Describe() const {
  return "endpoint " + endpoint + (path_style ? " (path-style)" : " (virtual-hosted)") + ", region " + region +
         ", access key id " + (credentials.access_key_id.empty() ? "(none)" : credentials.access_key_id);
}

Result<S3Config> ResolveS3Config(const std::map<std::string, std::string>& properties, const EnvLookup& env) {
  auto var = [&](std::string_view name) { return NonEmpty(env(name)); };
  const std::string profile = var("AWS_PROFILE").value_or("default");
  std::string home = var("HOME").value_or("");
  const std::string credentials_file =
      var("AWS_SHARED_CREDENTIALS_FILE").value_or(home.empty() ? "" : home + "/.aws/credentials");
  const std::string config_file = var("AWS_CONFIG_FILE").value_or(home.empty() ? "" : home + "/.aws/config");
  Section creds = credentials_file.empty() ? Section{} : ReadSection(credentials_file, profile);
  Section conf = config_file.empty() ? Section{}
                                     : ReadSection(config_file, profile == "default" ? profile : "profile " + profile);
  auto profile_value = [&](const std::string& key) {
    if (auto v = Get(creds, key)) return v;
    return Get(conf, key);
  };

  S3Config config;
  if (auto region = Get(properties, "s3.region")) {
    config.region = *region;
  } else if (auto r = var("AWS_REGION")) {
    config.region = *r;
  } else if (auto d = var("AWS_DEFAULT_REGION")) {
    config.region = *d;
  } else if (auto p = profile_value("region")) {
    config.region = *p;
  }

  std::optional<std::string> endpoint;
  std::string from;
  if ((endpoint = Get(properties, "s3.endpoint"))) {
    from = "s3.endpoint";
  } else if ((endpoint = var("AWS_ENDPOINT_URL_S3"))) {
    from = "AWS_ENDPOINT_URL_S3";
  } else if ((endpoint = var("AWS_ENDPOINT_URL"))) {
    from = "AWS_ENDPOINT_URL";
  } else if ((endpoint = profile_value("endpoint_url"))) {
    from = "profile " + profile + " endpoint_url";
  }
  if (endpoint) {
    FLOE_ASSIGN_OR_RETURN(config.endpoint, CheckEndpoint(*endpoint, from));
  } else {
    config.endpoint = "https://s3." + config.region + ".amazonaws.com";
  }

  auto key_id = Get(properties, "s3.access-key-id");
  auto secret = Get(properties, "s3.secret-access-key");
  if (key_id || secret) {
    if (!key_id || !secret) {
      return InvalidArgument(std::string("S3 credentials: ") + (key_id ? "s3.access-key-id" : "s3.secret-access-key") +
                             " is set without " + (key_id ? "s3.secret-access-key" : "s3.access-key-id"));
    }
    config.credentials = {*key_id, *secret, Get(properties, "s3.session-token").value_or("")};
  } else if (auto env_id = var("AWS_ACCESS_KEY_ID")) {
    auto env_secret = var("AWS_SECRET_ACCESS_KEY");
    if (!env_secret) return InvalidArgument("S3 credentials: AWS_ACCESS_KEY_ID is set without AWS_SECRET_ACCESS_KEY");
    config.credentials = {*env_id, *env_secret, var("AWS_SESSION_TOKEN").value_or("")};
  } else if (auto p_id = profile_value("aws_access_key_id")) {
    auto p_secret = profile_value("aws_secret_access_key");
    if (!p_secret) {
      return InvalidArgument("S3 credentials: profile " + profile + " has aws_access_key_id without aws_secret_access_key");
    }
    config.credentials = {*p_id, *p_secret, profile_value("aws_session_token").value_or("")};
  }

  std::string host = config.endpoint.substr(config.endpoint.find("://") + 3);
  if (host.starts_with('[')) {
    host = host.substr(0, host.find(']') + 1);
  } else {
    host = host.substr(0, host.find(':'));
  }
  config.path_style = IsIpOrLocalhost(host);
  if (auto style = Get(properties, "s3.path-style-access")) {
    if (*style != "true" && *style != "false") {
      return InvalidArgument("s3.path-style-access must be true or false, not '" + *style + "'");
    }
    config.path_style = *style == "true";
  }
  return config;
}

}  // namespace floe
