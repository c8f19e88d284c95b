"""floe's deletion vectors against Spark's (Spark 4.0 + Iceberg 1.11) for the same deletes on the
same data files: the bytes each engine writes, per delete.

floe creates a format 3 merge-on-read table of ROWS rows (bench/duckdb_peer.py make, partitioned
by country: 3 data files) and registers the same metadata a second time (`floe register`), so
the two tables share their data files and a row has the same position in both. Then DELETES
deletes of 1% of the rows, k = 0, 1, ...: floe runs each on the first table, Spark on the
second (Iceberg's JDBC catalog over floe's SQLite catalog). PATTERN is that of
bench/deletion_vector_bench.sh: spread (`order_id % 100 = k`) or range (a run of 1% of the ids).

Per delete: each engine's time, the bytes of the Puffin files its commit added (and how many
files), the sum of its live blobs' lengths, their cardinalities (must be equal), and how many
data files' blobs are equal bytes on both sides (with the Roaring containers they hold).

  bash bench/deletion_vector_spark_bench.sh [BUILD_DIR] [ROWS] [DELETES] [PATTERN]
       (defaults: build 10000000 10 spread)
"""

import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "interop"))
import dv_bytes  # noqa: E402
import interop_common as ic  # noqa: E402


def main():
    rows, deletes, pattern = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    if pattern not in ("spread", "range"):
        sys.exit("PATTERN must be spread or range")
    work = tempfile.mkdtemp(prefix="floe-dv-spark-bench-")
    floe = ic.Floe(work)
    floe.catalog = "sqlite://%s?catalog=floe" % floe.db  # Spark's JDBC catalog is named floe too
    print("%s, %d rows, %d deletes of 1%% (%s); floe on b.f, spark on b.s, the same data files"
          % (floe.run("--version").strip(), rows, deletes, pattern))
    print("load before: %s" % subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(), flush=True)
    source = os.path.join(work, "src.parquet")
    subprocess.run([sys.executable, os.path.join(HERE, "duckdb_peer.py"), "make", source, "-", str(rows)], check=True)
    floe.run("namespace", "create", "b")
    floe.run("create", "b.f", "--schema", "order_id long, country string, amount_cents long, ts timestamp",
             "--partition-by", "country", "--format-version", "3", "--property", "write.delete.mode=merge-on-read")
    floe.run("append", "b.f", source, timeout=600)
    floe.run("register", "b.s", floe.metadata_location("b.f"))
    started = time.monotonic()
    spark = ic.start_spark({"floe": ic.spark_jdbc_catalog(floe)}, app="floe-dv-bench",
                           extra_jars=[ic.java_jar("sqlite-jdbc")])
    print("spark started in %.1f s" % (time.monotonic() - started), flush=True)

    header = ("delete", "floe ms", "spark ms", "floe bytes", "spark bytes", "floe blobs", "spark blobs",
              "cardinality", "equal blobs", "containers (floe = spark when equal)")
    line = "%-6s %8s %8s %11s %11s %11s %11s %11s %11s  %s"
    print(line % header)
    ours_before, theirs_before = {}, {}
    totals = [0, 0, 0, 0]
    for k in range(deletes):
        where = "order_id %% 100 = %d" % k
        if pattern == "range":
            where = "order_id >= %d AND order_id < %d" % (k * rows // 100, (k + 1) * rows // 100)
        t0 = time.monotonic()
        floe.run("delete", "b.f", "--where", where, timeout=600)
        t1 = time.monotonic()
        spark.sql("DELETE FROM floe.b.s WHERE %s" % where)
        t2 = time.monotonic()
        ours, theirs = dv_bytes.floe_vectors(floe, "b.f"), dv_bytes.spark_vectors(spark, "floe.b.s")
        files_ours, bytes_ours = dv_bytes.puffin_files_added(ours_before, ours)
        files_theirs, bytes_theirs = dv_bytes.puffin_files_added(theirs_before, theirs)
        card_ours = sum(v.cardinality for v in ours.values())
        card_theirs = sum(v.cardinality for v in theirs.values())
        compared = dv_bytes.compare(ours, theirs)
        equal = sum(1 for c in compared if c[3])
        kinds = "; ".join(dv_bytes.kinds_text(c[4]) if c[3] else "floe %s, spark %s" %
                          (dv_bytes.kinds_text(c[4]), dv_bytes.kinds_text(c[5])) for c in compared)
        print(line % (k + 1, int((t1 - t0) * 1000), int((t2 - t1) * 1000),
                      "%d (%d)" % (bytes_ours, files_ours), "%d (%d)" % (bytes_theirs, files_theirs),
                      sum(v.length for v in ours.values()), sum(v.length for v in theirs.values()),
                      card_ours if card_ours == card_theirs else "%d != %d" % (card_ours, card_theirs),
                      "%d of %d" % (equal, len(compared)), kinds), flush=True)
        totals = [totals[0] + bytes_ours, totals[1] + bytes_theirs, totals[2] + files_ours, totals[3] + files_theirs]
        ours_before, theirs_before = ours, theirs
    print("total: floe %d bytes in %d Puffin files, spark %d bytes in %d Puffin files"
          % (totals[0], totals[2], totals[1], totals[3]))
    counts = [spark.sql("SELECT count(*) FROM floe.b.%s" % t).collect()[0][0] for t in ("f", "s")]
    print("rows left (spark counts): floe's table %d, spark's table %d" % tuple(counts))
    spark.stop()
    print("load after: %s" % subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    subprocess.run(["rm", "-rf", work], check=True)
    if counts[0] != counts[1]:
        sys.exit("the two tables differ")


main()
