// Warnings: something floe read was not quite right but harmless, and floe went on (a metadata
// document another engine wrote with a too-low last-column-id, say). They go to standard error
// by default, each distinct message once per process, so a server that rereads the same
// document does not repeat itself; a program may route them elsewhere.
#pragma once

#include <functional>
#include <string>

namespace floe {

// Reports `message` (without a "warning:" prefix) unless the same message was reported before.
void Warn(const std::string& message);

// Where warnings go from now on; nullptr restores standard error ("floe: warning: ...").
void SetWarningSink(std::function<void(const std::string&)> sink);

}  // namespace floe
