// Test and benchmark helpers: a throwaway catalog of each backend (header-only, not in the
// library). PostgreSQL needs FLOE_TEST_PG_URI (scripts/pg.sh starts a cluster and sets it); the
// *S3 backends need FLOE_TEST_S3_ENDPOINT (scripts/s3.sh starts moto and sets it).
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "catalog/catalog.h"
#include "catalog/rest/serve_process_for_tests.h"
#include "io/s3_test_env.h"
#include "util/uuid.h"

namespace floe::testing_env {

// kRest*: floe's REST client against a `floe serve` child process over that SQL backend.
// *S3: the same catalog with its warehouse on S3 (the storage catalog at s3://BUCKET/PREFIX).
enum class Backend { kSqlite, kPostgres, kStorage, kRestSqlite, kRestPostgres, kStorageS3, kSqliteS3, kPostgresS3 };

inline const char* BackendName(Backend b) {
  switch (b) {
    case Backend::kSqlite: return "Sqlite";
    case Backend::kPostgres: return "Postgres";
    case Backend::kStorage: return "Storage";
    case Backend::kRestSqlite: return "RestSqlite";
    case Backend::kRestPostgres: return "RestPostgres";
    case Backend::kStorageS3: return "StorageS3";
    case Backend::kSqliteS3: return "SqliteS3";
    case Backend::kPostgresS3: return "PostgresS3";
  }
  return "?";
}

inline std::string PgUri() {
  const char* uri = std::getenv("FLOE_TEST_PG_URI");
  return uri ? uri : "";
}

// A fresh folder under the system temp folder, removed by the destructor.
class TempDir {
 public:
  explicit TempDir(const std::string& label = "floe-catalog") {
    path_ = (std::filesystem::temp_directory_path() / (label + "-" + RandomUuidString().substr(0, 12))).string();
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Where one test's catalog lives: every instance opened from the same place shares its state.
struct CatalogPlace {
  Backend backend;
  std::string uri;
  std::string name;  // unique per test, so reruns against one PostgreSQL never collide
  std::string skip_reason;  // why uri is empty
  std::shared_ptr<ServeProcess> server;  // REST backends: the server, stopped with the last copy
};

// A catalog place inside `dir`; empty uri when the backend is unavailable (no PostgreSQL).
inline CatalogPlace MakePlace(Backend backend, const std::string& dir) {
  CatalogPlace place{backend, "", "t" + RandomUuidString().substr(0, 8), "", nullptr};
  switch (backend) {
    case Backend::kSqlite: place.uri = "sqlite://" + dir + "/catalog.db"; break;
    case Backend::kPostgres:
      if (!PgUri().empty()) {
        place.uri = PgUri() + (PgUri().find('?') == std::string::npos ? "?" : "&") + "warehouse=" + dir + "/warehouse";
      }
      break;
    case Backend::kStorage: place.uri = "file://" + dir + "/warehouse"; break;
    case Backend::kStorageS3:
    case Backend::kSqliteS3:
    case Backend::kPostgresS3: {
      if (!TestS3Config()) {
        place.skip_reason = kNoS3Message;
        return place;
      }
      if (!TestS3FileIO()) {
        place.skip_reason = "cannot reach the test S3 server or create its bucket";  // not a skip
        return place;
      }
      const std::string warehouse = TestS3Prefix("catalog");
      if (backend == Backend::kStorageS3) {
        place.uri = warehouse + "?" + TestS3UriParams();
      } else if (backend == Backend::kSqliteS3) {
        place.uri = "sqlite://" + dir + "/catalog.db?warehouse=" + warehouse + "&" + TestS3UriParams();
      } else if (!PgUri().empty()) {
        place.uri = PgUri() + (PgUri().find('?') == std::string::npos ? "?" : "&") + "warehouse=" + warehouse + "&" +
                    TestS3UriParams();
      }
      break;
    }
    case Backend::kRestSqlite:
    case Backend::kRestPostgres: {
      CatalogPlace backing = MakePlace(backend == Backend::kRestSqlite ? Backend::kSqlite : Backend::kPostgres, dir);
      if (backing.uri.empty()) {
        place.skip_reason = "skipped: FLOE_TEST_PG_URI not set";
        return place;
      }
#ifdef FLOE_BINARY
      if (!std::filesystem::exists(FLOE_BINARY)) {
        place.skip_reason = "skipped: no floe binary at " FLOE_BINARY " (build the floe target)";
        return place;
      }
      std::string error;
      place.server = ServeProcess::Start(FLOE_BINARY, {"--catalog", backing.uri, "--catalog-name", place.name, "serve"},
                                         &error);
      if (!place.server) {
        place.skip_reason = error;  // not a skip: the server is broken
        return place;
      }
      place.uri = place.server->url();
#else
      place.skip_reason = "skipped: no floe binary known to this test target";
#endif
      break;
    }
  }
  if (place.uri.empty() && place.skip_reason.empty()) place.skip_reason = "skipped: FLOE_TEST_PG_URI not set";
  return place;
}

inline Result<std::unique_ptr<Catalog>> OpenPlace(const CatalogPlace& place) {
  CatalogOptions options;
  options.name = place.name;
  return OpenCatalog(place.uri, options);
}

inline Schema SimpleSchema() {
  return Schema(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "data", Type::String(), false, ""}});
}

}  // namespace floe::testing_env
