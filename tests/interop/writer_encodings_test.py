"""floe's Parquet writer past its encoding decisions, read by the real engines: 150,000 rows, so
that each column chunk goes through the writer's choices that small tables never reach (a chunk
whose first 32,768 values are all distinct goes PLAIN; the dictionary-or-PLAIN probe of the first
page compresses a 65,536-value sample; pages are compressed on two threads and kept as pieces).
PyIceberg, DuckDB (iceberg_scan) and Spark (Iceberg's JDBC catalog over floe's SQLite catalog)
must each return exactly the rows floe was given, and the Parquet file must show the encodings
the writer chose (checked with DuckDB's parquet_metadata).

Run: FLOE_BINARY=build/floe $FLOE_PEERS_PYTHON tests/interop/writer_encodings_test.py
(FLOE_INTEROP_NO_SPARK=1 leaves Spark out.) Takes seconds, Spark's start-up most of them.
"""

import collections
import glob
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as ic  # noqa: E402

ic.skip_without_peers()
STARTED = time.monotonic()
failures = ic.Failures()
floe = ic.Floe(ic.workdir("writer-encodings"))
floe.catalog = "sqlite://%s?catalog=floe" % floe.db  # Spark's JDBC catalog is named floe
floe.run("namespace", "create", "t")

ROWS = 150000
COLUMNS = [("id", "long"), ("country", "string"), ("code", "string"), ("amount", "long"),
           ("cycle", "long"), ("price", "double")]
# column -> whether its chunk is dictionary-encoded
EXPECTED_DICTIONARY = {"id": False, "country": True, "code": False, "amount": True, "cycle": False, "price": True}


def rows():
    out, x = [], 88172645463325252
    for i in range(ROWS):
        x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 7
        x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
        out.append((None if i % 10 == 7 else i * 7 + 1000,   # distinct, with nulls
                    ("DE", "FR", "US")[x % 3],                # 3 values
                    "code-%d" % (ROWS - i),                   # distinct strings
                    x % 20000,                                # 20,000 values in random order
                    i % 40000,                                # distinct at first, then repeated
                    (x % 500) / 4.0))                         # 500 values
    return out


def same_rows(what, expected, actual):
    """ic.Failures.same_rows, with a mismatch found by counting (its list scans are quadratic)."""
    want, got = collections.Counter(map(tuple, expected)), collections.Counter(map(tuple, actual))
    missing, extra = list((want - got).elements()), list((got - want).elements())
    failures.check("%s (%d rows)" % (what, len(expected)), not missing and not extra,
                   "got %d rows; missing %s; unexpected %s" % (len(actual), missing[:3], extra[:3]))


EXPECTED = rows()
floe.run("create", "t.enc", "--schema", ", ".join("%s %s" % c for c in COLUMNS))
floe.append_parquet("t.enc", COLUMNS, EXPECTED)
expected = ic.canon_rows(COLUMNS, EXPECTED)
metadata = floe.metadata_location("t.enc")

failures.run("pyiceberg reads every row", lambda: same_rows(
    "pyiceberg", expected, ic.pyiceberg_read(metadata, COLUMNS)))

con = ic.duckdb_connect()
failures.run("duckdb iceberg_scan reads every row", lambda: same_rows(
    "duckdb", expected, ic.duckdb_read(con, "iceberg_scan('%s')" % metadata, COLUMNS)))


def encodings():
    files = glob.glob(os.path.join(floe.warehouse, "t", "enc", "data", "*.parquet"))
    failures.check("one data file", len(files) == 1, str(files))
    got = dict(con.execute("SELECT path_in_schema, bool_or(contains(encodings, 'DICTIONARY')) "
                           "FROM parquet_metadata('%s') GROUP BY ALL" % files[0]).fetchall())
    failures.check("encodings chosen", got == EXPECTED_DICTIONARY, "got %s" % got)


failures.run("the writer's encodings", encodings)

if ic.spark_available() and not os.environ.get("FLOE_INTEROP_NO_SPARK"):
    def spark_read():
        spark = ic.start_spark({"floe": ic.spark_jdbc_catalog(floe)}, extra_jars=[ic.java_jar("sqlite-jdbc")])
        got = spark.sql("SELECT %s FROM floe.t.enc" % ", ".join(n for n, _ in COLUMNS)).collect()
        same_rows("spark", expected, ic.spark_values(COLUMNS, [tuple(r) for r in got]))
        spark.stop()
    failures.run("spark reads every row", spark_read)
else:
    print("spark: not run (FLOE_PEERS_SPARK_ICEBERG_JAR unset, no java, or FLOE_INTEROP_NO_SPARK)")

failures.finish(STARTED)
