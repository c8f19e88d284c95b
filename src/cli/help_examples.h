// An example line for every floe command, shown at the end of `floe COMMAND --help`.
#pragma once

#include <CLI/CLI.hpp>

namespace floe::cli {

// Sets the help footer of every command under `app` (all levels) to its example. Commands
// without one are left alone; a test fails for them.
void AddHelpExamples(CLI::App& app);

}  // namespace floe::cli
