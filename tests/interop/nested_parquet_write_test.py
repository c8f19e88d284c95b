"""floe's Parquet writer on nested columns, judged by pyarrow and DuckDB: lists, maps and structs
nested in each other (list<struct<x, ys list<int>>>, map<string, list<string>>, struct<list>,
list<list<double>>, a required list), with nulls and empties at every level, written in small
pages and row groups so that both split often, partly in small batches and partly in one large
one that the writer encodes on two threads. The rows come from floe's own test
(src/parquet/nested_write_test.cc, NestedWrite.EveryShapeFile), which writes the file through the
library and records the rows it was given; both readers must return exactly those rows, and the
file's schema must be Iceberg's three-level LIST / MAP form with a field id on every element.

Run: FLOE_BINARY=build/floe $FLOE_PEERS_PYTHON tests/interop/nested_parquet_write_test.py
(the test binary floe_parquet_tests is taken from FLOE_BINARY's folder). Takes a few seconds.
"""

import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as ic  # noqa: E402

ic.skip_without_peers()
STARTED = time.monotonic()
failures = ic.Failures()

import pyarrow.parquet as pq  # noqa: E402

tests_binary = os.path.join(os.path.dirname(os.path.abspath(os.environ["FLOE_BINARY"])), "floe_parquet_tests")
if not os.path.exists(tests_binary):
    print("skipped: no peers (floe_parquet_tests is not built next to %s)" % os.environ["FLOE_BINARY"])
    sys.exit(0)

work = ic.workdir("nested-parquet-write")
path = os.path.join(work, "every_shape.parquet")
env = dict(os.environ, FLOE_NESTED_PARQUET_OUT=path)
written = subprocess.run([tests_binary, "--gtest_filter=NestedWrite.EveryShapeFile"], env=env,
                         capture_output=True, text=True)
failures.check("floe writes the every-shape file", written.returncode == 0, written.stdout[-2000:])
if written.returncode != 0:
    failures.finish(STARTED)

with open(path + ".jsonl") as f:
    EXPECTED = [json.loads(line) for line in f]
MAPS = ("attrs", "m2")


def listify(value):
    """pyarrow gives map entries as (key, value) tuples; floe's record has [key, value] lists."""
    if isinstance(value, (list, tuple)):
        return [listify(v) for v in value]
    if isinstance(value, dict):
        return {k: listify(v) for k, v in value.items()}
    return value


def check_pyarrow():
    actual = [listify(row) for row in pq.read_table(path).to_pylist()]
    same = actual == EXPECTED
    first_bad = next((i for i, (a, e) in enumerate(zip(actual, EXPECTED)) if a != e), None)
    failures.check("pyarrow reads back every row (%d)" % len(EXPECTED), same and len(actual) == len(EXPECTED),
                   "%d rows; first difference at row %s: got %s, expected %s" %
                   (len(actual), first_bad, actual[first_bad] if first_bad is not None else None,
                    EXPECTED[first_bad] if first_bad is not None else None))


def check_schema():
    pf = pq.ParquetFile(path)
    paths = [pf.schema.column(i).path for i in range(len(pf.schema))]
    for want in ("tags.list.element", "attrs.key_value.key", "attrs.key_value.value",
                 "pts.list.element.ys.list.element", "m2.key_value.value.list.element",
                 "s.nums.list.element", "grid.list.element.list.element"):
        failures.check("Parquet column %s" % want, want in paths, "columns: %s" % paths)
    text = str(pf.schema)
    failures.check("lists annotated LIST, maps MAP", "(List)" in text and "(Map)" in text, text[:1500])
    arrow = pf.schema_arrow

    def field_id(field):
        return int((field.metadata or {}).get(b"PARQUET:field_id", b"-1"))

    tags = arrow.field("tags")
    attrs = arrow.field("attrs")
    pts = arrow.field("pts")
    ids = {
        "tags": field_id(tags), "tags.element": field_id(tags.type.value_field),
        "attrs": field_id(attrs), "attrs.key": field_id(attrs.type.key_field),
        "attrs.value": field_id(attrs.type.item_field),
        "pts.element": field_id(pts.type.value_field),
        "pts.element.ys.element": field_id(pts.type.value_type.field("ys").type.value_field),
    }
    want = {"tags": 2, "tags.element": 10, "attrs": 3, "attrs.key": 11, "attrs.value": 12, "pts.element": 13,
            "pts.element.ys.element": 16}
    failures.check("field ids on lists, maps and their elements, keys and values", ids == want,
                   "got %s" % ids)
    failures.check("several row groups", pf.metadata.num_row_groups > 1, str(pf.metadata.num_row_groups))
    total = sum(pf.metadata.row_group(i).num_rows for i in range(pf.metadata.num_row_groups))
    failures.check("row groups count records", total == len(EXPECTED), "%d vs %d" % (total, len(EXPECTED)))


def check_duckdb():
    import duckdb
    rows = duckdb.sql("SELECT * FROM read_parquet('%s')" % path)
    names = rows.columns
    actual = [dict(zip(names, r)) for r in rows.fetchall()]

    def as_duckdb(name, value):
        # DuckDB gives a map as a dict from key to value.
        if name in MAPS and value is not None:
            return {k: v for k, v in value}
        return value

    expected = [{k: as_duckdb(k, v) for k, v in row.items()} for row in EXPECTED]
    actual = [listify(row) for row in actual]
    first_bad = next((i for i, (a, e) in enumerate(zip(actual, expected)) if a != e), None)
    failures.check("DuckDB reads back every row (%d)" % len(expected), first_bad is None and len(actual) == len(expected),
                   "first difference at row %s: got %s, expected %s" %
                   (first_bad, actual[first_bad] if first_bad is not None else None,
                    expected[first_bad] if first_bad is not None else None))


failures.run("pyarrow reads the file", check_pyarrow)
failures.run("the file's schema", check_schema)
failures.run("DuckDB reads the file", check_duckdb)
failures.finish(STARTED)
