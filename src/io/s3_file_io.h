// FileIO on S3 and S3-compatible object stores.
//
//   ReadAll / ReadRange                       GET (with Range); a small object this FileIO created
//                                             unreferenced (a manifest, a manifest list) is served
//                                             from memory
//   NewInputFile                              one GET of the object's last 64 KiB, which gives its
//                                             size too; reads inside it and inside the ranges
//                                             WillRead fetched (merged) come from memory
//                                             (s3_input_file.h)
//   Size / Exists                             HEAD
//   CreateIfAbsent                            PUT with If-None-Match: * (and Content-MD5); above
//                                             the part size, a multipart upload as below
//   NewOutputFile                             HEAD (refuses a taken name), then parts of
//                                             S3Config::part_size uploaded as they fill (one part in
//                                             memory, never the whole file), completed with
//                                             If-None-Match: *; a small file is one PUT at Close
//   ListPrefix                                ListObjectsV2, page by page
//   Delete / DeleteFiles                      DELETE (404 is success) / DeleteObjects, 1,000 a request
//
// S3 makes an object visible only when its PUT or CompleteMultipartUpload succeeds, so every
// create is atomic and "unreferenced" creates need nothing special. Create-if-absent is the
// store's own conditional write: of racing creators exactly one gets 200, the others 412.
//
// A lost answer is not a lost write (DESIGN.md invariant 9). When an attempt may have landed
// (its answer never came, or the server failed after maybe storing it) and the retry gets 412,
// the object now there is compared with ours: its ETag against the MD5 of our bytes (for a
// multipart upload, the MD5 of the parts' MD5s and "-<parts>"), or, when the store's ETags are
// not MD5s (SSE-KMS), its bytes against ours. Equal means the create succeeded. A false "ours"
// needs another writer to have created byte-identical content under the same name; metadata
// documents and manifests hold UUIDs and snapshot ids, so that cannot happen between writers.
//
// A writer killed during a multipart upload leaves only an incomplete upload: no object, nothing
// a reader or a listing sees. Its parts are billed until a bucket lifecycle rule
// (AbortIncompleteMultipartUpload) removes them; an OutputFile aborted or destroyed without
// Close aborts its upload itself.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/file_io.h"
#include "io/s3_client.h"
#include "io/s3_input_file.h"
#include "io/s3_recent_writes.h"

namespace floe {

// An object's bytes with the ETag S3 named them by.
struct S3Object {
  std::string bytes;
  std::string etag;  // quotes removed
};

class S3FileIO : public FileIO {
 public:
  explicit S3FileIO(S3Config config);
  // ResolveS3Config(properties) then the FileIO.
  static Result<std::shared_ptr<S3FileIO>> Make(const std::map<std::string, std::string>& properties);

  Result<std::unique_ptr<InputFile>> NewInputFile(std::string_view path) override;
  Result<std::string> ReadAll(std::string_view path) override;
  Result<std::string> ReadRange(std::string_view path, int64_t offset, int64_t length) override;
  Result<int64_t> Size(std::string_view path) override;
  Result<bool> Exists(std::string_view path) override;
  Status CreateIfAbsent(std::string_view path, std::string_view data) override;
  // CreateIfAbsent, and small objects' bytes are kept for reading back (s3_recent_writes.h).
  Status CreateUnreferenced(std::string_view path, std::string_view data) override;
  Result<std::unique_ptr<OutputFile>> NewOutputFile(std::string_view path) override;
  Result<std::vector<FileInfo>> ListPrefix(std::string_view prefix) override;
  Status Delete(std::string_view path) override;
  Status DeleteFiles(const std::vector<std::string>& paths) override;

  // The object's ETag (quotes removed) from one HEAD; nullopt when there is no such object.
  Result<std::optional<std::string>> ETag(std::string_view path);
  // The whole object and its ETag from one GET (never from memory: the ETag is the store's);
  // NotFound as ReadAll.
  Result<S3Object> Get(std::string_view path);
  // The ETag a CreateIfAbsent of `data` gets from S3 (the MD5 of the bytes), or "" when it would
  // be a multipart upload, whose ETag is not predictable from the bytes alone. Stores that
  // encrypt with KMS name objects otherwise: a comparison with their ETags fails, never matches
  // falsely.
  std::string ContentETag(std::string_view data) const;
  // A plain PUT that replaces the object if there is one: S3 swaps the whole object atomically
  // (a reader gets the old bytes or the new, never a mix). Outside FileIO on purpose, since no
  // table file is ever overwritten; only the storage catalog's version hint, which is a hint, is.
  // For small objects (one request).
  Status Overwrite(std::string_view path, std::string_view data);

  // Creates the bucket (for tests and set-up scripts); an existing bucket of ours is fine.
  Status CreateBucket(std::string_view bucket);

  const S3Config& config() const { return client_->config(); }
  S3RequestCounts RequestCounts() const { return client_->Counts(); }
  // How the InputFiles opened after this call merge and buffer their reads (s3_input_file.h).
  // For tests and benchmarks; call before reading.
  void SetReadCoalescing(const S3ReadCoalescing& rules) { read_rules_ = rules; }
  // Bytes of object bodies the open InputFiles hold now, and the most they held at once since
  // ResetPeakHeldReadBytes (s3_client.h).
  int64_t HeldReadBytes() const { return client_->HeldReadBytes(); }
  int64_t PeakHeldReadBytes() const { return client_->PeakHeldReadBytes(); }
  void ResetPeakHeldReadBytes() { client_->ResetPeakHeldReadBytes(); }
  // How fast this FileIO's GETs were answered (s3_client.h), which sizes its reads' gaps.
  S3ReadSpeed ReadSpeed() const { return client_->ReadSpeed(); }

 private:
  std::shared_ptr<S3Client> client_;
  S3RecentWrites recent_;
  S3ReadCoalescing read_rules_;
};

}  // namespace floe
