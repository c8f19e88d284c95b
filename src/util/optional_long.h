// OptionalLong: an optional int64_t in 8 bytes, for fields that can never hold INT64_MIN.
//
// std::optional<int64_t> is 16 bytes (the flag is padded to the value's alignment). A data
// file carries three optional longs (first_row_id, content_offset, content_size_in_bytes) in
// every planned task, set or not; a plan of a million files held 24 MB of padding for them.
// Here the absent value is INT64_MIN, which none of those fields can hold: row ids, byte
// offsets and sizes are never negative, and decoders refuse INT64_MIN before storing it.
//
// Invariant: a held value is never INT64_MIN. Setting it throws std::invalid_argument (a
// reader decoding hostile bytes turns that into its own error) instead of silently reading
// back as absent.
//
// It reads like std::optional<int64_t>: has_value, bool, *, value, value_or, reset, emplace,
// comparisons with values, std::nullopt and std::optional, and it converts both ways to
// std::optional<int64_t>, so code written for the optional keeps working.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <stdexcept>

namespace floe {

class OptionalLong {
 public:
  static constexpr int64_t kAbsent = std::numeric_limits<int64_t>::min();

  constexpr OptionalLong() = default;
  constexpr OptionalLong(std::nullopt_t) {}                // NOLINT(google-explicit-constructor): reads like std::optional
  OptionalLong(int64_t v) : value_(Checked(v)) {}          // NOLINT
  OptionalLong(std::optional<int64_t> o) : value_(o ? Checked(*o) : kAbsent) {}  // NOLINT

  OptionalLong& operator=(std::nullopt_t) {
    reset();
    return *this;
  }
  OptionalLong& operator=(int64_t v) {
    value_ = Checked(v);
    return *this;
  }
  OptionalLong& operator=(std::optional<int64_t> o) {
    value_ = o ? Checked(*o) : kAbsent;
    return *this;
  }
  int64_t& emplace(int64_t v) {
    value_ = Checked(v);
    return value_;
  }

  constexpr bool has_value() const { return value_ != kAbsent; }
  constexpr explicit operator bool() const { return has_value(); }
  // Like std::optional's: undefined when absent (here: INT64_MIN).
  constexpr int64_t operator*() const { return value_; }
  int64_t value() const {
    if (!has_value()) throw std::bad_optional_access();
    return value_;
  }
  constexpr int64_t value_or(int64_t fallback) const { return has_value() ? value_ : fallback; }
  constexpr void reset() { value_ = kAbsent; }
  operator std::optional<int64_t>() const {  // NOLINT(google-explicit-constructor)
    return has_value() ? std::optional<int64_t>(value_) : std::nullopt;
  }

  friend constexpr bool operator==(OptionalLong a, OptionalLong b) { return a.value_ == b.value_; }
  friend constexpr bool operator==(OptionalLong a, std::nullopt_t) { return !a.has_value(); }
  friend constexpr bool operator==(OptionalLong a, int64_t v) { return a.has_value() && a.value_ == v; }
  friend bool operator==(OptionalLong a, const std::optional<int64_t>& o) {
    return o ? a == *o : !a.has_value();
  }
  // For test failures: the value, or "(none)".
  friend std::ostream& operator<<(std::ostream& os, OptionalLong o) {
    return o ? os << o.value_ : os << "(none)";
  }

 private:
  static int64_t Checked(int64_t v) {
    if (v == kAbsent) throw std::invalid_argument("the value -9223372036854775808 is out of range here");
    return v;
  }

  int64_t value_ = kAbsent;
};

}  // namespace floe
