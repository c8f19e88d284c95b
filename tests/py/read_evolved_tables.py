"""Reads tables floe wrote with Iceberg's own readers and compares their rows with what the
caller expects: Spark (Iceberg Java's reader, iceberg-spark-runtime) and PyIceberg.

Usage: read_evolved_tables.py CASES.json
CASES.json: [{"name": ..., "metadata": "/path/to/NNNNN-....metadata.json",
              "expected": ["id|cat|v", ...]}, ...]
Spark runs when FLOE_PEERS_SPARK_ICEBERG_JAR is set. PyIceberg (0.12) cannot apply equality
deletes: a table holding them is reported as skipped by PyIceberg, never as passed.
Prints one line per case and reader; exits 1 when any reader's rows differ from the expected.
"""
import json
import os
import sys


def lines(rows):
    return sorted(f"{r[0]}|{r[1]}|{r[2]}" for r in rows)


def main():
    cases = json.load(open(sys.argv[1]))
    failed = False

    from pyiceberg.table import StaticTable

    for case in cases:
        try:
            table = StaticTable.from_metadata(case["metadata"])
            arrow = table.scan(selected_fields=("id", "cat", "v")).to_arrow()
            got = lines(zip(arrow["id"].to_pylist(), arrow["cat"].to_pylist(), arrow["v"].to_pylist()))
        except (ValueError, NotImplementedError) as e:
            if "equality deletes" in str(e):
                print(f"pyiceberg {case['name']}: skipped (equality deletes)")
                continue
            raise
        ok = got == sorted(case["expected"])
        failed |= not ok
        print(f"pyiceberg {case['name']}: {'ok' if ok else 'DIFFERENT'}")
        if not ok:
            print(f"  expected {sorted(case['expected'])}\n  got      {got}")

    jar = os.environ.get("FLOE_PEERS_SPARK_ICEBERG_JAR")
    if jar:
        from pyspark.sql import SparkSession

        spark = (
            SparkSession.builder.master("local[1]")
            .config("spark.jars", jar)
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.driver.memory", "512m")
            .config("spark.sql.shuffle.partitions", "1")
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")
        for case in cases:
            rows = spark.read.format("iceberg").load(case["metadata"]).select("id", "cat", "v").collect()
            got = lines(rows)
            ok = got == sorted(case["expected"])
            failed |= not ok
            print(f"spark {case['name']}: {'ok' if ok else 'DIFFERENT'}")
            if not ok:
                print(f"  expected {sorted(case['expected'])}\n  got      {got}")
        spark.stop()
    else:
        print("spark: skipped (FLOE_PEERS_SPARK_ICEBERG_JAR unset)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
