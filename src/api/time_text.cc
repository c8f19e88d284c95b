#include "floe/time_text.h"

#include "types/temporal.h"
#include "util/clock.h"

namespace floe {

Result<int64_t> ParseTimestampMs(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(int64_t micros, ParseTimestamp(text, 1000000));
  return micros / 1000;
}

int64_t NowMs() { return NowMillis(); }

}  // namespace floe
