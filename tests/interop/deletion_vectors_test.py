"""Format 3 deletion vectors, both ways: floe's merge-on-read deletes and updates on a v3 table
write deletion vectors (Puffin files of Roaring bitmaps, one vector per data file), and
PyIceberg, DuckDB, Iceberg Java's generic reader and Spark must read exactly the rows floe was
left with; then Spark deletes from the same data files (its vectors must carry floe's positions)
and floe reads Spark's vectors, and floe deletes again on top of Spark's (carrying Spark's
positions) while Spark reads floe's. Every reader is compared with a model of the rows, not
with floe's own scan.

Run: FLOE_BINARY=build/floe $FLOE_PEERS_PYTHON tests/interop/deletion_vectors_test.py
(FLOE_INTEROP_NO_SPARK=1 leaves Spark out.)
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
floe = ic.Floe(ic.workdir("deletion-vectors"))
floe.catalog = "sqlite://%s?catalog=floe" % floe.db  # Spark's JDBC catalog is named floe too
floe.run("namespace", "create", "dv")

COLUMNS = [("id", "long"), ("cat", "string"), ("amount", "long")]
TABLE = "dv.t"
model = {n: [n, "abc"[n % 3], n * 10] for n in range(300)}


def rows():
    return ic.canon_rows(COLUMNS, [tuple(r) for r in model.values()])


def delete_files(table):
    """The live delete entries of the table's current snapshot, as `floe delete-files` lists them."""
    out = floe.run("delete-files", table, "--format", "jsonl")
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def check_vectors(label):
    """Every delete is a deletion vector, at most one per data file."""
    entries = delete_files(TABLE)
    formats = sorted({(e["content"], e["file_format"]) for e in entries})
    failures.check("%s: deletes are deletion vectors" % label, formats in ([], [(1, "PUFFIN")]), "got %s" % formats)
    referenced = [e["referenced_data_file"] for e in entries]
    failures.check("%s: one vector per data file" % label, len(referenced) == len(set(referenced)),
                   "referenced: %s" % referenced)
    return entries


floe.run("create", TABLE, "--schema", "id long, cat string, amount long", "--partition-by", "cat",
         "--format-version", "3", "--property", "write.delete.mode=merge-on-read",
         "--property", "write.update.mode=merge-on-read")
floe.append_rows(TABLE, COLUMNS, [model[n] for n in range(150)])
floe.append_rows(TABLE, COLUMNS, [model[n] for n in range(150, 300)])
floe.run("delete", TABLE, "--where", "id % 4 = 1")
for n in [n for n in model if n % 4 == 1]:
    del model[n]
floe.run("delete", TABLE, "--where", "id % 4 = 2 AND id < 200")  # vectors merged with the first ones
for n in [n for n in model if n % 4 == 2 and n < 200]:
    del model[n]
floe.run("update", TABLE, "--set", "amount = amount + 7", "--where", "cat = 'b' AND id > 100")
for r in model.values():
    if r[1] == "b" and r[0] > 100:
        r[2] += 7
entries = check_vectors("floe's deletes")
failures.check("floe wrote one Puffin file per commit", len({e["file_path"] for e in entries}) <= 3,
               "files: %s" % sorted({e["file_path"] for e in entries}))
# Compaction of one partition drops that partition's vectors with the data they point at.
floe.run("rewrite-data-files", TABLE, "--where", "cat = 'a'", "--min-input-files", "1")
after_compaction = check_vectors("after compaction of cat = 'a'")
failures.check("compaction dropped cat = 'a''s vectors",
               all("cat=a" not in e["referenced_data_file"] for e in after_compaction),
               "left: %s" % [e["referenced_data_file"] for e in after_compaction])
metadata = floe.metadata_location(TABLE)
expected_floe = rows()
failures.same_rows("floe reads its own vectors", expected_floe, floe.scan(TABLE, COLUMNS))
print("floe wrote its deletion vectors in %.1f s" % (time.monotonic() - STARTED), flush=True)


def pyiceberg():
    from pyiceberg.table import StaticTable
    scan = StaticTable.from_metadata(metadata).scan(selected_fields=tuple(n for n, _ in COLUMNS))
    failures.same_rows("pyiceberg reads floe's vectors", expected_floe,
                       ic.canon_rows(COLUMNS, ic.pyiceberg_values(scan.to_arrow(), COLUMNS)))


failures.run("pyiceberg reads floe's vectors", pyiceberg)


def duckdb():
    con = ic.duckdb_connect()
    try:
        got = ic.duckdb_read(con, "iceberg_scan('%s')" % metadata, COLUMNS)
    except Exception as error:  # noqa: BLE001: the peer's own refusal is the finding
        failures.check("duckdb reads floe's vectors (DuckDB's iceberg extension refused: %s)" % error, False)
        return
    failures.same_rows("duckdb reads floe's vectors", expected_floe, got)


failures.run("duckdb reads floe's vectors", duckdb)

if ic.java_available():
    label = "java generic reader reads floe's vectors"
    answers = {}
    failures.run(label, lambda: answers.update(ic.java_generic_read(
        [{"label": label, "metadata": metadata, "columns": COLUMNS, "snapshot_id": None, "ref": None}], floe.workdir)))
    got = answers.get(label)
    if isinstance(got, Exception) or got is None:
        failures.check(label, False, str(got))
    else:
        failures.same_rows(label, expected_floe, got)
else:
    print("java: not run (FLOE_PEERS_JAVA_JARS unset or no java)")


def spark_round_trip(spark):
    select = "SELECT id, cat, amount FROM floe.%s" % TABLE

    def spark_rows():
        return ic.spark_values(COLUMNS, [tuple(r) for r in spark.sql(select).collect()])

    failures.same_rows("spark reads floe's vectors", expected_floe, spark_rows())
    # Spark deletes from the same data files: its vectors must carry floe's positions.
    spark.sql("DELETE FROM floe.%s WHERE id %% 4 = 3 AND id < 250" % TABLE)
    for n in [n for n in model if n % 4 == 3 and n < 250]:
        del model[n]
    kinds = sorted({(r[0], r[1]) for r in spark.sql("SELECT content, file_format FROM floe.%s.delete_files" % TABLE).collect()})
    failures.check("spark wrote deletion vectors", kinds == [(1, "PUFFIN")], "got %s" % kinds)
    failures.same_rows("spark's delete on floe's vectors (spark reads)", rows(), spark_rows())
    failures.same_rows("floe reads spark's vectors", rows(), floe.scan(TABLE, COLUMNS))
    # floe deletes again on top of Spark's vectors, and updates a row Spark's vector spares.
    floe.run("delete", TABLE, "--where", "id % 5 = 0")
    for n in [n for n in model if n % 5 == 0]:
        del model[n]
    floe.run("update", TABLE, "--set", "amount = -1", "--where", "id = 298")
    model[298][2] = -1
    check_vectors("floe's delete on spark's vectors")
    spark.sql("REFRESH TABLE floe.%s" % TABLE)
    failures.same_rows("floe's delete on spark's vectors (spark reads)", rows(), spark_rows())
    failures.same_rows("floe's delete on spark's vectors (floe reads)", rows(), floe.scan(TABLE, COLUMNS))


if ic.spark_available() and not os.environ.get("FLOE_INTEROP_NO_SPARK"):
    spark_started = time.monotonic()
    spark = ic.start_spark({"floe": ic.spark_jdbc_catalog(floe)}, extra_jars=[ic.java_jar("sqlite-jdbc")])
    print("spark started in %.1f s" % (time.monotonic() - spark_started), flush=True)
    failures.run("spark and floe on one table's vectors", lambda: spark_round_trip(spark))
    spark.stop()
else:
    print("spark: not run (FLOE_PEERS_SPARK_ICEBERG_JAR unset, no java, or FLOE_INTEROP_NO_SPARK)")

failures.finish(STARTED)
