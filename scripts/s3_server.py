"""moto's S3 for floe's tests: one request at a time, on a loopback port.

moto's conditional write is a check followed by a store, so a threaded server
could let two racing `PUT If-None-Match: *` both win; real S3 is atomic. With
one request at a time a race test can only fail through floe. (werkzeug then
answers HTTP/1.0 and closes each connection, so an idle client never holds the
only worker.)

With --check-auth, moto checks every request's credentials from the first one on
(INITIAL_NO_AUTH_ACTION_COUNT=0): an S3-only server knows no IAM users, so it
refuses every access key, which is what the tests of wrong credentials need.

usage: python3 s3_server.py PORT [--check-auth]
"""
import os
import sys

if "--check-auth" in sys.argv[2:]:
    os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = "0"  # read by moto.settings at import

from moto.moto_server.werkzeug_app import create_backend_app  # noqa: E402
from werkzeug.serving import run_simple  # noqa: E402


def main() -> None:
    port = int(sys.argv[1])
    app = create_backend_app("s3")
    run_simple("127.0.0.1", port, app, threaded=False, use_reloader=False)


if __name__ == "__main__":
    main()
