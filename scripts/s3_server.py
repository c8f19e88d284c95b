"""moto's S3 for floe's tests: one request at a time, on a loopback port.

moto's conditional write is a check followed by a store, so a threaded server
could let two racing `PUT If-None-Match: *` both win; real S3 is atomic. With
one request at a time a race test can only fail through floe. (werkzeug then
answers HTTP/1.0 and closes each connection, so an idle client never holds the
only worker.)

With --check-auth, moto checks every request's credentials from the first one on
(INITIAL_NO_AUTH_ACTION_COUNT=0): an S3-only server knows no IAM users, so it
refuses every access key, which is what the tests of wrong credentials need.

With --bulk-seed (TEST AND BENCHMARK ONLY, not S3): one more endpoint,
    POST /_floe_test/bulk-seed?bucket=B&prefix=P&count=N[&suffix=S]
with the objects' content as the body (at most 1 MiB, may be empty), creates the
N objects P + 8-digit index (00000000 .. N-1) + S in bucket B directly in moto's
in-process backend, the way moto's own PUT handler stores an object (same
content type as floe's PUT, the bucket's ACL, no tags), so LIST, HEAD, GET and
DeleteObjects see them exactly as objects PUT one by one. One request instead of
N: moto answers ~40 requests a second here, and a benchmark table of 100,000
objects would otherwise take most of an hour to make. The answer is JSON
{"created": N, "first": KEY, "last": KEY}. Anything malformed is refused with
4xx and a message naming the parameter, and nothing is created: a request from
anywhere but loopback (403), another method (405), an unknown or repeated
parameter, a non-decimal or out-of-range count (1..1,000,000), a prefix or
suffix that is not UTF-8, holds a control character, or makes a key longer than
S3's 1,024 bytes (400), a missing Content-Length (411), a body over 1 MiB (413),
a bucket that does not exist (404), any of the N keys already existing (409).
The endpoint is outside S3's namespace: a bucket name cannot start with "_".

usage: python3 s3_server.py PORT [--check-auth] [--bulk-seed]
"""
import json
import os
import sys
import urllib.parse

if "--check-auth" in sys.argv[2:]:
    os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = "0"  # read by moto.settings at import

from moto.moto_server.werkzeug_app import create_backend_app  # noqa: E402
from werkzeug.serving import run_simple  # noqa: E402

SEED_PATH = "/_floe_test/bulk-seed"
SEED_MAX_COUNT = 1_000_000
SEED_MAX_BODY = 1 << 20
S3_MAX_KEY_BYTES = 1024
SEED_INDEX_DIGITS = 8
SEED_PARAMETERS = {"bucket", "prefix", "count", "suffix"}


class Refused(Exception):
    def __init__(self, status: str, message: str):
        super().__init__(message)
        self.status = status


def _loopback(address: str) -> bool:
    return address.startswith("127.") or address == "::1"


def _seed_parameters(query: str) -> dict:
    if not query.isascii():
        raise Refused("400 Bad Request", "the query string must be percent-encoded ASCII")
    try:
        pairs = urllib.parse.parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query),
                                       encoding="utf-8", errors="strict")
    except (ValueError, UnicodeDecodeError) as e:
        raise Refused("400 Bad Request", f"malformed query string: {e}") from None
    params = {}
    for name, value in pairs:
        if name not in SEED_PARAMETERS:
            raise Refused("400 Bad Request", f"unknown parameter {name!r} (known: bucket, prefix, count, suffix)")
        if name in params:
            raise Refused("400 Bad Request", f"parameter {name!r} given twice")
        params[name] = value
    for name in ("bucket", "prefix", "count"):
        if name not in params:
            raise Refused("400 Bad Request", f"parameter {name!r} is missing")
    count = params["count"]
    if not (count.isascii() and count.isdigit()) or not 1 <= int(count) <= SEED_MAX_COUNT:
        raise Refused("400 Bad Request", f"count {count!r} is not a whole number from 1 to {SEED_MAX_COUNT}")
    params["count"] = int(count)
    params.setdefault("suffix", "")
    for name in ("prefix", "suffix"):
        if any(ord(c) < 32 or ord(c) == 127 for c in params[name]):
            raise Refused("400 Bad Request", f"{name} holds a control character")
    if not params["prefix"]:
        raise Refused("400 Bad Request", "prefix is empty")
    key_bytes = len(params["prefix"].encode()) + SEED_INDEX_DIGITS + len(params["suffix"].encode())
    if key_bytes > S3_MAX_KEY_BYTES:
        raise Refused("400 Bad Request", f"prefix and suffix make keys of {key_bytes} bytes, over S3's {S3_MAX_KEY_BYTES}")
    return params


def _seed_body(environ) -> bytes:
    length = environ.get("CONTENT_LENGTH", "")
    if not (length.isascii() and length.isdigit()):
        raise Refused("411 Length Required", "a Content-Length (the objects' content, may be 0) is required")
    if int(length) > SEED_MAX_BODY:
        raise Refused("413 Content Too Large", f"body of {length} bytes is over the {SEED_MAX_BODY} allowed")
    body = environ["wsgi.input"].read(int(length))
    if len(body) != int(length):
        raise Refused("400 Bad Request", f"body cut short: {len(body)} of {length} bytes")
    return body


def _bulk_seed(environ) -> dict:
    if not _loopback(environ.get("REMOTE_ADDR", "")):
        raise Refused("403 Forbidden", "the bulk seed answers loopback only")
    if environ.get("REQUEST_METHOD") != "POST":
        raise Refused("405 Method Not Allowed", "the bulk seed takes POST")
    params = _seed_parameters(environ.get("QUERY_STRING", ""))
    body = _seed_body(environ)

    from moto.core import DEFAULT_ACCOUNT_ID
    from moto.s3.models import s3_backends
    from moto.s3.exceptions import MissingBucket
    # The account moto gives a request without a known IAM key (as the tests' "testing").
    backend = s3_backends[os.environ.get("MOTO_ACCOUNT_ID", DEFAULT_ACCOUNT_ID)]["aws"]
    try:
        bucket = backend.get_bucket(params["bucket"])
    except MissingBucket:
        raise Refused("404 Not Found", f"bucket {params['bucket']!r} does not exist") from None
    keys = [f"{params['prefix']}{i:0{SEED_INDEX_DIGITS}d}{params['suffix']}" for i in range(params["count"])]
    for key in keys:  # all or nothing
        if key in bucket.keys:
            raise Refused("409 Conflict", f"key {key!r} already exists in bucket {params['bucket']!r}")
    for key in keys:  # what moto's put_object handler does for floe's PUT
        new_key = backend.put_object(params["bucket"], key, body, storage="STANDARD")
        new_key.set_metadata({"Content-Type": "application/octet-stream"})
        new_key.set_acl(bucket.acl)
        backend.put_object_tagging(new_key, {})
    return {"created": len(keys), "first": keys[0], "last": keys[-1]}


def with_bulk_seed(app):
    """moto's app, with SEED_PATH answered by the seed and every other path by moto."""
    def wsgi(environ, start_response):
        if not environ.get("PATH_INFO", "").startswith("/_floe_test/"):
            return app(environ, start_response)
        try:
            if environ["PATH_INFO"] != SEED_PATH:
                raise Refused("404 Not Found", f"no test endpoint {environ['PATH_INFO']!r} (only {SEED_PATH})")
            status, body, kind = "200 OK", json.dumps(_bulk_seed(environ)).encode(), "application/json"
        except Refused as e:
            status, body, kind = e.status, f"bulk-seed: {e}\n".encode(), "text/plain; charset=utf-8"
        start_response(status, [("Content-Type", kind), ("Content-Length", str(len(body)))])
        return [body]
    return wsgi


def main() -> None:
    port = int(sys.argv[1])
    app = create_backend_app("s3")
    if "--bulk-seed" in sys.argv[2:]:
        app = with_bulk_seed(app)
    run_simple("127.0.0.1", port, app, threaded=False, use_reloader=False)


if __name__ == "__main__":
    main()
