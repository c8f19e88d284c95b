"""The real engines write, floe reads: PyIceberg (SqlCatalog) and Spark (Iceberg's JDBC catalog)
write tables into one SQLite catalog database, and `floe scan` must return exactly the rows the
writing engine itself reads back, with the types it declared: appends of every type, partition
transforms, overwrites and deletes (PyIceberg), INSERT / DELETE / UPDATE / MERGE in copy-on-write
and merge-on-read (position deletes in format 2, deletion vectors in format 3) (Spark).

Run: FLOE_BINARY=build/floe $FLOE_PEERS_PYTHON tests/interop/engines_to_floe_test.py
(FLOE_INTEROP_NO_SPARK=1 leaves Spark out.)
"""

import datetime as dt
import decimal
import json
import os
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as ic  # noqa: E402

ic.skip_without_peers()
STARTED = time.monotonic()
failures = ic.Failures()
floe = ic.Floe(ic.workdir("engines-write"))
floe.catalog = "sqlite://%s?catalog=floe" % floe.db  # the engines' catalogs are named floe too
D = decimal.Decimal
U = dt.timezone.utc


def floe_reads(table, columns, engine_rows, label, *scan_options):
    """floe's schema and rows of `table` against what the writing engine declared and reads."""
    def run():
        got_schema = floe.schema(table)
        failures.check("floe reads %s's schema" % table, got_schema == columns, "floe: %s, engine: %s" % (got_schema, columns))
        failures.same_rows("floe reads %s: %s" % (table, label), engine_rows, floe.scan(table, columns, *scan_options))
    failures.run("floe reads %s: %s" % (table, label), run)


# ---- PyIceberg ------------------------------------------------------------------------------
import pyarrow as pa  # noqa: E402
from pyiceberg.catalog.sql import SqlCatalog  # noqa: E402
from pyiceberg.partitioning import PartitionField, PartitionSpec  # noqa: E402
from pyiceberg.schema import Schema  # noqa: E402
from pyiceberg.transforms import IdentityTransform  # noqa: E402
from pyiceberg.types import (BinaryType, BooleanType, DateType, DecimalType, DoubleType, FixedType,  # noqa: E402
                             FloatType, IntegerType, LongType, NestedField, StringType, TimestampType,
                             TimestamptzType, TimeType, UUIDType)

catalog = SqlCatalog("floe", uri="sqlite:///" + floe.db, warehouse="file://" + floe.warehouse)
catalog.create_namespace("pyi")

PY_TYPES = [("id", "long", LongType()), ("b", "boolean", BooleanType()), ("i", "int", IntegerType()),
            ("f", "float", FloatType()), ("d", "double", DoubleType()), ("dec", "decimal(12,3)", DecimalType(12, 3)),
            ("dt", "date", DateType()), ("tm", "time", TimeType()), ("ts", "timestamp", TimestampType()),
            ("tstz", "timestamptz", TimestamptzType()), ("s", "string", StringType()), ("u", "uuid", UUIDType()),
            ("fx", "fixed[3]", FixedType(3)), ("bin", "binary", BinaryType())]
PRIMS = [(n, t) for n, t, _ in PY_TYPES]


def prim_row(n):
    if n % 4 == 3:
        return [n] + [None] * (len(PRIMS) - 1)
    return [n, n % 2 == 0, -n * 1000003, n / 3.0 - 7, -n * 1e-300, D("%d.%03d" % (n * 1234567 - 5000000, n)),
            dt.date(1900 + n * 9, 1 + n % 12, 1 + n), dt.time(n % 24, n, 0, n * 10), dt.datetime(1970, 1, 1, 0, 0, n, n),
            dt.datetime(2000 + n, 6, 30, 23, 59, 59, 999999, tzinfo=U), ["", "ß", "multi\nline", "tab\t"][n % 4] + str(n),
            uuid.UUID(int=n * 7919 + (1 << 127)), bytes([n, 255 - n, 0]), b"\x00\xff" * n]


def arrow_table(columns, rows, schema):
    from pyiceberg.io.pyarrow import schema_to_pyarrow
    arrow_schema = schema_to_pyarrow(schema)
    arrays = []
    for i, (_, t) in enumerate(columns):
        values = [r[i] for r in rows]
        if t == "uuid":
            values = [None if v is None else v.bytes for v in values]
        arrays.append(pa.array(values, type=arrow_schema.field(i).type))
    return pa.Table.from_arrays(arrays, schema=arrow_schema)


def pyiceberg_rows(table, columns):
    return ic.canon_rows(columns, ic.pyiceberg_values(table.scan().to_arrow(), columns))


def pyiceberg_writes():
    schema = Schema(*[NestedField(i + 1, n, t, required=False) for i, (n, _, t) in enumerate(PY_TYPES)])
    prims = catalog.create_table("pyi.prims", schema=schema)
    rows = [prim_row(n) for n in range(12)]
    prims.append(arrow_table(PRIMS, rows[:8], schema))
    prims.append(arrow_table(PRIMS, rows[8:], schema))
    prims = catalog.load_table("pyi.prims")
    failures.same_rows("pyiceberg reads its own pyi.prims", ic.canon_rows(PRIMS, rows), pyiceberg_rows(prims, PRIMS))
    floe_reads("pyi.prims", PRIMS, ic.canon_rows(PRIMS, rows), "two appends")

    parts_columns = [("id", "long"), ("cat", "string"), ("ts", "timestamptz")]
    parts_schema = Schema(NestedField(1, "id", LongType(), required=False), NestedField(2, "cat", StringType(), required=False),
                          NestedField(3, "ts", TimestamptzType(), required=False))
    # Identity only: PyIceberg 0.12.0 computes every other transform (bucket, truncate, year,
    # month, day, hour) of Arrow data only with pyiceberg-core (Rust), which the peers' venv does
    # not have; Spark's tables below use those transforms.
    spec = PartitionSpec(PartitionField(2, 1000, IdentityTransform(), "cat"))
    parts = catalog.create_table("pyi.parts", schema=parts_schema, partition_spec=spec)
    rows = [[n, ["red", "green", "blue", None][n % 4], dt.datetime(2024, 5, 1 + n % 6, n % 24, tzinfo=U)] for n in range(30)]
    parts.append(arrow_table(parts_columns, rows, parts_schema))
    model = list(rows)
    floe_reads("pyi.parts", parts_columns, ic.canon_rows(parts_columns, model), "append")
    floe_reads("pyi.parts", parts_columns, ic.canon_rows(parts_columns, [r for r in model if r[1] == "green"]),
               "append, where cat = 'green'", "--where", "cat = 'green'")
    floe_reads("pyi.parts", parts_columns, ic.canon_rows(parts_columns, [r for r in model if r[0] == 13]),
               "append, where id = 13", "--where", "id = 13")

    parts = catalog.load_table("pyi.parts")
    replacement = [[100 + n, "green", dt.datetime(2024, 6, 1, n, tzinfo=U)] for n in range(3)]
    parts.overwrite(arrow_table(parts_columns, replacement, parts_schema), overwrite_filter="cat == 'green'")
    model = [r for r in model if r[1] != "green"] + replacement
    parts = catalog.load_table("pyi.parts")
    failures.same_rows("pyiceberg reads its own pyi.parts after overwrite", ic.canon_rows(parts_columns, model),
                       pyiceberg_rows(parts, parts_columns))
    floe_reads("pyi.parts", parts_columns, ic.canon_rows(parts_columns, model), "after overwrite")

    parts.delete(delete_filter="id < 10")
    model = [r for r in model if r[0] >= 10]
    parts = catalog.load_table("pyi.parts")
    failures.same_rows("pyiceberg reads its own pyi.parts after delete", ic.canon_rows(parts_columns, model),
                       pyiceberg_rows(parts, parts_columns))
    floe_reads("pyi.parts", parts_columns, ic.canon_rows(parts_columns, model), "after delete")

    # Time travel into PyIceberg's history: floe reads its first snapshot by id.
    first = parts.history()[0].snapshot_id
    floe_reads("pyi.parts", parts_columns, ic.canon_rows(parts_columns, rows), "first snapshot", "--snapshot", str(first))


failures.run("pyiceberg writes", pyiceberg_writes)
print("pyiceberg part done in %.1f s" % (time.monotonic() - STARTED), flush=True)

# ---- Spark ----------------------------------------------------------------------------------
SPARK_COLUMNS = {"boolean": "boolean", "int": "int", "long": "bigint", "float": "float", "double": "double",
                 "date": "date", "timestamp": "timestamp_ntz", "timestamptz": "timestamp", "string": "string",
                 "binary": "binary"}


def spark_writes(spark):
    spark.sql("CREATE NAMESPACE floe.sp")

    def compare(table, columns, label):
        select = ", ".join("`%s`" % n for n, _ in columns)
        own = ic.spark_values(columns, [tuple(r) for r in spark.sql("SELECT %s FROM floe.%s" % (select, table)).collect()])
        floe_reads(table, columns, own, label)
        return own

    # Every type Spark writes (it has no time, uuid or fixed type of its own).
    types = [("id", "long"), ("b", "boolean"), ("i", "int"), ("f", "float"), ("d", "double"), ("dec", "decimal(20,4)"),
             ("dt", "date"), ("ts", "timestamp"), ("tstz", "timestamptz"), ("s", "string"), ("bin", "binary")]
    ddl = ", ".join("%s %s" % (n, SPARK_COLUMNS.get(t, t)) for n, t in types)
    spark.sql("CREATE TABLE floe.sp.types (%s) USING iceberg" % ddl)
    spark.sql("""INSERT INTO floe.sp.types SELECT id, id % 2 = 0, cast(id * -77 as int), cast(id / 7 as float), id * 1.5e200,
                 cast(id * 12345.6789 - 1e6 as decimal(20,4)), date_add(DATE '1950-01-01', cast(id * 997 as int)),
                 timestamp_ntz'1969-12-31 23:59:59.5' + make_interval(0, 0, 0, 0, 0, cast(id as int), id / 1000),
                 timestamp'2024-01-01 00:00:00+00:00' + make_interval(0, 0, 0, cast(id as int), cast(id as int), 0, 0),
                 concat('s', id, repeat('é', cast(id % 5 as int))), cast(concat('b', id) as binary) FROM range(20)""")
    spark.sql("INSERT INTO floe.sp.types VALUES (%s)" % ", ".join(["99"] + ["NULL"] * (len(types) - 1)))
    own = compare("sp.types", types, "INSERT of every type with NULLs")
    failures.check("spark wrote 21 rows into sp.types", len(own) == 21, "got %d" % len(own))

    columns = [("id", "long"), ("cat", "string"), ("amount", "long"), ("ts", "timestamptz")]
    source = """SELECT id, element_at(array('a', 'b', 'c', NULL), cast(id %% 4 + 1 as int)) AS cat, id * 10 AS amount,
                timestamp'2024-03-01 00:00:00+00:00' + make_interval(0, 0, 0, cast(id %% 9 as int), cast(id %% 24 as int), 0, 0) AS ts
                FROM range(%d, %d)"""
    for name, properties in [("cow", "'format-version'='2', 'write.delete.mode'='copy-on-write', "
                                     "'write.update.mode'='copy-on-write', 'write.merge.mode'='copy-on-write'"),
                             ("mor", "'format-version'='2', 'write.delete.mode'='merge-on-read', "
                                     "'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read'")]:
        table = "sp." + name
        spark.sql("CREATE TABLE floe.%s (id bigint, cat string, amount bigint, ts timestamp) USING iceberg "
                  "PARTITIONED BY (cat, bucket(3, id), days(ts)) TBLPROPERTIES (%s)" % (table, properties))
        spark.sql("INSERT INTO floe.%s %s" % (table, source % (0, 40)))
        spark.sql("INSERT INTO floe.%s %s" % (table, source % (40, 60)))
        compare(table, columns, "two INSERTs")
        spark.sql("DELETE FROM floe.%s WHERE id %% 5 = 0" % table)
        compare(table, columns, "after DELETE")
        spark.sql("UPDATE floe.%s SET amount = -amount, cat = 'u' WHERE id %% 7 = 1" % table)
        compare(table, columns, "after UPDATE")
        spark.sql("""MERGE INTO floe.%s t USING (%s) s ON t.id = s.id
                     WHEN MATCHED AND s.id %% 2 = 0 THEN UPDATE SET t.amount = s.amount + 1, t.cat = 'm'
                     WHEN MATCHED THEN DELETE
                     WHEN NOT MATCHED THEN INSERT *""" % (table, source % (50, 70)))
        own = compare(table, columns, "after MERGE")
        # Left: 0..59 but multiples of 5; of 50..69, matched odd ids deleted, even ones updated,
        # unmatched ones (50, 55 deleted before, 60..69 new) inserted.
        left = {n for n in range(60) if n % 5} - {n for n in range(50, 60) if n % 2 and n % 5}
        left |= {50, 55} | set(range(60, 70))
        failures.check("spark %s holds the rows its statements leave" % table,
                       sorted(r[0] for r in own) == sorted(left), "ids %s" % sorted(r[0] for r in own))
        files = spark.sql("SELECT content, file_format FROM floe.%s.delete_files" % table).collect()
        kinds = sorted({(r[0], r[1]) for r in files})
        want = {"cow": [], "mor": [(1, "PARQUET")]}[name]
        failures.check("spark %s wrote the delete files of its mode: %s" % (table, want), kinds == want, "got %s" % kinds)
        snapshots = [r[0] for r in spark.sql("SELECT snapshot_id FROM floe.%s.snapshots ORDER BY committed_at" % table).collect()]
        first = ic.spark_values(columns, [tuple(r) for r in spark.sql(
            "SELECT * FROM floe.%s VERSION AS OF %d" % (table, snapshots[0])).collect()])
        floe_reads(table, columns, first, "first snapshot", "--snapshot", str(snapshots[0]))

    # Format 3 merge-on-read deletes are deletion vectors (Puffin blobs of Roaring bitmaps).
    spark.sql("CREATE TABLE floe.sp.mor_v3 (id bigint, cat string) USING iceberg PARTITIONED BY (cat) "
              "TBLPROPERTIES ('format-version'='3', 'write.delete.mode'='merge-on-read', "
              "'write.update.mode'='merge-on-read')")
    spark.sql("INSERT INTO floe.sp.mor_v3 SELECT id, concat('c', id % 3) FROM range(5000)")
    spark.sql("DELETE FROM floe.sp.mor_v3 WHERE id % 4 = 0 OR (id > 1000 AND id < 4500)")
    kinds = sorted({(r[0], r[1]) for r in spark.sql("SELECT content, file_format FROM floe.sp.mor_v3.delete_files").collect()})
    failures.check("spark sp.mor_v3 wrote deletion vectors", kinds == [(1, "PUFFIN")], "got %s" % kinds)
    v3_columns = [("id", "long"), ("cat", "string")]
    own = compare("sp.mor_v3", v3_columns, "after DELETE (deletion vectors)")
    spark.sql("UPDATE floe.sp.mor_v3 SET cat = 'u' WHERE id % 7 = 1")
    own = compare("sp.mor_v3", v3_columns, "after UPDATE (deletion vectors merged)")
    failures.check("spark sp.mor_v3 keeps the rows its DELETE left", len(own) == len(
        [n for n in range(5000) if not (n % 4 == 0 or 1000 < n < 4500)]), "got %d" % len(own))

    # A format 1 table (v1 manifests: no sequence numbers, snapshot ids in every entry; deletes
    # rewrite files), as older Spark jobs still create them.
    spark.sql("CREATE TABLE floe.sp.v1 (id bigint, cat string) USING iceberg PARTITIONED BY (cat) "
              "TBLPROPERTIES ('format-version'='1')")
    spark.sql("INSERT INTO floe.sp.v1 SELECT id, concat('c', id % 3) FROM range(30)")
    spark.sql("INSERT INTO floe.sp.v1 SELECT id, 'late' FROM range(30, 36)")
    spark.sql("DELETE FROM floe.sp.v1 WHERE id % 4 = 0")
    own = compare("sp.v1", [("id", "long"), ("cat", "string")], "format 1, two INSERTs and a DELETE")
    failures.check("spark sp.v1 keeps the rows its DELETE left", sorted(r[0] for r in own) == [
        n for n in range(36) if n % 4], "ids %s" % sorted(r[0] for r in own))

    # The other transforms.
    spark.sql("""CREATE TABLE floe.sp.transforms (id bigint, cat string, d date, ts timestamp_ntz) USING iceberg
                 PARTITIONED BY (years(d), months(ts), truncate(2, cat))""")
    spark.sql("""INSERT INTO floe.sp.transforms SELECT id, concat('c', id % 11), date_add(DATE '2010-05-05', cast(id * 101 as int)),
                 timestamp_ntz'2023-01-01 00:00:00' + make_interval(0, cast(id as int), 0, 0, cast(id as int), 0, 0) FROM range(25)""")
    transforms = [("id", "long"), ("cat", "string"), ("d", "date"), ("ts", "timestamp")]
    own = compare("sp.transforms", transforms, "years, months, truncate")
    floe_reads("sp.transforms", transforms, [r for r in own if r[2] is not None and r[2] >= "2013-01-01"],
               "where d >= 2013-01-01", "--where", "d >= '2013-01-01'")
    spark.sql("CREATE TABLE floe.sp.hours (id bigint, ts timestamp) USING iceberg PARTITIONED BY (hours(ts))")
    spark.sql("INSERT INTO floe.sp.hours SELECT id, timestamp'2024-07-01 00:00:00+00:00' + make_interval(0, 0, 0, 0, cast(id as int), 7, 0) FROM range(30)")
    compare("sp.hours", [("id", "long"), ("ts", "timestamptz")], "hours")


if ic.spark_available() and not os.environ.get("FLOE_INTEROP_NO_SPARK"):
    spark_started = time.monotonic()
    spark = ic.start_spark({"floe": ic.spark_jdbc_catalog(floe)}, extra_jars=[ic.java_jar("sqlite-jdbc")])
    print("spark started in %.1f s" % (time.monotonic() - spark_started), flush=True)
    failures.run("spark writes", lambda: spark_writes(spark))
    spark.stop()
else:
    print("spark: not run (FLOE_PEERS_SPARK_ICEBERG_JAR unset, no java, or FLOE_INTEROP_NO_SPARK)")

failures.finish(STARTED)
