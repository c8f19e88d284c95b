#include "cli/cli_context.h"

#include <unistd.h>

#include <cstdlib>

namespace floe::cli {

std::string CliContext::EffectiveUri() const {
  if (!catalog_uri.empty()) return catalog_uri;
  const char* env = std::getenv("FLOE_CATALOG");
  return env ? env : "";
}

Result<Connection*> CliContext::connection() {
  if (!connection_) {
    ConnectionOptions options;
    options.name = catalog_name;
    FLOE_ASSIGN_OR_RETURN(Connection opened, Connection::Open(EffectiveUri(), options));
    connection_.emplace(std::move(opened));
  }
  return &*connection_;
}

CliContext::CliContext() = default;
CliContext::~CliContext() = default;

std::optional<Table> CliContext::OpenTable(const std::string& name, int* exit_status) {
  if (auto valid = Connection::CheckTableName(name); !valid) {
    *exit_status = Usage(valid.error().message);
    return std::nullopt;
  }
  auto connection = this->connection();
  if (!connection) {
    *exit_status = Fail(connection.error());
    return std::nullopt;
  }
  auto table = (*connection)->GetTable(name);
  if (!table) {
    *exit_status = Fail(table.error());
    return std::nullopt;
  }
  return std::move(*table);
}

int ExitStatusFor(const Error& error) {
  switch (error.kind) {
    case ErrorKind::kCommitConflict:
    case ErrorKind::kValidationFailed: return kExitRefused;
    default: return kExitError;
  }
}

int CliContext::Fail(const Error& error) const {
  std::cerr << "floe: " << error.message << "\n";
  if (error.kind == ErrorKind::kCommitStateUnknown)
    std::cerr << "floe: the commit's outcome is unknown; check the table's snapshots before retrying "
                 "(an idempotency key makes a retry safe)\n";
  return ExitStatusFor(error);
}

int CliContext::Usage(const std::string& message) const {
  std::cerr << "floe: " << message << "\n";
  return kExitUsage;
}

bool CliContext::stdout_is_terminal() const { return isatty(STDOUT_FILENO) == 1; }
bool CliContext::stderr_is_terminal() const { return isatty(STDERR_FILENO) == 1; }

}  // namespace floe::cli
