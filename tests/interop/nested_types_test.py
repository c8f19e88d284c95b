"""Nested types written by the real engines, read by floe: Spark 4.0 with Iceberg's runtime writes
format 2 and format 3 tables whose columns are structs, lists, maps and their nestings (with nulls
and empties at every level), PyIceberg appends a pyarrow table of the same columns, pyarrow writes
a plain Parquet file of them; `floe scan` (and `floe cat`, `floe create --like`) must give back
exactly the rows the writing engine reads itself, in floe's human JSON form (nested_common.py).

Run: FLOE_BINARY=build/floe $FLOE_PEERS_PYTHON tests/interop/nested_types_test.py
(FLOE_INTEROP_NO_SPARK=1 leaves Spark out.)
"""

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as ic  # noqa: E402

ic.skip_without_peers()
import nested_common as nc  # noqa: E402

STARTED = time.monotonic()
failures = ic.Failures()
floe = ic.Floe(ic.workdir("nested-read"))
floe.catalog = "sqlite://%s?catalog=floe" % floe.db  # the engines' catalogs are named floe too
COLUMNS = nc.COLUMNS
ROWS = nc.model_rows()
EXPECTED = nc.canon_rows(COLUMNS, ROWS)
print("peers: " + ", ".join("%s %s" % kv for kv in nc.VERSIONS.items()), flush=True)


def floe_reads(table, expected, label, columns=COLUMNS, *options):
    failures.run("floe reads %s: %s" % (table, label), lambda: failures.same_rows(
        "floe reads %s: %s" % (table, label), expected, nc.floe_scan(floe, table, columns, *options)))


def floe_reads_table(table, expected, label):
    """Every column; a projection of nested columns alone; a filter on a flat column."""
    floe_reads(table, expected, label)
    picked = [COLUMNS[0], COLUMNS[4], COLUMNS[6]]  # id, al (list of structs of lists), mi
    floe_reads(table, [(r[0], r[4], r[6]) for r in expected], label + ", columns id,al,mi", picked,
               "--columns", ",".join(n for n, _ in picked))
    floe_reads(table, [r for r in expected if r[0] is not None and r[0] <= 6], label + ", where id <= 6",
               COLUMNS, "--where", "id <= 6")


# ---- Spark ----------------------------------------------------------------------------------------

def spark_writes(spark):
    spark.sql("CREATE NAMESPACE IF NOT EXISTS floe.sp")
    for version in (2, 3):
        table = "sp.nested_v%d" % version
        spark.sql("CREATE TABLE floe.%s (%s) USING iceberg TBLPROPERTIES ('format-version'='%d')"
                  % (table, nc.spark_ddl(COLUMNS), version))
        # Two appends: two data files, the second holding the generated rows.
        nc.spark_dataframe(spark, COLUMNS, ROWS[:6]).writeTo("floe." + table).append()
        nc.spark_dataframe(spark, COLUMNS, ROWS[6:]).coalesce(1).writeTo("floe." + table).append()
        own = nc.spark_rows(spark, "floe." + table, COLUMNS)
        failures.same_rows("spark reads its own %s as written" % table, EXPECTED, own)
        floe_reads_table(table, own, "written by Spark (format %d)" % version)
        if version == 2:
            # Filters on struct fields (and on a struct itself): the rows Spark's WHERE keeps.
            for where in ("s.a = 3", "s.a IS NULL", "n.inner.z > 2", "s IS NULL", "s.b = 'b21' OR n.inner IS NULL"):
                theirs = nc.engine_rows(COLUMNS, [tuple(r) for r in spark.sql(
                    "SELECT * FROM floe.%s WHERE %s" % (table, where)).collect()], nc.from_spark)
                floe_reads(table, theirs, "where %s (Spark's WHERE: %d rows)" % (where, len(theirs)), COLUMNS,
                           "--where", where)
        names = [n for n, _ in floe.schema(table) if "." not in n]  # it lists nested fields by path too
        failures.check("floe lists %s's columns" % table, names == [n for n, _ in COLUMNS], repr(names))


if ic.spark_available() and not os.environ.get("FLOE_INTEROP_NO_SPARK"):
    spark_started = time.monotonic()
    spark = ic.start_spark({"floe": ic.spark_jdbc_catalog(floe)}, app="floe-nested-read",
                           extra_jars=[ic.java_jar("sqlite-jdbc")])
    print("spark started in %.1f s" % (time.monotonic() - spark_started), flush=True)
    failures.run("spark writes nested tables", lambda: spark_writes(spark))
    spark.stop()
else:
    print("spark: not run (FLOE_PEERS_SPARK_ICEBERG_JAR unset, no java, or FLOE_INTEROP_NO_SPARK)")


# ---- PyIceberg ------------------------------------------------------------------------------------

def pyiceberg_writes():
    from pyiceberg.catalog.sql import SqlCatalog
    from pyiceberg.io.pyarrow import schema_to_pyarrow
    catalog = SqlCatalog("floe", uri="sqlite:///" + floe.db, warehouse="file://" + floe.warehouse)
    catalog.create_namespace("pyi")
    table = catalog.create_table("pyi.nested", schema=nc.pyiceberg_schema(COLUMNS))
    arrow_schema = schema_to_pyarrow(table.schema())
    table.append(nc.arrow_table(COLUMNS, ROWS[:6], arrow_schema))
    table.append(nc.arrow_table(COLUMNS, ROWS[6:], arrow_schema))
    own = nc.pyiceberg_rows(catalog.load_table("pyi.nested"), COLUMNS)
    # PyIceberg 0.12.0 turns a null list<struct> into an empty list (pyarrow reads [] from its
    # data file, and PyIceberg reads Spark's null as [] too): a limit of the writer, named here.
    # floe must read what PyIceberg wrote, so PyIceberg's own read is the expectation.
    if nc.null_list_of_structs_as_empty(COLUMNS)(own, EXPECTED):
        print("peer limit: PyIceberg %s writes a null list<struct> as an empty list (column al)"
              % nc.VERSIONS["PyIceberg"], flush=True)
    else:
        failures.same_rows("pyiceberg reads its own pyi.nested as written", EXPECTED, own)
    floe_reads_table("pyi.nested", own, "appended by PyIceberg")


failures.run("pyiceberg writes a nested table", pyiceberg_writes)


# ---- pyarrow: a plain Parquet file (no field ids) -------------------------------------------------

def pyarrow_file():
    """A Parquet file as pyarrow writes it from Python data, without Iceberg field ids: `floe cat`
    prints it, `floe create --like` takes its schema, `floe append` takes its rows."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from pyiceberg.io.pyarrow import schema_to_pyarrow
    with_ids = schema_to_pyarrow(nc.pyiceberg_schema(COLUMNS))
    plain = pa.schema([pa.field(f.name, f.type) for f in with_ids])  # top-level ids dropped
    plain = pa.schema([pa.field(f.name, strip_ids(f.type)) for f in plain])
    path = os.path.join(floe.workdir, "plain-nested.parquet")
    pq.write_table(nc.arrow_table(COLUMNS, ROWS, plain), path, row_group_size=20)
    ids = nc.parquet_field_ids(pq.ParquetFile(path).schema_arrow)
    failures.check("pyarrow wrote the file without field ids", set(ids.values()) == {None}, repr(ids))

    def cat():
        failures.same_rows("floe cat prints pyarrow's nested file", EXPECTED,
                           nc.from_jsonl(floe.run("cat", path, "--format", "jsonl"), COLUMNS))
    failures.run("floe cat prints pyarrow's nested file", cat)

    def like():
        floe.run("namespace", "create", "pa")
        floe.run("create", "pa.like", "--like", path)
        floe.run("append", "pa.like", path)
        floe_reads("pa.like", EXPECTED, "created --like pyarrow's file and appended from it")
    failures.run("floe create --like pyarrow's nested file", like)


def strip_ids(t):
    import pyarrow as pa
    if pa.types.is_struct(t):
        return pa.struct([pa.field(t.field(i).name, strip_ids(t.field(i).type)) for i in range(t.num_fields)])
    if pa.types.is_map(t):
        return pa.map_(strip_ids(t.key_type), strip_ids(t.item_type))
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return pa.list_(strip_ids(t.value_type))
    return t


failures.run("pyarrow writes a nested file", pyarrow_file)
failures.finish(STARTED)
