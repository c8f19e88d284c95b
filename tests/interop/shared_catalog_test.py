"""One catalog, every engine: writers take turns on the same tables and every engine must see
every commit.

Part 1, one SQLite catalog database: floe (its embedded catalog, catalog_name 'default'),
PyIceberg's SqlCatalog (configured by the .pyiceberg.yaml the README shows), Spark with Iceberg's
JDBC catalog (sqlite-jdbc) and DuckDB (iceberg_scan on the metadata file the database names).

Part 2, through `floe serve` on that database: PyIceberg's RestCatalog and Spark (type=rest)
create, insert, delete, update and merge; DuckDB attaches the REST catalog; floe reads it all.

Part 3, one PostgreSQL catalog database (when FLOE_TEST_PG_URI names a server; a database of its
own): floe, PyIceberg's SqlCatalog (psycopg2) and Spark with Iceberg's JDBC catalog (the
PostgreSQL driver) take turns under one catalog name; every engine, DuckDB too, sees every commit.

Run: FLOE_BINARY=build/floe $FLOE_PEERS_PYTHON tests/interop/shared_catalog_test.py
(FLOE_INTEROP_NO_SPARK=1 leaves Spark out.)
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as ic  # noqa: E402

ic.skip_without_peers()
STARTED = time.monotonic()
failures = ic.Failures()
home = ic.workdir("shared")
floe = ic.Floe(home)  # sqlite://<home>/warehouse/catalog.db: catalog_name 'default'
use_spark = ic.spark_available() and not os.environ.get("FLOE_INTEROP_NO_SPARK")

COLUMNS = [("id", "long"), ("who", "string"), ("amount", "long")]
# floe serve over the same database (a bearer token from a tokens file).
server = ic.FloeServer(floe, home)
SECRET = server.secret
rest_uri = server.uri

# The README's .pyiceberg.yaml, both catalogs (README: "Using floe with Spark, PyIceberg, DuckDB and Java").
with open(os.path.join(home, ".pyiceberg.yaml"), "w") as f:
    f.write("""catalog:
  default:                    # floe's SQLite catalog; the name is the catalog_name floe uses
    type: sql
    uri: sqlite:///%s
    warehouse: file://%s
  floe_rest:                  # floe serve
    type: rest
    uri: %s
    token: %s
""" % (floe.db, floe.warehouse, rest_uri, SECRET))
os.environ["PYICEBERG_HOME"] = home
from pyiceberg.catalog import load_catalog  # noqa: E402

spark = None
if use_spark:
    spark_started = time.monotonic()
    # Spark's catalog `default` is Iceberg's JDBC catalog on floe's database: its name is the
    # catalog_name floe wrote. `rest` is floe serve.
    spark = ic.start_spark({
        "default": dict(ic.spark_jdbc_catalog(floe), **{"cache-enabled": "false"}),
        "rest": {"type": "rest", "uri": rest_uri, "token": SECRET, "cache-enabled": "false"}},
        extra_jars=[ic.java_jar("sqlite-jdbc"), ic.java_jar("postgresql")])
    print("spark started in %.1f s" % (time.monotonic() - spark_started), flush=True)

failures.check("floe serve answers GET /v1/config", server.wait_ready())
duck = ic.duckdb_connect()


def spark_rows(sql):
    return ic.spark_values(COLUMNS, [tuple(r) for r in spark.sql(sql).collect()])


def everyone_sees(step, namespace, table, model, rest=False, on=None):
    """Every engine reads `namespace.table` after `step` and must find exactly `model`.
    on: (floe, PyIceberg catalog, Spark catalog name) of another shared database (part 3)."""
    expected = ic.canon_rows(COLUMNS, model)
    name = "%s.%s" % (namespace, table)
    floe_, catalog, spark_catalog = on or (floe, None, None)
    failures.run("floe after %s" % step, lambda: failures.same_rows(
        "floe reads %s after %s" % (name, step), expected, floe_.scan(name, COLUMNS)))
    catalog = catalog or load_catalog("floe_rest" if rest else "default")
    failures.run("pyiceberg after %s" % step, lambda: failures.same_rows(
        "pyiceberg reads %s after %s" % (name, step), expected,
        ic.canon_rows(COLUMNS, catalog.load_table(name).scan().to_arrow().to_pylist())))
    failures.run("duckdb after %s" % step, lambda: failures.same_rows(
        "duckdb reads %s after %s" % (name, step), expected,
        ic.duckdb_read(duck, "iceberg_scan('%s')" % floe_.metadata_location(name), COLUMNS)))
    if spark is not None:
        source = "rest.%s" % name if rest else "`%s`.%s" % (spark_catalog or "default", name)
        failures.run("spark after %s" % step, lambda: failures.same_rows(
            "spark reads %s after %s" % (name, step), expected, spark_rows("SELECT id, who, amount FROM " + source)))


# ---- part 1: writers take turns on one SQLite catalog database ------------------------------
def part_one():
    model = []
    floe.run("namespace", "create", "shared")
    floe.run("create", "shared.events", "--schema", "id long, who string, amount long", "--partition-by", "who",
             "--property", "write.delete.mode=merge-on-read", "--property", "write.update.mode=merge-on-read")
    rows = [[n, "floe", n * 10] for n in range(10)]
    floe.append_rows("shared.events", COLUMNS, rows)
    model += rows
    everyone_sees("floe append", "shared", "events", model)

    import pyarrow as pa
    sql_catalog = load_catalog("default")
    table = sql_catalog.load_table("shared.events")
    rows = [[n, "pyiceberg", n * 10] for n in range(10, 20)]
    table.append(pa.table({"id": pa.array([r[0] for r in rows], pa.int64()), "who": [r[1] for r in rows],
                           "amount": pa.array([r[2] for r in rows], pa.int64())}))
    model += rows
    everyone_sees("pyiceberg append", "shared", "events", model)

    if spark is not None:
        spark.sql("INSERT INTO `default`.shared.events SELECT id, 'spark', id * 10 FROM range(20, 30)")
        model += [[n, "spark", n * 10] for n in range(20, 30)]
        everyone_sees("spark insert", "shared", "events", model)

    floe.run("delete", "shared.events", "--where", "id % 3 = 0")
    model = [r for r in model if r[0] % 3]
    everyone_sees("floe delete (position deletes)", "shared", "events", model)

    sql_catalog.load_table("shared.events").delete(delete_filter="id >= 17 and id <= 22")
    model = [r for r in model if not 17 <= r[0] <= 22]
    everyone_sees("pyiceberg delete", "shared", "events", model)

    if spark is not None:
        spark.sql("UPDATE `default`.shared.events SET amount = -amount WHERE who = 'floe' OR id = 25")
        model = [[r[0], r[1], -r[2] if r[1] == "floe" or r[0] == 25 else r[2]] for r in model]
        everyone_sees("spark update (merge-on-read)", "shared", "events", model)

    floe.run("update", "shared.events", "--set", "amount = 7", "--where", "who = 'pyiceberg'")
    model = [[r[0], r[1], 7 if r[1] == "pyiceberg" else r[2]] for r in model]
    everyone_sees("floe update", "shared", "events", model)

    snapshot_counts = {"floe": len(floe.snapshot_ids("shared.events")),
                       "pyiceberg": len(sql_catalog.load_table("shared.events").snapshots())}
    if spark is not None:
        snapshot_counts["spark"] = spark.sql("SELECT count(*) FROM `default`.shared.events.snapshots").collect()[0][0]
    failures.check("every engine counts the same snapshots: %s" % snapshot_counts,
                   len(set(snapshot_counts.values())) == 1 and min(snapshot_counts.values()) >= 5)


failures.run("shared SQLite catalog", part_one)
print("part 1 done at %.1f s" % (time.monotonic() - STARTED), flush=True)


# ---- part 2: through floe serve -------------------------------------------------------------
def part_two():
    import pyarrow as pa
    rest = load_catalog("floe_rest")
    rest.create_namespace("viarest")
    from pyiceberg.schema import Schema
    from pyiceberg.types import LongType, NestedField, StringType
    schema = Schema(NestedField(1, "id", LongType(), required=False), NestedField(2, "who", StringType(), required=False),
                    NestedField(3, "amount", LongType(), required=False))
    table = rest.create_table("viarest.py_events", schema=schema)

    def arrow(rows):
        return pa.table({"id": pa.array([r[0] for r in rows], pa.int64()), "who": [r[1] for r in rows],
                         "amount": pa.array([r[2] for r in rows], pa.int64())})
    rows = [[n, "pyiceberg", n] for n in range(12)]
    table.append(arrow(rows))
    model = list(rows)
    rest.load_table("viarest.py_events").delete(delete_filter="id < 3")
    model = [r for r in model if r[0] >= 3]
    replacement = [[100, "pyiceberg", 1], [101, "pyiceberg", 2]]
    rest.load_table("viarest.py_events").overwrite(arrow(replacement), overwrite_filter="id >= 9")
    model = [r for r in model if r[0] < 9] + replacement
    floe.run("append", "viarest.py_events", write_jsonl([[200, "floe", 5]]))
    model += [[200, "floe", 5]]
    everyone_sees("pyiceberg append, delete, overwrite through floe serve and a floe append", "viarest", "py_events",
                  model, rest=True)

    # PyIceberg's upsert (its update and merge) on a table with a key, through floe serve.
    keyed = rest.create_table("viarest.py_keyed", schema=Schema(
        NestedField(1, "id", LongType(), required=True), NestedField(2, "who", StringType(), required=False),
        NestedField(3, "amount", LongType(), required=False), identifier_field_ids=[1]))
    def keyed_arrow(rows):
        return pa.table({"id": pa.array([r[0] for r in rows], pa.int64()), "who": [r[1] for r in rows],
                         "amount": pa.array([r[2] for r in rows], pa.int64())},
                        schema=pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("who", pa.string()),
                                          pa.field("amount", pa.int64())]))
    keyed.append(keyed_arrow([[n, "pyiceberg", n] for n in range(6)]))
    rest.load_table("viarest.py_keyed").upsert(keyed_arrow([[4, "upserted", 40], [5, "upserted", 50], [9, "new", 90]]))
    keyed_model = {n: [n, "pyiceberg", n] for n in range(6)}
    keyed_model.update({4: [4, "upserted", 40], 5: [5, "upserted", 50], 9: [9, "new", 90]})
    everyone_sees("pyiceberg upsert through floe serve", "viarest", "py_keyed", list(keyed_model.values()), rest=True)

    if spark is not None:
        for mode in ("copy-on-write", "merge-on-read"):
            name = "sp_" + mode.replace("-", "_")
            spark.sql("CREATE TABLE rest.viarest.%s (id bigint, who string, amount bigint) USING iceberg PARTITIONED BY "
                      "(bucket(2, id)) TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='%s', "
                      "'write.update.mode'='%s', 'write.merge.mode'='%s')" % (name, mode, mode, mode))
            spark.sql("INSERT INTO rest.viarest.%s SELECT id, 'spark', id FROM range(20)" % name)
            spark.sql("DELETE FROM rest.viarest.%s WHERE id %% 4 = 0" % name)
            spark.sql("UPDATE rest.viarest.%s SET amount = amount * 100 WHERE id %% 4 = 1" % name)
            spark.sql("""MERGE INTO rest.viarest.%s t USING (SELECT id, 'merged' AS who, -id AS amount FROM range(15, 25)) s
                         ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *""" % name)
            model = {n: [n, "spark", n * 100 if n % 4 == 1 else n] for n in range(20) if n % 4}
            model.update({n: [n, "merged", -n] for n in range(15, 25)})
            everyone_sees("spark insert, delete, update, merge (%s) through floe serve" % mode, "viarest", name,
                          list(model.values()), rest=True)

    # DuckDB attaches floe serve as an Iceberg REST catalog, reads, and writes a table of its own.
    def duckdb_attach():
        duck.execute("LOAD '%s'" % os.path.join(os.environ["FLOE_PEERS_DUCKDB_EXTENSIONS"], "httpfs.duckdb_extension"))
        duck.execute("CREATE SECRET floe_secret (TYPE iceberg, TOKEN '%s')" % SECRET)
        # The warehouse named is the served catalog's name (or its warehouse path): floe serve
        # answers another name with 404 NoSuchWarehouseException.
        duck.execute("ATTACH 'default' AS floe_rest (TYPE iceberg, SECRET floe_secret, ENDPOINT '%s')" % rest_uri)
        failures.same_rows("duckdb reads viarest.py_events through ATTACH", ic.canon_rows(COLUMNS, model_py),
                           ic.duckdb_read(duck, "floe_rest.viarest.py_events", COLUMNS))
        duck.execute("CREATE TABLE floe_rest.viarest.duck_events (id BIGINT, who VARCHAR, amount BIGINT)")
        duck.execute("INSERT INTO floe_rest.viarest.duck_events SELECT range, 'duckdb', range * 3 FROM range(8)")
        duck.execute("INSERT INTO floe_rest.viarest.duck_events VALUES (8, NULL, NULL)")
        duck.execute("DELETE FROM floe_rest.viarest.duck_events WHERE id = 2")
        duck.execute("UPDATE floe_rest.viarest.duck_events SET amount = 1000 WHERE id = 5")
        expected = ic.canon_rows(COLUMNS, [[n, "duckdb", 1000 if n == 5 else n * 3] for n in range(8) if n != 2] +
                                 [[8, None, None]])
        failures.same_rows("floe reads the table DuckDB created, filled, deleted from and updated through floe serve",
                           expected,
                           floe.scan("viarest.duck_events", COLUMNS))
        failures.same_rows("pyiceberg reads DuckDB's table through floe serve", expected, ic.canon_rows(
            COLUMNS, rest.load_table("viarest.duck_events").scan().to_arrow().to_pylist()))
    model_py = model_of_py_events = None  # noqa: F841 - set below, read by duckdb_attach
    model_py = [r for r in rows if 3 <= r[0] < 9] + replacement + [[200, "floe", 5]]
    failures.run("duckdb ATTACH to floe serve", duckdb_attach)


def write_jsonl(rows):
    path = os.path.join(home, "rows-%d.jsonl" % time.monotonic_ns())
    import json
    with open(path, "w") as f:
        for r in rows:
            f.write(json.dumps(dict(zip([n for n, _ in COLUMNS], r))) + "\n")
    return path


# ---- part 3: writers take turns on one PostgreSQL catalog database ---------------------------
def part_three(pg_uri):
    import pyarrow as pa
    import subprocess
    base = pg_uri.split("?", 1)[0].rsplit("/", 1)[0]
    database = "shared_catalog_%d" % os.getpid()
    subprocess.run(["psql", base + "/postgres", "-qc", "CREATE DATABASE " + database], check=True,
                   capture_output=True, timeout=60)
    try:
        # One catalog name for all three: Iceberg's JDBC catalog and PyIceberg's SqlCatalog use
        # their own catalog's name as catalog_name, floe the ?catalog= of its URI.
        name = "pgshared"
        warehouse = os.path.join(home, "pg-warehouse")
        os.makedirs(warehouse, exist_ok=True)
        pg_floe = ic.Floe(home, catalog="%s/%s?catalog=%s&warehouse=%s" % (base, database, name, warehouse))
        sql_catalog = load_catalog(name, **{"type": "sql", "uri": "postgresql+psycopg2://%s/%s" % (
            base.split("://", 1)[1], database), "warehouse": "file://" + warehouse})
        if spark is not None:
            host = base.split("://", 1)[1]
            user, _, hostport = host.rpartition("@")
            spark.conf.set("spark.sql.catalog.%s" % name, "org.apache.iceberg.spark.SparkCatalog")
            for key, value in {"type": "jdbc", "uri": "jdbc:postgresql://%s/%s" % (hostport, database),
                               "jdbc.user": user or "postgres", "warehouse": warehouse,
                               "jdbc.schema-version": "V0", "cache-enabled": "false"}.items():
                spark.conf.set("spark.sql.catalog.%s.%s" % (name, key), value)
        on = (pg_floe, sql_catalog, name)

        pg_floe.run("namespace", "create", "pg")
        pg_floe.run("create", "pg.events", "--schema", "id long, who string, amount long", "--partition-by", "who",
                    "--property", "write.delete.mode=merge-on-read")
        model = [[n, "floe", n] for n in range(8)]
        pg_floe.append_rows("pg.events", COLUMNS, model)
        everyone_sees("floe append (PostgreSQL)", "pg", "events", model, on=on)

        rows = [[n, "pyiceberg", n] for n in range(8, 16)]
        sql_catalog.load_table("pg.events").append(pa.table({
            "id": pa.array([r[0] for r in rows], pa.int64()), "who": [r[1] for r in rows],
            "amount": pa.array([r[2] for r in rows], pa.int64())}))
        model += rows
        everyone_sees("pyiceberg append (PostgreSQL)", "pg", "events", model, on=on)

        if spark is not None:
            spark.sql("""MERGE INTO %s.pg.events t USING (SELECT id, 'spark' AS who, id * 100 AS amount
                         FROM range(12, 20)) s ON t.id = s.id
                         WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *""" % name)
            model = [r for r in model if r[0] < 12] + [[n, "spark", n * 100] for n in range(12, 20)]
            everyone_sees("spark merge (PostgreSQL)", "pg", "events", model, on=on)

        pg_floe.run("delete", "pg.events", "--where", "id % 2 = 1")
        model = [r for r in model if r[0] % 2 == 0]
        everyone_sees("floe delete (PostgreSQL)", "pg", "events", model, on=on)

        sql_catalog.load_table("pg.events").delete(delete_filter="id >= 14")
        model = [r for r in model if r[0] < 14]
        everyone_sees("pyiceberg delete (PostgreSQL)", "pg", "events", model, on=on)
    finally:
        subprocess.run(["psql", base + "/postgres", "-qc", "DROP DATABASE IF EXISTS %s WITH (FORCE)" % database],
                       capture_output=True, timeout=60)


try:
    failures.run("through floe serve", part_two)
    if os.environ.get("FLOE_TEST_PG_URI"):
        failures.run("shared PostgreSQL catalog", lambda: part_three(os.environ["FLOE_TEST_PG_URI"]))
        print("part 3 done at %.1f s" % (time.monotonic() - STARTED), flush=True)
    else:
        print("part 3 (PostgreSQL): not run (FLOE_TEST_PG_URI unset; scripts/pg.sh)")
finally:
    if spark is not None:
        spark.stop()
    status = server.stop()
failures.check("floe serve exited cleanly on SIGTERM", status in (0, -15), "exit %s" % status)
failures.finish(STARTED)
