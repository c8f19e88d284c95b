// The storage catalog's pointer (storage_catalog.h draws the layout): finding a table's
// current version, and what a commit leaves for the next one to start from.
//
// Where a load starts, cheapest first:
//   - a version this catalog committed or found, with its ETag: two HEADs at once (is v<N>
//     still that object, does v<N+1> exist); the cached document is then the table;
//   - a version a refused create proved to exist (another writer created the v<N+1> this
//     catalog's commit wanted, DocumentTaken), whose ETag is not known: one GET of it, which
//     gives its ETag and parses it into the cache, at once with the HEAD of v<N+2>. A writer
//     that lost a race pays one round trip to learn the winner's document, where a hint read,
//     the probes and then a GET of the document cost three;
//   - the version hint: a GET, then the two HEADs;
//   - no hint, or a wrong one: the listing.
// From any of them a load walks forward, HEAD by HEAD, while newer versions exist.
#include <future>

#include "catalog/storage/storage_catalog.h"
#include "catalog/storage/storage_layout.h"
#include "io/s3_file_io.h"
#include "table_files/metadata_location.h"

namespace floe {

Result<std::optional<std::string>> StorageCatalog::Probe(const std::string& path) {
  if (s3_) return s3_->ETag(path);
  FLOE_ASSIGN_OR_RETURN(bool exists, io_->Exists(path));
  return exists ? std::optional<std::string>("") : std::nullopt;
}

Result<std::optional<std::string>> StorageCatalog::FetchDocument(const std::string& path) {
  auto object = s3_->Get(path);
  if (!object && object.error().kind == ErrorKind::kNotFound) return std::nullopt;
  FLOE_RETURN_IF_ERROR(object);
  // Whatever the cache held under this name is not known to be this object. A document that
  // does not parse stays out: the caller's own read of it reports the error.
  cache_.Erase(path);
  const std::string& bytes = object->bytes;
  const bool gzipped = bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
                       static_cast<unsigned char>(bytes[1]) == 0x8b;
  if (!gzipped) (void)cache_.ParseAndInsert(path, std::move(object->bytes));
  return std::optional<std::string>(std::move(object->etag));
}

Result<std::optional<StorageCatalog::KnownVersion>> StorageCatalog::WalkForward(const TableIdentifier& id,
                                                                                int64_t from, std::string etag) {
  constexpr int64_t kMaxWalk = 64;
  const std::string metadata = TableFolder(id) + "/metadata/";
  for (int64_t v = from; v < from + kMaxWalk; ++v) {
    FLOE_ASSIGN_OR_RETURN(auto next, Probe(metadata + "v" + std::to_string(v + 1) + ".metadata.json"));
    if (!next) return KnownVersion{v, metadata + "v" + std::to_string(v) + ".metadata.json", std::move(etag)};
    etag = std::move(*next);
  }
  return std::nullopt;
}

std::string StorageCatalog::Settle(const TableIdentifier& id, KnownVersion found,
                                   const std::optional<KnownVersion>& before) {
  if (!s3_) return found.location;
  const bool same = before && before->location == found.location && before->etag == found.etag;
  // v<N> may have been dropped and written again by another table of this name.
  if (!same) cache_.Erase(found.location);
  std::string location = found.location;
  if (found.etag.empty()) {
    Forget(id);
  } else {
    std::lock_guard lock(known_mu_);
    known_[id] = std::move(found);
  }
  return location;
}

std::optional<StorageCatalog::KnownVersion> StorageCatalog::Known(const TableIdentifier& id) {
  std::lock_guard lock(known_mu_);
  auto it = known_.find(id);
  if (it == known_.end()) return std::nullopt;
  return it->second;
}

void StorageCatalog::Forget(const TableIdentifier& id) {
  std::lock_guard lock(known_mu_);
  known_.erase(id);
}

void StorageCatalog::DocumentTaken(const TableIdentifier& id, const std::string& location) {
  if (!s3_) return;
  const int64_t version = ParseMetadataVersion(location);
  if (version <= 0) return;
  std::lock_guard lock(known_mu_);
  auto it = known_.find(id);
  if (it != known_.end() && it->second.version >= version) return;
  known_[id] = KnownVersion{version, location, ""};
}

void StorageCatalog::AfterCommit(const TableIdentifier& id, const std::string* landed_location) {
  if (!s3_) return;
  if (!landed_location) {
    // What the failed commit started from may be stale: the next one asks. A version a
    // refused create proved to exist (DocumentTaken) is where the next load starts.
    std::lock_guard lock(known_mu_);
    auto it = known_.find(id);
    if (it != known_.end() && !it->second.etag.empty()) known_.erase(it);
    return;
  }
  // Our own bytes: the cache kept the text the commit wrote, and S3 names it by its MD5.
  auto text = cache_.FindText(*landed_location);
  std::string etag = text ? s3_->ContentETag(text->text) : "";
  if (etag.empty()) return Forget(id);
  std::lock_guard lock(known_mu_);
  known_[id] = KnownVersion{ParseMetadataVersion(*landed_location), *landed_location, std::move(etag)};
}

Result<std::string> StorageCatalog::CurrentMetadataLocation(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(CheckName(id.ns, &id.name));
  const std::string metadata = TableFolder(id) + "/metadata/";
  auto version_path = [&](int64_t v) { return metadata + "v" + std::to_string(v) + ".metadata.json"; };
  // Where to start: the version this catalog saw last, else the hint. On an object store a
  // listing costs more than a few HEADs and grows with the table's history. What exists decides.
  const std::optional<KnownVersion> known = Known(id);
  int64_t start = known ? known->version : -1;
  if (!known) {
    auto hint_text = io_->ReadAll(metadata + kVersionHint);
    if (!hint_text && hint_text.error().kind != ErrorKind::kNotFound) return std::unexpected(hint_text.error());
    start = hint_text ? ParseVersionHint(*hint_text) : -1;
  }
  if (start > 0) {
    // Whether v<start> (still with the ETag we know) and v<start+1> exist, asked at once. A
    // version known to exist but not by its ETag (another writer's, which took the name our
    // commit wanted) is read whole instead: its document is what the caller reads next.
    const bool fetch = known && known->etag.empty();
    auto next = std::async(std::launch::async, [&] { return Probe(version_path(start + 1)); });
    auto at_start = fetch ? FetchDocument(version_path(start)) : Probe(version_path(start));
    auto after_start = next.get();
    FLOE_RETURN_IF_ERROR(at_start);
    FLOE_RETURN_IF_ERROR(after_start);
    const bool start_holds = at_start->has_value() && (fetch || !known || **at_start == known->etag);
    // What the cache holds for v<start> now is that object.
    std::optional<KnownVersion> before = known;
    if (fetch && start_holds) before = KnownVersion{start, version_path(start), **at_start};
    if (start_holds && !after_start->has_value()) return Settle(id, {start, version_path(start), **at_start}, before);
    if (start_holds) {
      // Commits landed since (or the hint lags behind them): walk forward while versions exist.
      FLOE_ASSIGN_OR_RETURN(auto newest, WalkForward(id, start + 1, **after_start));
      if (newest) return Settle(id, std::move(*newest), before);
    }
    if (known && !start_holds) {
      // Not the document we knew: the table was dropped (and maybe created again).
      Forget(id);
      cache_.Erase(known->location);
    }
  }
  // No hint, a wrong one (v<hint> is missing: a dropped and re-created table, or a gzipped
  // document), or one far behind: the listing decides.
  FLOE_ASSIGN_OR_RETURN(auto files, io_->ListPrefix(metadata + "v"));
  int64_t best = -1;
  std::string location;
  for (const auto& f : files) {
    int64_t v = TableVersionOf(BaseName(f.path));
    if (v > best) {
      best = v;
      location = f.path;
    }
  }
  if (best < 0) return TableNotFound(id.ToString());
  if (s3_ && location == version_path(best)) {
    FLOE_ASSIGN_OR_RETURN(auto etag, Probe(location));
    if (etag) return Settle(id, {best, location, *etag}, std::nullopt);
  }
  if (s3_) cache_.Erase(location);  // a name not remembered: what the cache holds may be older
  return location;
}

Result<std::string> StorageCatalog::CommitBaseLocation(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(CheckName(id.ns, &id.name));
  // The conditional create of v<N+1> is the check that v<N> is still current.
  if (auto known = Known(id)) return known->location;
  return CurrentMetadataLocation(id);
}

Result<std::string> StorageCatalog::NewMetadataLocation(const TableIdentifier& id, const TableMetadata& next,
                                                        const std::string& base_location) {
  int64_t version = 1;
  if (!base_location.empty()) {
    int64_t base = ParseMetadataVersion(base_location);
    if (base < 0) return Corrupt("current metadata file " + base_location + " has no version number");
    version = base + 1;
  }
  // Always the catalog's own folder: the version sequence there is the pointer, whatever
  // write.metadata.path says.
  return TableFolder(id) + "/metadata/v" + std::to_string(version) + ".metadata.json";
}

Status StorageCatalog::SwapPointer(const PointerSwap& swap) {
  // The document's create-if-absent was the swap. The hint is for other engines and for cold
  // loads only, and a failure to write it changes nothing about the commit.
  std::string hint = TableFolder(swap.id) + "/metadata/" + kVersionHint;
  std::string text = std::to_string(ParseMetadataVersion(swap.new_location));
  if (s3_) {
    // One plain PUT replaces it atomically; in the background, so that the commit's answer
    // does not wait for it. One at a time, so that this catalog's hints land in order.
    std::lock_guard lock(hint_mu_);
    if (hint_write_.valid()) hint_write_.wait();
    hint_write_ = std::async(std::launch::async, [s3 = s3_, hint = std::move(hint), text = std::move(text)] {
      (void)s3->Overwrite(hint, text);
    });
    return Ok();
  }
  // FileIO never overwrites: deleted and created again.
  (void)io_->Delete(hint);
  (void)io_->CreateIfAbsent(hint, text);
  return Ok();
}

void StorageCatalog::WaitForHintWrite() {
  std::lock_guard lock(hint_mu_);
  if (hint_write_.valid()) hint_write_.wait();
}

Status StorageCatalog::SwapPointers(const std::vector<PointerSwap>& swaps) {
  if (swaps.size() == 1) return SwapPointer(swaps[0]);
  return NotSupported("a storage catalog cannot commit several tables atomically");
}

}  // namespace floe
