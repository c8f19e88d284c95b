// What every floe command shares: the catalog it talks to, output formats, exit codes.
#pragma once

#include <iostream>
#include <memory>
#include <string>

#include "catalog/catalog.h"
#include "util/result.h"

namespace floe::cli {

// Exit statuses, fixed because scripts depend on them.
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitRefused = 3;  // a conflict that outlived its retries, or a validation refusal

class CliContext {
 public:
  std::string catalog_uri;  // --catalog, else FLOE_CATALOG, else the embedded default
  std::string catalog_name = "default";

  // Opens the catalog on first use.
  Result<Catalog*> catalog();

  // Prints an error the way every command does and returns its exit status.
  int Fail(const Error& error) const;
  // A bad argument: message on stderr, exit status 2, nothing changed.
  int Usage(const std::string& message) const;

  bool stdout_is_terminal() const;
  bool stderr_is_terminal() const;

 private:
  std::unique_ptr<Catalog> catalog_;
};

// The exit status an error kind maps to.
int ExitStatusFor(const Error& error);

}  // namespace floe::cli
