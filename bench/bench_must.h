// What a benchmark does with an error it cannot go on after: print it on standard error after
// the program's name, and exit 1. A benchmark has no caller to hand an error to.
#pragma once

#include <errno.h>  // program_invocation_short_name (glibc)

#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

#include "floe/result.h"

namespace floe::bench {

[[noreturn]] inline void Die(const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", program_invocation_short_name, message.c_str());
  std::exit(1);
}
[[noreturn]] inline void Die(const Error& error) { Die(error.ToString()); }

// The value of a Result (nothing for a Status), or the end of the run.
template <typename R>
auto Must(R r) {
  if (!r) Die(r.error());
  if constexpr (!std::is_void_v<typename R::value_type>) return std::move(*r);
}

}  // namespace floe::bench
