// Times as floe's commands and time travel take them.
#pragma once

#include <cstdint>
#include <string_view>

#include "floe/result.h"

namespace floe {

// An ISO-8601 timestamp ("2026-01-01T10:00:00", "2026-01-01 10:00:00.5", UTC unless it carries
// an offset such as "+02:00") as milliseconds since the epoch. InvalidArgument saying what is
// wrong with `text` otherwise.
Result<int64_t> ParseTimestampMs(std::string_view text);

// Now, in milliseconds since the epoch (the clock floe's defaults are computed from).
int64_t NowMs();

}  // namespace floe
