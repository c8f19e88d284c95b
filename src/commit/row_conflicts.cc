#include "commit/row_conflicts.h"

#include <algorithm>

namespace floe {
namespace {

constexpr size_t kTouchedKeysShown = 10;

}  // namespace

void RowTouch::NoteKey(const std::string& label) {
  if (keys.size() < kTouchedKeysShown && std::find(keys.begin(), keys.end(), label) == keys.end()) keys.push_back(label);
}

std::string RowTouch::Describe(const std::vector<std::string>& files) const {
  std::string out;
  if (!keys.empty()) {
    out = "rows ";
    for (size_t i = 0; i < keys.size(); ++i) out += (i ? ", " : "") + keys[i];
    out += " in ";
  }
  out += "[";
  for (size_t i = 0; i < files.size() && i < kTouchedKeysShown; ++i) out += (i ? ", " : "") + files[i];
  if (files.size() > kTouchedKeysShown) out += ", ... (" + std::to_string(files.size()) + " files)";
  out += "]";
  if (!gave_up.empty()) out += " (judged by file metrics only: " + gave_up + ")";
  return out;
}

}  // namespace floe
