#include "floe/result.h"

namespace floe {

std::string_view ErrorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kCommitConflict: return "CommitConflict";
    case ErrorKind::kValidationFailed: return "ValidationFailed";
    case ErrorKind::kCommitStateUnknown: return "CommitStateUnknown";
    case ErrorKind::kNotFound: return "NotFound";
    case ErrorKind::kAlreadyExists: return "AlreadyExists";
    case ErrorKind::kInvalidArgument: return "InvalidArgument";
    case ErrorKind::kCorrupt: return "Corrupt";
    case ErrorKind::kIOError: return "IOError";
    case ErrorKind::kUnavailable: return "Unavailable";
    case ErrorKind::kNotSupported: return "NotSupported";
  }
  return "Unknown";
}

std::string Error::ToString() const {
  return std::string(ErrorKindName(kind)) + ": " + message;
}

}  // namespace floe
