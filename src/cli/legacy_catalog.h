// The catalog as floe's internal Catalog, for the commands not yet built on include/floe alone
// (docs/library.md, "The floe command stands on this API", lists them). It is opened where the
// public connection is (CliContext), from the same --catalog; a command uses one or the other.
// A file that includes this header is not on the public surface (see FLOE_CLI_PUBLIC_SOURCES).
#pragma once

#include "catalog/catalog.h"
#include "cli/cli_context.h"

namespace floe::cli {

Result<Catalog*> LegacyCatalog(CliContext& ctx);

}  // namespace floe::cli
