"""floe writes, the real engines read: every table shape floe writes is read back by PyIceberg
(StaticTable on the metadata file), DuckDB (iceberg_scan on the metadata file), Iceberg Java's
generic reader (the metadata file, tests/interop/java/GenericRead.java) and Spark (Iceberg's JDBC
catalog over floe's SQLite catalog database), and each must return exactly the
rows floe was given, with their types, including through filters that prune partitions and at
older snapshots, branches and tags.

Run: FLOE_BINARY=build/floe $FLOE_PEERS_PYTHON tests/interop/floe_to_engines_test.py
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
floe = ic.Floe(ic.workdir("floe-writes"))
floe.catalog = "sqlite://%s?catalog=floe" % floe.db  # Spark's JDBC catalog is named floe: same catalog_name
floe.run("namespace", "create", "t")

D = decimal.Decimal
U = dt.timezone.utc


class Read:
    """One read of a case: at a snapshot or ref, through a filter, with the rows it must return."""

    def __init__(self, label, expected, snapshot_id=None, ref=None, where=None, spark_version=None):
        self.label, self.expected = label, expected
        self.snapshot_id, self.ref, self.where = snapshot_id, ref, where
        self.spark_version = spark_version  # Spark: VERSION AS OF <id> or '<tag>'; a branch: table.branch_<name>


class Case:
    def __init__(self, table, columns, reads, equality_deletes=False, spark=True):
        self.table, self.columns, self.reads = table, columns, reads
        self.spark = spark
        self.equality_deletes = equality_deletes
        self.metadata = floe.metadata_location(table)


def current_snapshot(table):
    with open(floe.metadata_location(table)) as f:
        return json.load(f)["current-snapshot-id"]


def where(sql, pyiceberg, predicate, spark=None):
    """A filter in each engine's syntax and as a Python predicate on the input rows."""
    return {"sql": sql, "pyiceberg": pyiceberg, "keep": predicate, "spark": spark or sql}


def delete_contents(table):
    """The kinds of delete files the table's current snapshot holds (1 position, 2 equality)."""
    out = floe.run("delete-files", table, "--format", "jsonl")
    return sorted({json.loads(line)["content"] for line in out.splitlines() if line.strip()})


def shape(table, want_contents):
    got = delete_contents(table)
    failures.check("%s holds delete files of content %s" % (table, want_contents), got == want_contents, "got %s" % got)


cases = []

# ---- every primitive type, with NULLs --------------------------------------------------------
PRIMS = [("id", "long"), ("b", "boolean"), ("i", "int"), ("l", "long"), ("f", "float"), ("d", "double"),
         ("dec", "decimal(10,2)"), ("dt", "date"), ("ts", "timestamp"), ("tstz", "timestamptz"),
         ("s", "string"), ("u", "uuid"), ("fx", "fixed[4]"), ("bin", "binary")]


def prim_row(n):
    if n % 5 == 4:
        return [n] + [None] * (len(PRIMS) - 1)
    sign = -1 if n % 2 else 1
    return [n, n % 3 == 0, sign * (2**31 - 1 - n), sign * (2**62 + n), sign * (1.5 + n), sign * (1e300 / (n + 1)),
            D("%d.%02d" % (sign * 12345678, n)), dt.date(1969 + n * 7, 12, 31 - n), dt.datetime(1960 + n * 5, 2, 29 if n % 4 == 0 else 28, n, 1, 2, 999999 - n),
            dt.datetime(2024, 3, 10, n, 30, 0, 1000 * n, tzinfo=U), ["", "a", "ünïcödé ✓", "quote\"'\n", "x" * 300][n % 5],
            uuid.UUID(int=(n * 0x123456789ABCDEF) << 64 | n), bytes([n, 0, 255, n]), bytes(range(n % 7))]


prim_rows_1 = [prim_row(n) for n in range(0, 10)]
prim_rows_2 = [prim_row(n) for n in range(10, 15)]
floe.run("create", "t.prims", "--schema", ", ".join("%s %s" % c for c in PRIMS))
floe.append_parquet("t.prims", PRIMS, prim_rows_1)
first = current_snapshot("t.prims")
floe.append_parquet("t.prims", PRIMS, prim_rows_2)
cases.append(Case("t.prims", PRIMS, [Read("all rows", prim_rows_1 + prim_rows_2),
                                     Read("first snapshot", prim_rows_1, snapshot_id=first, spark_version=first)]))

# Spark has no time type (Iceberg's Spark runtime refuses a table with one: "Spark does not
# support time fields"), so time gets a table of its own that Spark does not read.
TIMES = [("id", "long"), ("tm", "time")]
time_rows = [[0, dt.time(0, 0)], [1, dt.time(23, 59, 59, 999999)], [2, dt.time(12, 30, 1, 5)], [3, None]]
floe.run("create", "t.times", "--schema", "id long, tm time")
floe.append_parquet("t.times", TIMES, time_rows)
cases.append(Case("t.times", TIMES, [Read("all rows", time_rows)], spark=False))

# ---- partition transforms (filters on the source column make the readers prune by floe's
# partition values: a wrong bucket hash or day number loses rows) ---------------------------
PART = [("id", "long"), ("cat", "string"), ("amount", "long"), ("dt", "date"), ("ts", "timestamp"),
        ("tstz", "timestamptz")]


def part_row(n):
    return [n, ["apple", "apricot", "banana", "cherry", None][n % 5], (n * 37) % 101 - 50,
            dt.date(2019 + n % 4, 1 + n % 12, 1 + n % 28), dt.datetime(2024, 1 + n % 3, 1 + n % 28, n % 24, 15),
            dt.datetime(2024, 2, 1 + n % 5, (n * 5) % 24, 0, tzinfo=U)]


part_rows = [part_row(n) for n in range(40)] + [[40, None, None, None, None, None]]
partitionings = {
    "p_identity_bucket": ("cat, bucket(4, id)", [where("cat = 'banana'", "cat = 'banana'", lambda r: r[1] == "banana"),
                                                 where("id = 17", "id = 17", lambda r: r[0] == 17)]),
    "p_bucket_string": ("bucket(3, cat)", [where("cat = 'cherry'", "cat = 'cherry'", lambda r: r[1] == "cherry")]),
    "p_truncate": ("truncate(2, cat), truncate(10, amount)",
                   [where("cat = 'apricot'", "cat = 'apricot'", lambda r: r[1] == "apricot"),
                    where("amount >= 20", "amount >= 20", lambda r: r[2] is not None and r[2] >= 20)]),
    "p_year": ("year(dt)", [where("dt >= DATE '2021-01-01'", "dt >= '2021-01-01'",
                                  lambda r: r[3] is not None and r[3] >= dt.date(2021, 1, 1))]),
    "p_month": ("month(ts)", [where("ts < TIMESTAMP '2024-02-01 00:00:00'", "ts < '2024-02-01T00:00:00'",
                                    lambda r: r[4] is not None and r[4] < dt.datetime(2024, 2, 1))]),
    "p_day": ("day(tstz)", [where("tstz = TIMESTAMPTZ '2024-02-03 05:00:00+00'", "tstz = '2024-02-03T05:00:00+00:00'",
                                  lambda r: r[5] == dt.datetime(2024, 2, 3, 5, tzinfo=U),
                                  spark="tstz = TIMESTAMP '2024-02-03 05:00:00+00:00'")]),
    "p_hour": ("hour(ts)", [where("ts >= TIMESTAMP '2024-03-01 20:00:00'", "ts >= '2024-03-01T20:00:00'",
                                  lambda r: r[4] is not None and r[4] >= dt.datetime(2024, 3, 1, 20))]),
}
for name, (spec, filters) in partitionings.items():
    floe.run("create", "t." + name, "--schema", ", ".join("%s %s" % c for c in PART), "--partition-by", spec)
    floe.append_rows("t." + name, PART, part_rows[:25])
    floe.append_rows("t." + name, PART, part_rows[25:])
    reads = [Read("all rows", part_rows)]
    reads += [Read("where " + f["sql"], [r for r in part_rows if f["keep"](r)], where=f) for f in filters]
    cases.append(Case("t." + name, PART, reads))

# ---- row-level changes: copy-on-write and merge-on-read deletes and updates -----------------
ROWS = [("id", "long"), ("cat", "string"), ("amount", "long")]
base_rows = [[n, "abc"[n % 3], n * 10] for n in range(30)]
for mode in ("copy-on-write", "merge-on-read"):
    table = "t.rows_" + mode.replace("-", "_")
    floe.run("create", table, "--schema", "id long, cat string, amount long", "--partition-by", "cat",
             "--property", "write.delete.mode=" + mode, "--property", "write.update.mode=" + mode)
    floe.append_rows(table, ROWS, base_rows[:15])
    floe.append_rows(table, ROWS, base_rows[15:])
    floe.run("delete", table, "--where", "id % 4 = 1")
    after_delete = [r for r in base_rows if r[0] % 4 != 1]
    snapshot_after_delete = current_snapshot(table)
    floe.run("update", table, "--set", "amount = amount + 1000", "--where", "cat = 'b' OR id = 2")
    expected = [[r[0], r[1], r[2] + 1000 if (r[1] == "b" or r[0] == 2) else r[2]] for r in after_delete]
    shape(table, [1] if mode == "merge-on-read" else [])
    cases.append(Case(table, ROWS, [Read("after delete and update", expected),
                                    Read("after delete", after_delete, snapshot_id=snapshot_after_delete,
                                         spark_version=snapshot_after_delete),
                                    Read("where cat = 'a'", [r for r in expected if r[1] == "a"],
                                         where=where("cat = 'a'", "cat = 'a'", None))]))

# ---- upserts: equality deletes (merge-on-read) and rewritten files (copy-on-write) ----------
for mode in ("merge-on-read", "copy-on-write"):
    table = "t.upsert_" + mode.replace("-", "_")
    floe.run("create", table, "--schema", "id long, cat string, amount long", "--identifier", "id",
             "--partition-by", "bucket(2, id)", "--property", "write.merge.mode=" + mode)
    floe.append_rows(table, ROWS, base_rows[:20])
    changes = [[n, "z", -n] for n in range(15, 25)]
    floe.append_rows(table, ROWS, changes, command="upsert")
    changes2 = [[n, "y", n * n] for n in (0, 16, 40)]
    floe.append_rows(table, ROWS, changes2, command="upsert")
    model = {r[0]: r for r in base_rows[:20]}
    model.update({r[0]: r for r in changes})
    model.update({r[0]: r for r in changes2})
    shape(table, [2] if mode == "merge-on-read" else [])
    cases.append(Case(table, ROWS, [Read("after two upserts", list(model.values()))],
                      equality_deletes=mode == "merge-on-read"))

# ---- schema evolution: add, rename, drop ---------------------------------------------------
floe.run("create", "t.evolve", "--schema", "id long, old_name string, gone double")
floe.append_rows("t.evolve", [("id", "long"), ("old_name", "string"), ("gone", "double")],
                 [[1, "one", 1.5], [2, None, 2.5]])
floe.run("schema", "add-column", "t.evolve", "added", "decimal(9,3)")
floe.run("schema", "rename-column", "t.evolve", "old_name", "new_name")
floe.run("schema", "drop-column", "t.evolve", "gone")
EVOLVED = [("id", "long"), ("new_name", "string"), ("added", "decimal(9,3)")]
floe.append_rows("t.evolve", EVOLVED, [[3, "three", D("3.125")], [4, "four", None]])
cases.append(Case("t.evolve", EVOLVED, [Read("rows of both schemas",
                                             [[1, "one", None], [2, None, None], [3, "three", D("3.125")],
                                              [4, "four", None]])]))

# ---- partition evolution -------------------------------------------------------------------
floe.run("create", "t.spec_evolve", "--schema", "id long, cat string, ts timestamp", "--partition-by", "cat")
SPEC = [("id", "long"), ("cat", "string"), ("ts", "timestamp")]
spec_rows = [[n, "ab"[n % 2], dt.datetime(2024, 1, 1 + n, 12)] for n in range(12)]
floe.append_rows("t.spec_evolve", SPEC, spec_rows[:4])
floe.run("partition-spec", "add", "t.spec_evolve", "day(ts)")
floe.append_rows("t.spec_evolve", SPEC, spec_rows[4:8])
floe.run("partition-spec", "remove", "t.spec_evolve", "cat")
floe.append_rows("t.spec_evolve", SPEC, spec_rows[8:])
cases.append(Case("t.spec_evolve", SPEC, [
    Read("rows of three specs", spec_rows),
    Read("where cat = 'b'", [r for r in spec_rows if r[1] == "b"], where=where("cat = 'b'", "cat = 'b'", None)),
    Read("where ts < 2024-01-07", [r for r in spec_rows if r[2] < dt.datetime(2024, 1, 7)],
         where=where("ts < TIMESTAMP '2024-01-07 00:00:00'", "ts < '2024-01-07T00:00:00'", None))]))

# ---- branches, tags and time travel --------------------------------------------------------
floe.run("create", "t.refs", "--schema", "id long, cat string, amount long")
floe.append_rows("t.refs", ROWS, base_rows[:5])
s1 = current_snapshot("t.refs")
floe.run("tag", "create", "t.refs", "v1")
floe.append_rows("t.refs", ROWS, base_rows[5:10])
s2 = current_snapshot("t.refs")
floe.run("branch", "create", "t.refs", "audit")
floe.append_rows("t.refs", ROWS, base_rows[10:12], extra=("--branch", "audit"))
floe.run("delete", "t.refs", "--where", "id < 3")
cases.append(Case("t.refs", ROWS, [
    Read("main", [r for r in base_rows[:10] if r[0] >= 3]),
    Read("tag v1", base_rows[:5], ref="v1", spark_version="'v1'"),
    Read("snapshot 2", base_rows[:10], snapshot_id=s2, spark_version=s2),
    Read("branch audit", base_rows[:12], ref="audit", spark_version="branch_audit")]))

# ---- a format 1 table ----------------------------------------------------------------------
floe.run("create", "t.v1", "--schema", "id long, cat string, amount long", "--partition-by", "cat",
         "--format-version", "1")
floe.append_rows("t.v1", ROWS, base_rows[:12])
v1_first = current_snapshot("t.v1")
floe.append_rows("t.v1", ROWS, base_rows[12:20])
floe.run("delete", "t.v1", "--where", "id % 5 = 0")
cases.append(Case("t.v1", ROWS, [Read("after two appends and a delete", [r for r in base_rows[:20] if r[0] % 5]),
                                 Read("first snapshot", base_rows[:12], snapshot_id=v1_first,
                                      spark_version=v1_first)]))

# ---- after compaction and expiry -----------------------------------------------------------
floe.run("create", "t.maintained", "--schema", "id long, cat string, amount long", "--partition-by", "cat",
         "--property", "write.delete.mode=merge-on-read")
for start in range(0, 30, 5):
    floe.append_rows("t.maintained", ROWS, base_rows[start:start + 5])
floe.run("delete", "t.maintained", "--where", "id % 7 = 0")
floe.run("rewrite-data-files", "t.maintained", "--min-input-files", "2")
time.sleep(0.01)
now = dt.datetime.now(U).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]
floe.run("expire-snapshots", "t.maintained", "--older-than", now, "--retain-last", "1")
with open(floe.metadata_location("t.maintained")) as f:
    maintained = json.load(f)
failures.check("t.maintained keeps one snapshot after expiry", len(maintained["snapshots"]) == 1,
               "snapshots: %d" % len(maintained["snapshots"]))
cases.append(Case("t.maintained", ROWS, [Read("after compaction and expiry",
                                              [r for r in base_rows if r[0] % 7 != 0])]))
print("floe wrote %d tables in %.1f s" % (len(cases), time.monotonic() - STARTED), flush=True)


# ---- the judges ----------------------------------------------------------------------------
def expected_of(case, read):
    return ic.canon_rows(case.columns, read.expected)


# floe itself first: the reference the engines are compared with is the input, not floe's scan.
for case in cases:
    for read in case.reads:
        if read.where is not None:
            continue
        options = []
        if read.snapshot_id is not None:
            options = ["--snapshot", str(read.snapshot_id)]
        elif read.ref is not None:
            options = ["--ref", read.ref]
        failures.run("floe %s %s" % (case.table, read.label), lambda: failures.same_rows(
            "floe %s %s" % (case.table, read.label), expected_of(case, read),
            floe.scan(case.table, case.columns, *options)))

PYICEBERG_TYPES = {"fixed[4]": "fixed[4]"}
for case in cases:
    def pyiceberg_schema(case=case):
        from pyiceberg.table import StaticTable
        schema = StaticTable.from_metadata(case.metadata).schema()
        got = [(f.name, str(f.field_type).replace(" ", "")) for f in schema.fields]
        failures.check("pyiceberg %s schema" % case.table, got == [(n, t) for n, t in case.columns],
                       "got %s" % got)
    failures.run("pyiceberg %s schema" % case.table, pyiceberg_schema)
    for read in case.reads:
        label = "pyiceberg %s %s" % (case.table, read.label)
        if case.equality_deletes:
            # PyIceberg 0.12.0 refuses to plan a scan over equality deletes ("PyIceberg does not
            # yet support equality deletes", apache/iceberg#6568): a limit of the peer, checked as such.
            def refuses(case=case, label=label):
                from pyiceberg.table import StaticTable
                try:
                    StaticTable.from_metadata(case.metadata).scan().to_arrow()
                    failures.check(label + " (PyIceberg now reads equality deletes: compare the rows)", False)
                except ValueError as error:
                    failures.check(label + ": refused by PyIceberg 0.12.0 (no equality deletes)",
                                   "equality deletes" in str(error), str(error))
            failures.run(label, refuses)
            continue
        def run(case=case, read=read, label=label):
            from pyiceberg.table import StaticTable
            table = StaticTable.from_metadata(case.metadata)
            snapshot_id = read.snapshot_id
            if read.ref is not None:
                snapshot_id = table.metadata.refs[read.ref].snapshot_id
            scan = table.scan(row_filter=read.where["pyiceberg"] if read.where else "True",
                              selected_fields=tuple(n for n, _ in case.columns), snapshot_id=snapshot_id)
            failures.same_rows(label, expected_of(case, read),
                               ic.canon_rows(case.columns, ic.pyiceberg_values(scan.to_arrow(), case.columns)))
        failures.run(label, run)

DUCKDB_TYPES = {"boolean": "BOOLEAN", "int": "INTEGER", "long": "BIGINT", "float": "FLOAT", "double": "DOUBLE",
                "date": "DATE", "time": "TIME", "timestamp": "TIMESTAMP", "timestamptz": "TIMESTAMP WITH TIME ZONE",
                "string": "VARCHAR", "uuid": "UUID", "fixed[4]": "BLOB", "binary": "BLOB"}
con = ic.duckdb_connect()
for case in cases:
    def duck_schema(case=case):
        got = ic.duckdb_types(con, case.metadata)
        want = {n: DUCKDB_TYPES.get(t, t.upper().replace("DECIMAL", "DECIMAL")) for n, t in case.columns}
        failures.check("duckdb %s schema" % case.table, got == want, "got %s, want %s" % (got, want))
    failures.run("duckdb %s schema" % case.table, duck_schema)
    for read in case.reads:
        if read.ref is not None:
            continue  # iceberg_scan reads a snapshot by id, not a ref by name
        label = "duckdb %s %s" % (case.table, read.label)
        def run(case=case, read=read, label=label):
            options = "" if read.snapshot_id is None else ", snapshot_from_id = %d" % read.snapshot_id
            source = "iceberg_scan('%s'%s)" % (case.metadata, options)
            failures.same_rows(label, expected_of(case, read),
                               ic.duckdb_read(con, source, case.columns, read.where["sql"] if read.where else None))
        failures.run(label, run)

# Iceberg Java's generic reader (iceberg-data), on the metadata document alone: Java's own delete
# handling, equality deletes included (which PyIceberg refuses). Filters are the engines' business
# above; Java reads every snapshot and ref case unfiltered.
if ic.java_available():
    java_started = time.monotonic()
    requests = []
    for case in cases:
        for read in case.reads:
            if read.where is not None:
                continue
            requests.append({"label": "java %s %s" % (case.table, read.label), "metadata": case.metadata,
                             "columns": case.columns, "snapshot_id": read.snapshot_id, "ref": read.ref,
                             "expected": expected_of(case, read)})
    answers = {}
    failures.run("java generic reader", lambda: answers.update(ic.java_generic_read(
        [{k: v for k, v in r.items() if k != "expected"} for r in requests], floe.workdir)))
    for r in requests:
        got = answers.get(r["label"])
        if isinstance(got, Exception) or got is None:
            failures.check(r["label"], False, str(got))
        else:
            failures.same_rows(r["label"], r["expected"], got)
    print("java generic reader: %d reads in %.1f s" % (len(requests), time.monotonic() - java_started), flush=True)
else:
    print("java: not run (FLOE_PEERS_JAVA_JARS unset or no java)")

SPARK_TYPES = {"boolean": "boolean", "int": "int", "long": "bigint", "float": "float", "double": "double",
               "date": "date", "timestamp": "timestamp_ntz", "timestamptz": "timestamp", "string": "string",
               "uuid": "string", "fixed[4]": "binary", "binary": "binary"}
if ic.spark_available() and not os.environ.get("FLOE_INTEROP_NO_SPARK"):
    spark_started = time.monotonic()
    spark = ic.start_spark({"floe": ic.spark_jdbc_catalog(floe)}, extra_jars=[ic.java_jar("sqlite-jdbc")])
    print("spark started in %.1f s" % (time.monotonic() - spark_started), flush=True)
    for case in [c for c in cases if c.spark]:
        columns = case.columns
        select = ", ".join("`%s`" % n for n, _ in columns)
        def spark_schema(case=case, columns=columns, select=select):
            got = [(f.name, f.dataType.simpleString()) for f in spark.sql("SELECT %s FROM floe.%s" % (select, case.table)).schema]
            want = [(n, SPARK_TYPES.get(t, t)) for n, t in columns]
            failures.check("spark %s schema" % case.table, got == want, "got %s, want %s" % (got, want))
        failures.run("spark %s schema" % case.table, spark_schema)
        for read in case.reads:
            label = "spark %s %s" % (case.table, read.label)
            def run(case=case, read=read, label=label, columns=columns, select=select):
                source = "floe." + case.table
                if read.spark_version is not None and str(read.spark_version).startswith("branch_"):
                    source += "." + read.spark_version
                elif read.spark_version is not None:
                    source += " VERSION AS OF %s" % read.spark_version
                elif read.snapshot_id is not None or read.ref is not None:
                    return
                sql = "SELECT %s FROM %s" % (select, source)
                if read.where:
                    sql += " WHERE " + read.where["spark"]
                failures.same_rows(label, expected_of(case, read), ic.spark_values(columns, [tuple(r) for r in spark.sql(sql).collect()]))
            failures.run(label, run)
    spark.stop()
else:
    print("spark: not run (FLOE_PEERS_SPARK_ICEBERG_JAR unset, no java, or FLOE_INTEROP_NO_SPARK)")

failures.finish(STARTED)
