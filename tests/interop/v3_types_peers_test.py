"""Format 3 types across engines: floe writes a v3 table holding timestamp_ns, timestamptz_ns,
geometry, geography and unknown columns (and a second one with a variant column); floe reads
them back, and PyIceberg and DuckDB's iceberg extension read what floe wrote, for the types
they support. Each peer's verdict per type is printed, so a peer lacking a type shows by name.
"""

import datetime as dt
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from interop_common import Failures, Floe, skip_without_peers  # noqa: E402

skip_without_peers()
POINT = "0101000000000000000000f03f0000000000000040"  # POINT (1 2)

failures = Failures()
work = tempfile.mkdtemp(prefix="floe-v3-types-")
floe = Floe(work)
floe.run("namespace", "create", "t")

# A v2 table refuses the new types, naming the column.
import subprocess  # noqa: E402
done = subprocess.run([floe.binary, "--catalog", floe.catalog, "create", "t.old", "--schema", "id long, ts timestamp_ns"],
                      capture_output=True, text=True, cwd=work)
failures.check("a v2 table refuses timestamp_ns by name",
               done.returncode != 0 and "Invalid type for ts: timestamp_ns is not supported until v3" in done.stderr,
               done.stdout + done.stderr)

floe.run("create", "t.geo", "--format-version", "3", "--schema",
         "id long, ts timestamp_ns, tz timestamptz_ns, g geometry, gg geography, nothing unknown")
# A geography with parameters, written as Iceberg Java writes the type (unquoted: geography(C, A)).
floe.run("create", "t.geo2", "--format-version", "3", "--schema", "id long, gg geography(OGC:CRS84, karney)")
rows = [{"id": 1, "ts": "2024-11-07T12:33:54.123456789", "tz": "2024-11-07T12:33:54.123456789+00:00", "g": POINT,
         "gg": POINT, "nothing": None},
        {"id": 2, "ts": None, "tz": None, "g": None, "gg": None, "nothing": None}]
path = os.path.join(work, "geo.jsonl")
with open(path, "w") as f:
    f.write("".join(json.dumps(r) + "\n" for r in rows))
appended = subprocess.run([floe.binary, "--catalog", floe.catalog, "append", "t.geo", path], capture_output=True,
                          text=True, cwd=work)
if appended.returncode != 0 and "first-row-id" in appended.stderr:
    # A v3 append needs row lineage (issue 37 item 2); until it is in this build there is
    # nothing to read. Said plainly rather than counted as a pass.
    print("skipped: this floe cannot append to a v3 table yet: " + appended.stderr.strip())
    sys.exit(0)
failures.check("floe appends to a v3 table with the new types", appended.returncode == 0, appended.stderr)
scanned = [json.loads(l) for l in floe.run("scan", "t.geo", "--format", "jsonl").splitlines() if l.strip()]
scanned.sort(key=lambda r: r["id"])
failures.check("floe reads timestamp_ns back to the nanosecond", scanned[0]["ts"] == "2024-11-07T12:33:54.123456789",
               repr(scanned[0]))
failures.check("floe prints geometry as WKT", scanned[0]["g"] == "POINT (1 2)", repr(scanned[0]))
failures.check("floe reads unknown as null", all(r["nothing"] is None for r in scanned), repr(scanned))

floe.run("create", "t.var", "--format-version", "3", "--schema", "id long, doc variant")
path = os.path.join(work, "var.jsonl")
docs = [{"a": 1, "b": [True, "x", None]}, "text", 3.5, None]
with open(path, "w") as f:
    f.write("".join(json.dumps({"id": i, "doc": d}) + "\n" for i, d in enumerate(docs)))
floe.run("append", "t.var", path)
scanned = [json.loads(l) for l in floe.run("scan", "t.var", "--format", "jsonl").splitlines() if l.strip()]
scanned.sort(key=lambda r: r["id"])
failures.check("floe reads variant values back as JSON", [r["doc"] for r in scanned] == docs, repr(scanned))


def metadata_path(table):
    return floe.metadata_location("t." + table)


# PyIceberg, through the same SQLite catalog database.
try:
    from pyiceberg.catalog.sql import SqlCatalog
    catalog = SqlCatalog("default", uri="sqlite:///" + floe.db, warehouse="file://" + floe.warehouse)
    geo = catalog.load_table("t.geo")
    table = geo.scan(selected_fields=("id", "ts", "nothing")).to_arrow().sort_by("id")
    # Nanoseconds since the epoch of 2024-11-07T12:33:54.123456789 (pyarrow turns a nanosecond
    # timestamp into a Python value only through pandas; the integer is the same check).
    got = table.column("ts").cast("int64").to_pylist()[0]
    failures.check("PyIceberg reads floe's timestamp_ns", got == 1730982834123456789, repr(got))
    failures.check("PyIceberg reads floe's unknown as null", table.column("nothing").to_pylist() == [None, None])
    try:
        got = geo.scan(selected_fields=("id", "g")).to_arrow().sort_by("id").column("g").to_pylist()[0]
        failures.check("PyIceberg reads floe's geometry as WKB", got is not None and bytes(got).hex() == POINT, repr(got))
    except Exception as e:  # noqa: BLE001
        # PyIceberg 0.12.0 resolves the Parquet GEOMETRY column (pyarrow gives it as binary) and
        # refuses binary -> geometry; not yet shown whose defect it is: printed, not passed.
        print("info PyIceberg 0.12 cannot read floe's geometry column: %s: %s" % (type(e).__name__, str(e)[:120]))
except Exception as e:  # noqa: BLE001 - a peer's refusal is its verdict, printed by name
    failures.check("PyIceberg reads floe's v3 geo table", False, "%s: %s" % (type(e).__name__, e))
try:
    catalog.load_table("t.geo2")
    print("info PyIceberg parses geography(OGC:CRS84, karney)")
except Exception as e:  # noqa: BLE001
    # PyIceberg 0.12.0's parser wants the parameters quoted (geography('C', 'A')); Java writes
    # and reads them unquoted, as floe does.
    print("info PyIceberg cannot parse an unquoted geography(C, A): %s: %s" % (type(e).__name__, str(e)[:120]))
try:
    catalog.load_table("t.var").scan().to_arrow()
    print("info PyIceberg reads a variant column")
except Exception as e:  # noqa: BLE001
    print("info PyIceberg 0.12 cannot read a variant column: %s: %s" % (type(e).__name__, str(e)[:200]))

# DuckDB's iceberg extension, from the metadata file.
import duckdb  # noqa: E402
con = duckdb.connect()
ext = os.environ["FLOE_PEERS_DUCKDB_EXTENSIONS"]
for name in ("avro", "iceberg"):
    con.execute("LOAD '%s/%s.duckdb_extension'" % (ext, name))
for table, what in (("geo", "id, ts, g"), ("var", "id, doc")):
    try:
        got = con.execute("SELECT %s FROM iceberg_scan('%s') ORDER BY id" % (what, metadata_path(table))).fetchall()
        print("info DuckDB reads t.%s: %r" % (table, got[:2]))
        if table == "geo":
            failures.check("DuckDB reads floe's timestamp_ns", str(got[0][1]).startswith("2024-11-07 12:33:54.123456"), repr(got))
    except Exception as e:  # noqa: BLE001
        print("info DuckDB 1.4.4 cannot read floe's t.%s: %s: %s" % (table, type(e).__name__, str(e)[:200]))

if failures.items:
    print("%d of %d checks failed" % (len(failures.items), failures.checks))
    sys.exit(1)
print("all %d checks passed" % failures.checks)
