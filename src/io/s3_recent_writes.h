// The bytes of small objects this process created under fresh names (manifests, manifest
// lists), so that reading them back costs no request.
//
// A commit reads the manifest list of its base; when the base is this process's previous
// commit, that list is one it just wrote. Such an object's name is a fresh UUID, created once
// and never overwritten (DESIGN.md invariant 1), so its bytes cannot differ from what S3 holds.
// The one difference: another process may delete it (expiry, orphan removal); a reader then
// still gets the bytes the object had, as if it had read it a moment earlier. Deleting through
// this FileIO forgets the object.
//
// Bounded: objects up to kMaxObjectBytes, kMaxBytes in all, the oldest dropped first.
// Thread-safe.
#pragma once

#include <cstddef>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace floe {

class S3RecentWrites {
 public:
  static constexpr size_t kMaxObjectBytes = size_t{1} << 20;
  static constexpr size_t kMaxBytes = size_t{16} << 20;

  void Remember(std::string_view path, std::string_view bytes);
  std::optional<std::string> Find(std::string_view path) const;
  void Forget(std::string_view path);

 private:
  struct Entry {
    std::string path;
    std::string bytes;
  };
  mutable std::mutex mu_;
  std::list<Entry> entries_;  // newest first
  std::unordered_map<std::string, std::list<Entry>::iterator> by_path_;
  size_t bytes_ = 0;
};

}  // namespace floe
