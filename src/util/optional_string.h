// OptionalString: an optional string of one pointer, for fields that are almost always absent.
//
// std::optional<std::string> is 40 bytes wherever it sits, set or not; a manifest entry has two
// such fields (key_metadata, and referenced_data_file, set only on delete files) and a plan of a
// million data files would hold 80 MB of them, all empty. This one is 8 bytes: null when absent,
// else a pointer to its string on the heap (one allocation when set). It reads like
// std::optional<std::string>: has_value, bool, *, ->, value, value_or, reset, comparisons, and
// assignment from a string, std::nullopt or a std::optional<std::string>.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace floe {

class OptionalString {
 public:
  OptionalString() = default;
  OptionalString(std::nullopt_t) {}  // NOLINT(google-explicit-constructor): reads like std::optional
  OptionalString(std::string s) : value_(std::make_unique<std::string>(std::move(s))) {}  // NOLINT
  OptionalString(const char* s) : OptionalString(std::string(s)) {}                         // NOLINT
  OptionalString(const std::optional<std::string>& o) {                                     // NOLINT
    if (o) value_ = std::make_unique<std::string>(*o);
  }
  OptionalString(std::optional<std::string>&& o) {  // NOLINT
    if (o) value_ = std::make_unique<std::string>(std::move(*o));
  }
  OptionalString(const OptionalString& other) { *this = other; }
  OptionalString(OptionalString&&) noexcept = default;
  OptionalString& operator=(const OptionalString& other) {
    if (this == &other) return *this;
    if (other.value_) {
      *this = *other.value_;
    } else {
      reset();
    }
    return *this;
  }
  OptionalString& operator=(OptionalString&&) noexcept = default;
  OptionalString& operator=(std::nullopt_t) {
    reset();
    return *this;
  }
  // Into the string already held when there is one: a decoder refilling a reused entry does
  // not allocate again.
  OptionalString& operator=(std::string_view s) {
    if (value_) {
      value_->assign(s);
    } else {
      value_ = std::make_unique<std::string>(s);
    }
    return *this;
  }
  OptionalString& operator=(std::string&& s) {
    if (value_) {
      *value_ = std::move(s);
    } else {
      value_ = std::make_unique<std::string>(std::move(s));
    }
    return *this;
  }
  OptionalString& operator=(const std::string& s) { return *this = std::string_view(s); }
  OptionalString& operator=(const char* s) { return *this = std::string_view(s); }
  OptionalString& operator=(std::optional<std::string> o) {
    if (o) return *this = std::move(*o);
    reset();
    return *this;
  }

  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  const std::string& operator*() const { return *value_; }
  std::string& operator*() { return *value_; }
  const std::string* operator->() const { return value_.get(); }
  std::string* operator->() { return value_.get(); }
  const std::string& value() const {
    if (!value_) throw std::bad_optional_access();
    return *value_;
  }
  std::string value_or(std::string_view fallback) const { return value_ ? *value_ : std::string(fallback); }
  void reset() { value_.reset(); }
  std::optional<std::string> ToOptional() const {
    return value_ ? std::optional<std::string>(*value_) : std::nullopt;
  }

  friend bool operator==(const OptionalString& a, const OptionalString& b) {
    if (!a.value_ || !b.value_) return !a.value_ && !b.value_;
    return *a.value_ == *b.value_;
  }
  friend bool operator==(const OptionalString& a, std::nullopt_t) { return !a.value_; }
  // For test failures: the string, or "(none)".
  friend std::ostream& operator<<(std::ostream& os, const OptionalString& o) {
    return o ? os << '"' << *o << '"' : os << "(none)";
  }

 private:
  std::unique_ptr<std::string> value_;
};

}  // namespace floe
