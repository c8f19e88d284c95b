// Catalog instances for concurrent requests. A SQL catalog runs one statement at a time on its
// connection, so the server keeps several and lends one to each request; they are opened on
// demand and kept for reuse. All of them open the same URI, so they share one database and
// the server holds no state of its own.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "table_files/metadata_cache.h"

namespace floe {

class CatalogPool {
 public:
  // The pool's catalogs share one metadata cache: a document one of them wrote or parsed is not
  // parsed again by the next request, and the cache's memory bound holds for the whole server.
  CatalogPool(std::string uri, CatalogOptions options) : uri_(std::move(uri)), options_(std::move(options)) {
    if (!options_.metadata_cache) options_.metadata_cache = std::make_shared<MetadataCache>();
  }

  // The parsed documents (and texts of written ones) every catalog of the pool shares.
  const std::shared_ptr<MetadataCache>& metadata_cache() const { return options_.metadata_cache; }

  // A catalog lent for the lease's lifetime.
  class Lease {
   public:
    Lease(CatalogPool* pool, std::unique_ptr<Catalog> catalog) : pool_(pool), catalog_(std::move(catalog)) {}
    Lease(Lease&&) = default;
    Lease& operator=(Lease&&) = default;
    ~Lease() {
      if (pool_ && catalog_) pool_->Return(std::move(catalog_));
    }
    Catalog& operator*() const { return *catalog_; }
    Catalog* operator->() const { return catalog_.get(); }

   private:
    CatalogPool* pool_;
    std::unique_ptr<Catalog> catalog_;
  };

  Result<Lease> Acquire() {
    {
      std::lock_guard lock(mu_);
      if (!idle_.empty()) {
        auto catalog = std::move(idle_.back());
        idle_.pop_back();
        return Lease(this, std::move(catalog));
      }
    }
    FLOE_ASSIGN_OR_RETURN(auto catalog, OpenCatalog(uri_, options_));
    return Lease(this, std::move(catalog));
  }

 private:
  void Return(std::unique_ptr<Catalog> catalog) {
    std::lock_guard lock(mu_);
    idle_.push_back(std::move(catalog));
  }

  std::string uri_;
  CatalogOptions options_;
  std::mutex mu_;
  std::vector<std::unique_ptr<Catalog>> idle_;
};

}  // namespace floe
