// What every floe command shares: the catalog it talks to, output formats, exit codes.
#pragma once

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/catalog.h"
#include "floe/result.h"

namespace floe::cli {

// Exit statuses, fixed because scripts depend on them.
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitRefused = 3;  // a conflict that outlived its retries, or a validation refusal

class CliContext {
 public:
  CliContext();
  ~CliContext();
  std::string catalog_uri;  // --catalog, else FLOE_CATALOG, else the embedded default
  std::string catalog_name = "default";

  // The one place a command opens the catalog, on first use: the public API's connection
  // (include/floe), which commands built on it use.
  Result<Connection*> connection();

  // Table `name` of the connection. Prints why not (a bad name: usage) and returns nullopt with
  // *exit_status set.
  std::optional<Table> OpenTable(const std::string& name, int* exit_status);

  // A command's options, kept as long as the context: CLI11 fills them in while parsing, the
  // command's action reads them when it runs.
  template <typename Options>
  Options& Keep() {
    auto options = std::make_shared<Options>();
    kept_.push_back(options);
    return *options;
  }

  // Prints an error the way every command does and returns its exit status.
  int Fail(const Error& error) const;
  // A bad argument: message on stderr, exit status 2, nothing changed.
  int Usage(const std::string& message) const;

  bool stdout_is_terminal() const;
  bool stderr_is_terminal() const;

 private:
  std::string EffectiveUri() const;

  std::optional<Connection> connection_;
  std::vector<std::shared_ptr<void>> kept_;
};

// The exit status an error kind maps to.
int ExitStatusFor(const Error& error);

}  // namespace floe::cli
