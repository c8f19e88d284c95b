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
from interop_common import Failures, Floe, skip_without_peers, spark_available, start_spark  # noqa: E402

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

# Shredded variants from Spark 4.0: Spark's Parquet writer with shredding on, an object schema
# forced for the column (a: int, b: string, c: {d: double, e: date}, arr: array of int), so rows
# land in typed_value columns, in `value`, or in both (a partly shredded object); arr is a
# shredded array (a LIST typed_value, each element its own value / typed_value pair). floe reads
# the file (floe append reads it through its Parquet reader) and must give back each row's whole
# value.
SHREDDED = [
    (1, '{"a": 1, "b": "x", "c": {"d": 2.5, "e": "2024-01-02"}, "z": [1, 2], "arr": [1, 2, 3]}'),  # z: residual
    (2, '{"a": "not an int", "b": null, "arr": [4, "five", null, {"six": 6}, [7]]}'),  # arr elements off type
    (3, '7'),  # not an object: all in value
    (4, None),
    (5, '{"c": {"d": 1.5e0, "e": 3}, "q": {"r": true}, "arr": []}'),  # d a double, shredded; e not a date
    (6, '{"arr": "not an array"}'),  # arr in value
]
if spark_available():
    spark = start_spark({}, app="floe-v3-shredded")
    try:
        spark.conf.set("spark.sql.variant.writeShredding.enabled", "true")
        spark.conf.set("spark.sql.variant.forceShreddingSchemaForTest", "a int, b string, c struct<d double, e date>, arr array<int>")
        rows = ", ".join("(%d, %s)" % (i, "NULL" if j is None else "'%s'" % j) for i, j in SHREDDED)
        out = os.path.join(work, "shredded")
        spark.sql("SELECT CAST(id AS BIGINT) AS id, parse_json(j) AS doc FROM VALUES %s AS t(id, j)" % rows) \
            .coalesce(1).write.mode("overwrite").parquet(out)
    finally:
        spark.stop()
    files = [os.path.join(out, f) for f in os.listdir(out) if f.endswith(".parquet")]
    import pyarrow.parquet as pq  # noqa: E402
    layout = str(pq.ParquetFile(files[0]).schema)
    failures.check("Spark wrote the variant shredded (typed_value columns)", "typed_value" in layout, layout)
    failures.check("Spark shredded the array field as a LIST", "arr" in layout and "list" in layout.lower(), layout)
    floe.run("create", "t.shredded", "--format-version", "3", "--schema", "id long, doc variant")
    floe.run("append", "t.shredded", *files)
    got = {r["id"]: r["doc"] for r in
           (json.loads(l) for l in floe.run("scan", "t.shredded", "--format", "jsonl").splitlines() if l.strip())}
    # Spark parses 2.5 as a decimal and 1.5e0 as a double: both print as the number.
    want = {i: None if j is None else json.loads(j) for i, j in SHREDDED}
    failures.check("floe reads Spark's shredded variants back whole", got == want, "got %r\nwant %r" % (got, want))
else:
    print("info Spark not installed: shredded variants from Spark not checked")

# Transforms floe does not compute: a table whose default spec adds a bucket of two source columns
# (v3 source-ids) and a transform floe does not know, and whose sort order is a zorder of two
# columns (as another engine might write them). floe reads it, scans it (filters still right, no
# pruning on those fields), keeps the fields through its own commits and refuses to write rows.
floe.run("create", "t.parts", "--format-version", "3", "--schema", "id long, ts timestamptz, region string",
         "--partition-by", "day(ts)")
path = os.path.join(work, "parts.jsonl")
with open(path, "w") as f:
    f.write("".join(json.dumps({"id": i, "ts": "2024-0%d-01T00:00:00+00:00" % (i + 1), "region": r}) + "\n"
                    for i, r in enumerate(["eu", "us", "eu"])))
floe.run("append", "t.parts", path)
document = json.load(open(floe.metadata_location("t.parts")))
MULTI_SPEC = {"spec-id": 1, "fields": [
    {"name": "ts_day", "transform": "day", "source-id": 2, "field-id": 1000},
    {"name": "id_region_bucket", "transform": "bucket[8]", "source-ids": [1, 3], "field-id": 1001},
    {"name": "region_geohash", "transform": "geohash[6]", "source-id": 3, "field-id": 1002}]}
ZORDER = {"order-id": 1, "fields": [{"transform": "zorder", "source-ids": [1, 2], "direction": "asc",
                                     "null-order": "nulls-first"}]}
document["partition-specs"].append(MULTI_SPEC)
document["default-spec-id"] = 1
document["last-partition-id"] = 1002
document["sort-orders"].append(ZORDER)
document["default-sort-order-id"] = 1
edited = os.path.join(work, "multi-arg.metadata.json")
with open(edited, "w") as f:
    json.dump(document, f)
floe.run("register", "t.multi", edited)
got = sorted(json.loads(l)["id"] for l in floe.run("scan", "t.multi", "--where", "region = 'eu'", "--format",
                                                   "jsonl").splitlines() if l.strip())
failures.check("floe scans a table partitioned by transforms it cannot compute", got == [0, 2], repr(got))
done = subprocess.run([floe.binary, "--catalog", floe.catalog, "append", "t.multi", path], capture_output=True,
                      text=True, cwd=work)
failures.check("floe refuses to write to it, naming the field",
               done.returncode != 0 and "partition field 'id_region_bucket' is bucket[8](1, 3)" in done.stderr,
               done.stdout + done.stderr)
floe.run("properties", "t.multi", "--set", "owner=types3")  # a commit: floe writes the document back
after = json.load(open(floe.metadata_location("t.multi")))
failures.check("floe's commit keeps the multi-argument spec and sort order as they were",
               MULTI_SPEC in after["partition-specs"] and ZORDER in after["sort-orders"] and
               after["default-spec-id"] == 1 and after["properties"].get("owner") == "types3",
               json.dumps(after["partition-specs"]) + json.dumps(after["sort-orders"]))


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
        # A PyIceberg 0.12.0 limit, not floe's: floe annotates the column GEOMETRY as
        # parquet-format's Thrift defines it (pyarrow shows "binary g (Geometry(crs=))"), but
        # Arrow hands PyIceberg plain binary (no geoarrow extension), its pyarrow-to-Iceberg
        # schema visitor (pyiceberg/io/pyarrow.py, _ConvertToIceberg.primitive) makes that
        # BinaryType, and ArrowProjectionVisitor._cast_if_needed calls promote(binary, geometry)
        # (pyiceberg/schema.py), which allows binary -> string only.
        print("info PyIceberg 0.12 limit: it cannot read a GEOMETRY-annotated column: %s: %s"
              % (type(e).__name__, str(e)[:120]))
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
