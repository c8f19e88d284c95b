// `floe completion bash`: a bash completion script generated from the CLI11 app itself, so it
// always knows every command and option the binary has.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace floe::cli {

// The script: defines _floe and registers it with `complete -F _floe floe`.
std::string BashCompletionScript(const CLI::App& app);

// Adds the `completion` command; call after every other command is registered.
void RegisterCompletionCommand(CLI::App& app, int* exit_status);

}  // namespace floe::cli
