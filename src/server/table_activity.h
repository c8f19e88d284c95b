// The last hour of commit activity per table, a minute per slot: commits that landed, conflicts
// (requirements that failed), server-side retries. The web view plots it.
//
// Bounded: a ring of 60 slots per table and at most `max_tables` tables (the oldest-touched
// table is dropped first). Thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <list>
#include <map>
#include <mutex>
#include <string>

namespace floe {

enum class ActivityKind { kLanded = 0, kConflict = 1, kRetry = 2 };
inline constexpr size_t kActivityKinds = 3;
inline constexpr size_t kActivityMinutes = 60;

struct ActivitySeries {
  // counts[kind][i]: events in minute i of the hour ending at the minute asked for (i = 59 is
  // that minute itself).
  std::array<std::array<int64_t, kActivityMinutes>, kActivityKinds> counts{};
};

class TableActivity {
 public:
  explicit TableActivity(size_t max_tables = 1000) : max_tables_(max_tables) {}

  void Record(const std::string& table, ActivityKind kind, int64_t now_ms, int64_t count = 1);
  // The hour ending at `now_ms`; all zero for a table never recorded.
  ActivitySeries LastHour(const std::string& table, int64_t now_ms) const;

 private:
  struct Ring {
    std::array<std::array<int64_t, kActivityMinutes>, kActivityKinds> counts{};
    std::array<int64_t, kActivityMinutes> minute_of_slot{};  // which minute each slot holds
    std::list<std::string>::iterator age;
  };
  const size_t max_tables_;
  mutable std::mutex mu_;
  std::map<std::string, Ring> tables_;
  std::list<std::string> touched_;  // most recently touched first
};

}  // namespace floe
