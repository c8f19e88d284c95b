#include "cli/cli_context.h"

#include <unistd.h>

#include <cstdlib>

namespace floe::cli {

Result<Catalog*> CliContext::catalog() {
  if (!catalog_) {
    std::string uri = catalog_uri;
    if (uri.empty()) {
      if (const char* env = std::getenv("FLOE_CATALOG")) uri = env;
    }
    CatalogOptions options;
    options.name = catalog_name;
    FLOE_ASSIGN_OR_RETURN(catalog_, OpenCatalog(uri, options));
  }
  return catalog_.get();
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
