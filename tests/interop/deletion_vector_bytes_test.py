"""floe's deletion vectors are byte for byte Iceberg Java's: the same deletes on the same data
files, run by floe on one table and by Spark (Iceberg 1.11's writer) on a twin registered over
the same files, leave blobs that are equal bytes for every data file, with equal cardinalities.
The deletes make every kind of Roaring container: a prefix of each file (a run), every 100th
row on top of it (runs and arrays mixed: run-optimization must choose as Java does), then a
third of the rows (bitmaps). A vector that floe serializes differently (no run containers, a
different choice between run and array or bitmap, another layout of the 64-bit bitmap) fails
here, naming the data file and the containers on each side. (At a tie between array
and runs, the same bytes either way, CRoaring takes the runs and Java the array, and Java's
choice also depends on whether the vector was merged with one holding runs: these deletes make
no tie. floe's encoder against Java's on fixed positions, ties named, is
DeletionVector.SamePositionsAreJavasBytes in floe_parquet_tests.)

Run: FLOE_BINARY=build/floe $FLOE_PEERS_PYTHON tests/interop/deletion_vector_bytes_test.py
(needs Spark: FLOE_PEERS_SPARK_ICEBERG_JAR; skipped without it.)
"""

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dv_bytes  # noqa: E402
import interop_common as ic  # noqa: E402

ic.skip_without_peers()
if not ic.spark_available() or not ic.java_jar("sqlite-jdbc"):
    print("skipped: no peers (Spark or the SQLite JDBC driver missing)")
    sys.exit(0)
STARTED = time.monotonic()
failures = ic.Failures()
floe = ic.Floe(ic.workdir("dv-bytes"))
floe.catalog = "sqlite://%s?catalog=floe" % floe.db  # Spark's JDBC catalog is named floe too
floe.run("namespace", "create", "dv")

ROWS = 200000  # ~67k rows per data file: two 16-bit containers each
COLUMNS = [("id", "long"), ("country", "string")]
shuffle = random.Random(37)
data = [(n, ("DE", "FR", "US")[shuffle.randrange(3)]) for n in range(ROWS)]
floe.run("create", "dv.f", "--schema", "id long, country string", "--partition-by", "country",
         "--format-version", "3", "--property", "write.delete.mode=merge-on-read")
floe.append_parquet("dv.f", COLUMNS, data)
floe.run("register", "dv.s", floe.metadata_location("dv.f"))
DELETES = [("id < 30000", lambda n: n < 30000), ("id % 100 = 0", lambda n: n % 100 == 0),
           ("id % 3 = 1", lambda n: n % 3 == 1)]
left = set(range(ROWS))

spark = ic.start_spark({"floe": ic.spark_jdbc_catalog(floe)}, extra_jars=[ic.java_jar("sqlite-jdbc")])
print("floe's table and spark started in %.1f s" % (time.monotonic() - STARTED), flush=True)


def one_delete(where, deleted):
    floe.run("delete", "dv.f", "--where", where)
    spark.sql("DELETE FROM floe.dv.s WHERE %s" % where)
    left.difference_update(n for n in range(ROWS) if deleted(n))
    rows = ROWS - len(left)
    ours, theirs = dv_bytes.floe_vectors(floe, "dv.f"), dv_bytes.spark_vectors(spark, "floe.dv.s")
    failures.check("%s: both engines have a vector for each of the 3 data files" % where,
                   len(ours) == 3 and set(ours) == set(theirs), "floe %s, spark %s" % (sorted(ours), sorted(theirs)))
    failures.check("%s: cardinalities add up to the %d deleted rows on both sides" % (where, rows),
                   sum(v.cardinality for v in ours.values()) == rows == sum(v.cardinality for v in theirs.values()),
                   "floe %s, spark %s" % ([v.cardinality for v in ours.values()],
                                          [v.cardinality for v in theirs.values()]))
    for name, f, s, equal, fk, sk in dv_bytes.compare(ours, theirs):
        failures.check("%s: %s: floe's blob is spark's, byte for byte (%s bytes, %s)" %
                       (where, name, f.length if f else "-", dv_bytes.kinds_text(fk)),
                       equal and f.cardinality == s.cardinality,
                       "floe: %s bytes, cardinality %s, %s; spark: %s bytes, cardinality %s, %s" %
                       (f and f.length, f and f.cardinality, dv_bytes.kinds_text(fk),
                        s and s.length, s and s.cardinality, dv_bytes.kinds_text(sk)))
    return ours


kinds = set()
for where, deleted in DELETES:
    for _, _, _, _, fk, _ in dv_bytes.compare(one_delete(where, deleted), {}):
        kinds.update(k for k in ("array", "bitmap", "run") if fk and fk[k])
failures.check("the deletes made array, bitmap and run containers", kinds == {"array", "bitmap", "run"},
               "made %s" % sorted(kinds))
expected = ic.canon_rows(COLUMNS, [data[n] for n in sorted(left)])
failures.same_rows("floe reads spark's twin", expected, floe.scan("dv.s", COLUMNS))
spark.stop()
failures.finish(STARTED)
