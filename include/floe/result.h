// Result<T> and Error: how every fallible floe function reports failure.
//
// No exception crosses the library boundary. An Error's kind tells the caller
// what to do next (retry, reconcile, give up); its message tells a person what
// went wrong, naming the file, field or argument involved.
#pragma once

#include <expected>
#include <string>
#include <string_view>
#include <utility>

namespace floe {

enum class ErrorKind {
  kCommitConflict,      // the pointer moved: refresh, re-validate, retry
  kValidationFailed,    // the operation is wrong on the new state: never retry
  kCommitStateUnknown,  // the swap may have happened: reconcile, never clean up
  kNotFound,
  kAlreadyExists,
  kInvalidArgument,
  kCorrupt,
  kIOError,
  kUnavailable,
  kNotSupported,
};

std::string_view ErrorKindName(ErrorKind kind);

struct Error {
  ErrorKind kind;
  std::string message;

  // Prefixes context ("reading manifest s3://...: ") to the message, keeping the kind.
  Error WithContext(std::string_view context) const {
    return Error{kind, std::string(context) + ": " + message};
  }
  std::string ToString() const;
};

template <typename T>
using Result = std::expected<T, Error>;

// Result<void> is spelled Status where that reads better.
using Status = Result<void>;

inline std::unexpected<Error> MakeError(ErrorKind kind, std::string message) {
  return std::unexpected(Error{kind, std::move(message)});
}
inline std::unexpected<Error> InvalidArgument(std::string m) { return MakeError(ErrorKind::kInvalidArgument, std::move(m)); }
inline std::unexpected<Error> NotFound(std::string m) { return MakeError(ErrorKind::kNotFound, std::move(m)); }
inline std::unexpected<Error> AlreadyExists(std::string m) { return MakeError(ErrorKind::kAlreadyExists, std::move(m)); }
inline std::unexpected<Error> Corrupt(std::string m) { return MakeError(ErrorKind::kCorrupt, std::move(m)); }
inline std::unexpected<Error> IOError(std::string m) { return MakeError(ErrorKind::kIOError, std::move(m)); }
inline std::unexpected<Error> Unavailable(std::string m) { return MakeError(ErrorKind::kUnavailable, std::move(m)); }
inline std::unexpected<Error> NotSupported(std::string m) { return MakeError(ErrorKind::kNotSupported, std::move(m)); }
inline std::unexpected<Error> CommitConflict(std::string m) { return MakeError(ErrorKind::kCommitConflict, std::move(m)); }
inline std::unexpected<Error> ValidationFailed(std::string m) { return MakeError(ErrorKind::kValidationFailed, std::move(m)); }
inline std::unexpected<Error> CommitStateUnknown(std::string m) { return MakeError(ErrorKind::kCommitStateUnknown, std::move(m)); }

inline Status Ok() { return {}; }

}  // namespace floe

#define FLOE_CONCAT_INNER(a, b) a##b
#define FLOE_CONCAT(a, b) FLOE_CONCAT_INNER(a, b)

// Returns the error of a Result/Status expression from the enclosing function.
#define FLOE_RETURN_IF_ERROR(expr)                            \
  do {                                                        \
    auto&& floe_status_ = (expr);                             \
    if (!floe_status_) return std::unexpected(floe_status_.error()); \
  } while (0)

// FLOE_ASSIGN_OR_RETURN(auto x, MakeX()); binds the value or returns the error.
#define FLOE_ASSIGN_OR_RETURN(lhs, expr) \
  FLOE_ASSIGN_OR_RETURN_IMPL(FLOE_CONCAT(floe_result_, __LINE__), lhs, expr)
#define FLOE_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                               \
  if (!tmp) return std::unexpected(tmp.error());   \
  lhs = std::move(*tmp)
