#include "util/warning.h"

#include <iostream>
#include <mutex>
#include <set>

namespace floe {
namespace {

struct WarningState {
  std::mutex mu;
  std::set<std::string> seen;
  std::function<void(const std::string&)> sink;
};

WarningState& State() {
  static WarningState* state = new WarningState;  // never destroyed: warnings may come late in exit
  return *state;
}

}  // namespace

void Warn(const std::string& message) {
  WarningState& state = State();
  std::lock_guard lock(state.mu);
  if (!state.seen.insert(message).second) return;
  if (state.sink) {
    state.sink(message);
  } else {
    std::cerr << "floe: warning: " << message << "\n";
  }
}

void SetWarningSink(std::function<void(const std::string&)> sink) {
  WarningState& state = State();
  std::lock_guard lock(state.mu);
  state.sink = std::move(sink);
}

}  // namespace floe
