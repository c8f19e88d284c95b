"""Variants inside lists and maps across floe and Spark 4.0 (Iceberg 1.11 runtime), format 3:
columns array<variant>, map<string, variant> and array<struct<v variant>>, with null and empty
lists and maps, null elements and values, variant nulls and nested objects and arrays inside
the variants.

- Spark writes the table through Iceberg's JDBC catalog over floe's SQLite catalog database;
  `floe scan` must print exactly the values Spark reads itself (Spark's to_json of each column).
- floe writes the same table shape from JSON lines (`floe append`); Spark must read exactly the
  values floe was given.
- Spark's own Parquet writer with variant shredding forced, one file per nested column: Spark 4.0
  shreds top-level variants only (the layout is printed: a variant group in a list keeps `value`
  before `metadata` and carries no VARIANT annotation); floe must read each file whole.

Run: FLOE_BINARY=build/floe $FLOE_PEERS_PYTHON tests/interop/variant_nested_peers_test.py
"""

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as ic  # noqa: E402

ic.skip_without_peers()

STARTED = time.monotonic()
failures = ic.Failures()
work = ic.workdir("variant-nested")
floe = ic.Floe(work)
floe.catalog = "sqlite://%s?catalog=floe" % floe.db  # Spark's catalog is named floe too

SCHEMA = "id long, tags list<variant>, m map<string, variant>, s list<struct<v variant>>"
SPARK_DDL = "id BIGINT, tags ARRAY<VARIANT>, m MAP<STRING, VARIANT>, s ARRAY<STRUCT<v: VARIANT>>"

# Each variant is given as JSON text (None: an SQL null). Row values: tags (list), m (dict), s
# (list of {"v": ...} or None).
DEEP = '{"z": true, "deep": {"x": [1, {"y": 2}, []], "e": {}}, "s": "caf\\u00e9"}'
ROWS = [
    (1, ['{"a": 1, "b": [1, "x", null]}', '"text"', "3.5", None, "[]", "null"],
     {"k": DEEP, "n": None, "num": "-7"},
     [{"v": '{"q": 1}'}, {"v": None}, None, {"v": '[{"r": [true, false]}]'}]),
    (2, [], {}, []),
    (3, None, None, None),
    (4, ['{"only": "one"}'], {"one": '"x"'}, [{"v": "12345678901234"}]),
    (5, [None, None], {"a": None}, [None]),
]


def as_json(text):
    return None if text is None else json.loads(text)


# The values as a JSON reader sees them (floe prints a variant as its JSON, an SQL null as null).
EXPECTED = {
    i: {"tags": None if t is None else [as_json(x) for x in t],
        "m": None if m is None else {k: as_json(v) for k, v in m.items()},
        "s": None if s is None else [None if e is None else {"v": as_json(e["v"])} for e in s]}
    for i, t, m, s in ROWS
}


def sql_variant(text):
    return "CAST(NULL AS VARIANT)" if text is None else "parse_json('%s')" % text.replace("\\", "\\\\").replace("'", "\\'")


def sql_row(row):
    i, tags, m, s = row
    t = "CAST(NULL AS ARRAY<VARIANT>)" if tags is None else (
        "array(%s)" % ", ".join(sql_variant(x) for x in tags) if tags else "CAST(array() AS ARRAY<VARIANT>)")
    if m is None:
        mm = "CAST(NULL AS MAP<STRING, VARIANT>)"
    elif not m:
        mm = "CAST(map() AS MAP<STRING, VARIANT>)"
    else:
        mm = "map(%s)" % ", ".join("'%s', %s" % (k, sql_variant(v)) for k, v in m.items())
    struct_type = "STRUCT<v: VARIANT>"
    if s is None:
        ss = "CAST(NULL AS ARRAY<%s>)" % struct_type
    elif not s:
        ss = "CAST(array() AS ARRAY<%s>)" % struct_type
    else:
        ss = "array(%s)" % ", ".join("CAST(NULL AS %s)" % struct_type if e is None else
                                     "named_struct('v', %s)" % sql_variant(e["v"]) for e in s)
    return "SELECT CAST(%d AS BIGINT) AS id, %s AS tags, %s AS m, %s AS s" % (i, t, mm, ss)


def spark_values(spark, source):
    """Each row's columns as Spark reads them, through its to_json (nulls kept)."""
    keep = "map('ignoreNullFields', 'false')"
    got = {}
    for r in spark.sql("SELECT id, to_json(tags, %s), to_json(m, %s), to_json(s, %s) FROM %s"
                       % (keep, keep, keep, source)).collect():
        got[r[0]] = {"tags": as_json(r[1]), "m": as_json(r[2]), "s": as_json(r[3])}
    return got


def floe_values(table):
    got = {}
    for line in floe.run("scan", table, "--format", "jsonl").splitlines():
        if line.strip():
            r = json.loads(line)
            got[r["id"]] = {"tags": r["tags"], "m": r["m"], "s": r["s"]}
    return got


def spark_checks(spark):
    # Spark writes; floe reads.
    spark.sql("CREATE NAMESPACE IF NOT EXISTS floe.sp")
    spark.sql("CREATE TABLE floe.sp.vn (%s) USING iceberg TBLPROPERTIES ('format-version'='3')" % SPARK_DDL)
    spark.sql(" UNION ALL ".join(sql_row(r) for r in ROWS)).coalesce(1).writeTo("floe.sp.vn").append()
    theirs = spark_values(spark, "floe.sp.vn")
    failures.check("Spark reads its own array/map variants as written", theirs == EXPECTED,
                   "spark %r\nwant  %r" % (theirs, EXPECTED))
    ours = floe_values("sp.vn")
    failures.check("floe scans Spark's array<variant>, map<string, variant>, array<struct<v variant>>",
                   ours == theirs, "floe  %r\nspark %r" % (ours, theirs))

    # floe writes from JSON lines; Spark reads.
    floe.run("namespace", "create", "fl")
    floe.run("create", "fl.vn", "--format-version", "3", "--schema", SCHEMA)
    path = os.path.join(work, "rows.jsonl")
    with open(path, "w") as f:
        for i, v in EXPECTED.items():
            f.write(json.dumps({"id": i, **v}) + "\n")
    floe.run("append", "fl.vn", path)
    failures.check("floe reads back what it wrote", floe_values("fl.vn") == EXPECTED, repr(floe_values("fl.vn")))
    theirs = spark_values(spark, "floe.fl.vn")
    failures.check("Spark reads floe's array<variant>, map<string, variant>, array<struct<v variant>>",
                   theirs == EXPECTED, "spark %r\nwant  %r" % (theirs, EXPECTED))
    got = [tuple(r) for r in spark.sql(
        "SELECT id, variant_get(tags[0], '$.b[1]', 'string'), variant_get(m['k'], '$.deep.x[1].y', 'int'), "
        "variant_get(s[3].v, '$[0].r[1]', 'boolean') FROM floe.fl.vn WHERE id = 1").collect()]
    failures.check("Spark's variant_get reaches inside floe's nested variants", got == [(1, "x", 2, False)], repr(got))

    # Metrics: the fields whose column sizes, value counts and null counts each writer's manifest
    # holds (both tables have the same field ids); Iceberg Java records none for a variant under a
    # list or map, floe neither.
    def metric_fields(table):
        fields = []
        for r in spark.sql("SELECT column_sizes, value_counts, null_value_counts FROM %s.files" % table).collect():
            fields.append(tuple(tuple(sorted((m or {}).keys())) for m in r))
        return sorted(set(fields))
    failures.check("floe's manifest metrics cover the fields Iceberg Java's do",
                   metric_fields("floe.fl.vn") == metric_fields("floe.sp.vn"),
                   "floe %r\nspark %r" % (metric_fields("floe.fl.vn"), metric_fields("floe.sp.vn")))

    # Spark's own Parquet writer with shredding forced (its test setting, a schema for every
    # variant it shreds): Spark 4.0 shreds top-level variants only, so each nested column is
    # written alone and its layout printed; floe reads each file whole.
    spark.conf.set("spark.sql.variant.writeShredding.enabled", "true")
    spark.conf.set("spark.sql.variant.forceShreddingSchemaForTest", "a int, q int, z boolean")
    import pyarrow.parquet as pq  # noqa: E402
    rows_sql = " UNION ALL ".join(sql_row(r) for r in ROWS)
    for column, ddl in (("tags", "tags list<variant>"), ("m", "m map<string, variant>"), ("s", "s list<struct<v variant>>")):
        out = os.path.join(work, "spark-parquet-" + column)
        spark.sql(rows_sql).select(column).coalesce(1).write.mode("overwrite").parquet(out)
        files = [os.path.join(out, f) for f in os.listdir(out) if f.endswith(".parquet")]
        layout = str(pq.ParquetFile(files[0]).schema)
        print("info Spark's Parquet writer %s the variants of '%s' with shredding forced"
              % ("shreds" if "typed_value" in layout else "does not shred", column))
        floe.run("create", "fl.parquet_" + column, "--format-version", "3", "--schema", ddl)
        floe.run("append", "fl.parquet_" + column, *files)
        got = sorted(json.dumps(json.loads(line)[column], sort_keys=True) for line in
                     floe.run("scan", "fl.parquet_" + column, "--format", "jsonl").splitlines() if line.strip())
        want = sorted(json.dumps(v[column], sort_keys=True) for v in EXPECTED.values())
        failures.check("floe reads Spark's Parquet file of '%s' (%s) whole" % (column, ddl), got == want,
                       "floe %r\nwant %r" % (got, want))

if ic.spark_available():
    spark = ic.start_spark({"floe": ic.spark_jdbc_catalog(floe)}, app="floe-variant-nested",
                           extra_jars=[ic.java_jar("sqlite-jdbc")])
    try:
        failures.run("Spark and floe exchange nested variants", lambda: spark_checks(spark))
    finally:
        spark.stop()
else:
    print("skipped: Spark is not installed (FLOE_PEERS_SPARK_ICEBERG_JAR unset or no java)")
    sys.exit(0)

print("took %.1f s" % (time.monotonic() - STARTED))
if failures.items:
    print("%d of %d checks failed" % (len(failures.items), failures.checks))
    sys.exit(1)
print("all %d checks passed" % failures.checks)
