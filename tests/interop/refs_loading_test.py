"""PyIceberg's RestCatalog in refs loading mode (snapshot-loading-mode=refs, the spec's
snapshots=refs) against `floe serve`: the table it loads holds only the snapshots its refs point
at, it reads the current rows and appends on top of them, and a catalog in the default mode
then sees the whole history, PyIceberg's append in it. The load's ETag is honoured (304 to
If-None-Match, a full answer after a commit).

Run: FLOE_BINARY=build/floe $FLOE_PEERS_PYTHON tests/interop/refs_loading_test.py
"""

import os
import sys
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as ic  # noqa: E402

ic.skip_without_peers()
STARTED = time.monotonic()
failures = ic.Failures()
home = ic.workdir("refs-loading")
floe = ic.Floe(home)
COLUMNS = [("id", "long"), ("who", "string")]

floe.run("namespace", "create", "r")
floe.run("create", "r.t", "--schema", "id long, who string")
for i in range(4):
    floe.append_rows("r.t", COLUMNS, [(i, "floe")])

server = ic.FloeServer(floe, home)
if not server.wait_ready():
    print("floe serve did not start")
    sys.exit(1)
try:
    from pyiceberg.catalog.rest import RestCatalog

    def catalog(mode):
        properties = {"uri": server.uri, "token": server.secret}
        if mode:
            properties["snapshot-loading-mode"] = mode
        return RestCatalog("floe_rest_" + (mode or "default"), **properties)

    refs_catalog = catalog("refs")
    current = refs_catalog.load_table("r.t")
    failures.check("refs mode: only the snapshot main points at", len(current.metadata.snapshots) == 1,
                   "got %d snapshots" % len(current.metadata.snapshots))
    failures.check("refs mode: the current snapshot is there",
                   current.current_snapshot() is not None
                   and current.current_snapshot().snapshot_id == current.metadata.refs["main"].snapshot_id)
    rows = sorted(current.scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    failures.check("refs mode: PyIceberg reads every current row", [r["id"] for r in rows] == [0, 1, 2, 3],
                   str(rows))

    import pyarrow as pa
    current.append(pa.table({"id": pa.array([100], pa.int64()), "who": pa.array(["pyiceberg"], pa.string())}))

    full = catalog(None).load_table("r.t")
    failures.check("all mode: the whole history, PyIceberg's append on top", len(full.metadata.snapshots) == 5,
                   "got %d snapshots" % len(full.metadata.snapshots))
    failures.check("all mode: PyIceberg's snapshot is main's head",
                   full.current_snapshot().summary.operation.value == "append"
                   and full.current_snapshot().parent_snapshot_id is not None)
    ids = sorted(r["id"] for r in full.scan().to_arrow().to_pylist())
    failures.check("all mode: every row", ids == [0, 1, 2, 3, 100], str(ids))
    failures.same_rows("floe reads PyIceberg's append", [(0, "floe"), (1, "floe"), (2, "floe"), (3, "floe"),
                                                         (100, "pyiceberg")], floe.scan("r.t", COLUMNS))

    # Iceberg Java's REST client in refs mode: the current state first, the history on demand.
    if ic.java_available():
        import json
        import subprocess
        source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "java", "RefsLoading.java")
        done = subprocess.run(["java", "-Xmx256m", "-cp", os.environ["FLOE_PEERS_JAVA_JARS"] + "/*", source,
                               server.uri, server.secret, "r.t"], capture_output=True, text=True, timeout=180)
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        failures.check("Java refs mode ran", done.returncode == 0 and len(lines) == 1, done.stderr[-2000:])
        if lines:
            java = json.loads(lines[0])
            failures.check("Java refs mode: one snapshot until history is asked for", java["before"] == 1, str(java))
            failures.check("Java refs mode: the current snapshot is main's head",
                           java["current"] == full.current_snapshot().snapshot_id, str(java))
            failures.check("Java refs mode: table.snapshots() loads the whole history", java["after"] == 5, str(java))
    else:
        print("java: skipped (no FLOE_PEERS_JAVA_JARS or no java)")

    # ETag / If-None-Match on load-table, as any HTTP client sends it.
    def load(if_none_match=None, query=""):
        headers = {"Authorization": "Bearer " + server.secret}
        if if_none_match:
            headers["If-None-Match"] = if_none_match
        request = urllib.request.Request(server.uri + "/v1/namespaces/r/tables/t" + query, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, answer.headers.get("ETag"), answer.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("ETag"), e.read()

    status, etag, _ = load()
    failures.check("load-table sends an ETag", status == 200 and bool(etag), str((status, etag)))
    status, _, body = load(etag)
    failures.check("If-None-Match with the current ETag: 304, no body", status == 304 and body == b"",
                   str((status, body[:100])))
    floe.append_rows("r.t", COLUMNS, [(5, "floe")])
    status, new_etag, _ = load(etag)
    failures.check("after a commit the old ETag gets the new document", status == 200 and new_etag != etag,
                   str((status, new_etag)))
finally:
    server.stop()

failures.finish(STARTED)
