#!/usr/bin/env bash
# Runs Iceberg's REST Compatibility Kit (Iceberg Java 1.11.0's own catalog tests) against
# `floe serve`: the check that a real client's expectations of the REST catalog hold.
#
#   run_rck.sh FLOE_BINARY sqlite [WHAT]   a fresh SQLite catalog, the warehouse in a local folder
#   run_rck.sh FLOE_BINARY pg-s3 [WHAT]    PostgreSQL (FLOE_TEST_PG_URI, a catalog name of its
#                                          own), the warehouse in moto's S3 (FLOE_TEST_S3_ENDPOINT)
# WHAT is `kit` (the default: the compatibility kit) or `lost-answer` (LostAnswer.java beside
# this script: Iceberg Java's client retrying with its Idempotency-Key after a lost answer).
#
# Needs FLOE_PEERS_JAVA_JARS (scripts/peers.sh); without it (or, for pg-s3, without the
# services) it prints "skipped: ..." and exits 77, which CMake's SKIP_RETURN_CODE reports
# as a skip. Extra arguments for JUnit's console launcher may follow in RCK_ARGS
# (e.g. RCK_ARGS='--select-method org.apache.iceberg.rest.RESTCompatibilityKitCatalogTests#testCreateTable').
#
# What runs: RESTCompatibilityKitCatalogTests (the kit's table and namespace tests) and
# RESTCompatibilityKitViewCatalogTests (its view tests, with their exact messages). Not run:
#   - on pg-s3, testLoadTableWithMissingMetadataFile: it moves the table's metadata document
#     with java.nio.file.Files.move, which works only on a local disk (the kit's limit, not
#     floe's: the same test passes on the sqlite backend).
# The kit itself skips what floe does not claim: nested namespaces, names with '.' or '/',
# empty-namespace corner cases, and createTableInUniqueLocation (needs its own server).
# The kit is destructive (it drops the namespaces it uses), so it always gets a catalog of
# its own: a new SQLite file, or a new catalog name in the shared PostgreSQL database.
set -euo pipefail

floe="${1:?usage: run_rck.sh FLOE_BINARY sqlite|pg-s3 [kit|lost-answer]}"
backend="${2:-sqlite}"
what="${3:-kit}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
skip() { echo "skipped: $*"; exit 77; }

jars="${FLOE_PEERS_JAVA_JARS:-}"
[[ -n "$jars" && -d "$jars" ]] || skip "no peers (FLOE_PEERS_JAVA_JARS is not set; bash scripts/peers.sh)"
command -v java >/dev/null || skip "no peers (java is not installed)"

work="$(mktemp -d /tmp/floe-rck.XXXXXX)"
server_pids=()
cleanup() {
  local pid
  for pid in "${server_pids[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

# The kit authenticates with client credentials through POST /v1/oauth/tokens.
secret="rck-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
printf 'rck:sha256:%s:write@*\n' "$(printf '%s' "$secret" | sha256sum | cut -d' ' -f1)" >"$work/tokens"

run_id="$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
allow=()
excluded=()
case "$backend" in
  sqlite)
    mkdir -p "$work/warehouse"
    catalog="sqlite://$work/catalog.db?warehouse=$work/warehouse"
    export CATALOG_WAREHOUSE="$work/warehouse"
    # A few tests create tables at locations of their own choosing under /tmp.
    allow=(--allow-location /tmp)
    ;;
  pg-s3)
    [[ -n "${FLOE_TEST_PG_URI:-}" ]] || skip "FLOE_TEST_PG_URI is not set (scripts/pg.sh)"
    [[ -n "${FLOE_TEST_S3_ENDPOINT:-}" ]] || skip "FLOE_TEST_S3_ENDPOINT is not set (scripts/s3.sh)"
    bucket="rck-$run_id"
    # moto's first server accepts any request: an unsigned PUT makes the bucket.
    curl -sf -X PUT "$FLOE_TEST_S3_ENDPOINT/$bucket" >/dev/null ||
      { echo "rck: could not create bucket $bucket at $FLOE_TEST_S3_ENDPOINT" >&2; exit 1; }
    sep='?'; [[ "$FLOE_TEST_PG_URI" == *\?* ]] && sep='&'
    catalog="${FLOE_TEST_PG_URI}${sep}catalog=rck_$run_id&warehouse=s3://$bucket/wh&s3.endpoint=$FLOE_TEST_S3_ENDPOINT&s3.path-style-access=true&s3.region=us-east-1"
    export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing-secret AWS_REGION=us-east-1
    export CATALOG_WAREHOUSE="s3://$bucket/wh"
    # The client's default FileIO (ResolvingFileIO) takes S3FileIO for s3:// locations, with
    # these s3.* properties, and Hadoop's for the file:/tmp locations a few tests ask for.
    allow=(--allow-location /tmp)
    excluded+=(--exclude-methodname '.*[.#]testLoadTableWithMissingMetadataFile')
    export CATALOG_S3_ENDPOINT="$FLOE_TEST_S3_ENDPOINT"
    export CATALOG_S3_PATH__STYLE__ACCESS=true
    export CATALOG_S3_ACCESS__KEY__ID=testing CATALOG_S3_SECRET__ACCESS__KEY=testing-secret
    export CATALOG_CLIENT_REGION=us-east-1
    ;;
  *) echo "rck: unknown backend '$backend' (sqlite or pg-s3)" >&2; exit 2 ;;
esac

# start_server NAME: `floe serve` on the catalog, on a free port; sets url.
source "$here/../floe_serve.sh"
start_server() {
  local name="$1"
  floe_serve_start "$work/$name.out" "$work/$name.err" \
    "$floe" --catalog "$catalog" serve --listen 127.0.0.1:0 --tokens-file "$work/tokens" "${allow[@]}" \
    --log-format "${RCK_LOG_FORMAT:-off}" || { server_pids+=("$FLOE_SERVE_PID"); exit 1; }
  server_pids+=("$FLOE_SERVE_PID")
  url="$FLOE_SERVE_URL"
  echo "rck: floe serve ($backend) at $url"
}
start_server serve

export CATALOG_URI="$url"
export CATALOG_CREDENTIAL="rck:$secret"

start=$(date +%s)
status=0
classpath="$jars/*"
case "$what" in
  kit)
    # rck.local is a JUnit configuration parameter (false: test this server, not the kit's own);
    # the kit's other switches are read from the client's properties, which include the JVM's
    # system properties verbatim.
    selection=(--select-class org.apache.iceberg.rest.RESTCompatibilityKitCatalogTests
               --select-class org.apache.iceberg.rest.RESTCompatibilityKitViewCatalogTests "${excluded[@]}")
    [[ -n "${RCK_ARGS:-}" ]] && read -r -a selection <<<"$RCK_ARGS"
    java -Xmx1g -Drck.requires-namespace-create=true -Drck.supports-serverside-retry=true \
      -cp "$classpath" org.junit.platform.console.ConsoleLauncher execute \
      --disable-banner --details=tree --details-theme=ascii --config rck.local=false \
      "${selection[@]}" \
      >"$work/java.out" 2>"$work/java.err" || status=$?
    ;;
  lost-answer)
    # Each retry goes to a second server on the same catalog: the stored answer is shared.
    first_url="$url"
    start_server serve2
    java -Xmx512m -cp "$classpath" "$here/LostAnswer.java" "$first_url" "$url" \
      >"$work/java.out" 2>"$work/java.err" || status=$?
    ;;
  *) echo "rck: unknown WHAT '$what' (kit or lost-answer)" >&2; exit 2 ;;
esac
cat "$work/java.out"
if [[ $status -ne 0 ]]; then
  echo "--- java's standard error (last 60 lines) ---"
  tail -n 60 "$work/java.err"
  echo "--- floe serve's standard error (last 40 lines) ---"
  tail -n 40 "$work/serve.err"
  [[ -f "$work/serve2.err" ]] && tail -n 20 "$work/serve2.err"
fi
echo "rck: $what on $backend took $(( $(date +%s) - start )) s, exit status $status"
exit "$status"
