"""Nested types written by floe, judged by the real engines, on format 2 and format 3 tables:

1. `floe create --schema` with struct<...>, list<...> / array<...> and map<...> gives the schema
   (names, types, optionality and field ids) Spark's CREATE TABLE of the same DDL gives.
2. `floe append` of JSON lines in the human JSON form; Spark, PyIceberg and DuckDB read exactly the
   rows written, and pyarrow reads floe's data files: 3-level LIST and MAP groups, a field id on
   every field, element, key and value (the table's ids), the same rows.
3. floe changes rows (merge-on-read delete, update of a flat column, upsert; copy-on-write update;
   compaction): floe and Spark read the nested values of untouched and changed rows intact.
4. Spark writes more (INSERT, a merge-on-read UPDATE setting a struct field, MERGE); floe reads
   exactly what Spark reads.
A peer that cannot read something also fails on the same rows written by Spark (the control):
printed as a named peer limit, with its version and error (nested_common.PeerVerdicts).

Run: FLOE_BINARY=build/floe $FLOE_PEERS_PYTHON tests/interop/nested_floe_writes_test.py
"""

import csv
import glob
import io
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
verdicts = nc.PeerVerdicts(failures)
floe = ic.Floe(ic.workdir("nested-write"))
floe.catalog = "sqlite://%s?catalog=floe" % floe.db  # Spark's JDBC catalog is named floe too
COLUMNS = nc.COLUMNS
NAMES = [n for n, _ in COLUMNS]
ROWS = nc.model_rows()
print("peers: " + ", ".join("%s %s" % kv for kv in nc.VERSIONS.items()), flush=True)

if not ic.spark_available():
    print("skipped: no peers (Spark: FLOE_PEERS_SPARK_ICEBERG_JAR unset or no java)")
    sys.exit(0)
spark = ic.start_spark({"floe": ic.spark_jdbc_catalog(floe)}, app="floe-nested-write",
                       extra_jars=[ic.java_jar("sqlite-jdbc")])
spark.sql("CREATE NAMESPACE IF NOT EXISTS floe.fl")


def metadata(table):
    with open(floe.metadata_location(table)) as f:
        return json.load(f)


def current_schema(table):
    m = metadata(table)
    return next(s for s in m["schemas"] if s["schema-id"] == m["current-schema-id"])


def model_expected(model):
    return nc.canon_rows(COLUMNS, list(model.values()))


def floe_and_spark_read(table, model, label):
    expected = model_expected(model)
    failures.run("floe reads %s %s" % (table, label), lambda: failures.same_rows(
        "floe reads %s %s" % (table, label), expected, nc.floe_scan(floe, table, COLUMNS)))
    spark.sql("REFRESH TABLE floe.%s" % table)
    failures.run("spark reads %s %s" % (table, label), lambda: failures.same_rows(
        "spark reads %s %s" % (table, label), expected, nc.spark_rows(spark, "floe." + table, COLUMNS)))


def create_and_compare_schema(version):
    table, control = "fl.nested_v%d" % version, "fl.spark_v%d" % version
    floe.run("create", table, "--format-version", str(version), "--schema", nc.floe_schema_text(COLUMNS))
    spark.sql("CREATE TABLE floe.%s (%s) USING iceberg TBLPROPERTIES ('format-version'='%d')"
              % (control, nc.spark_ddl(COLUMNS), version))
    mine, theirs = current_schema(table), current_schema(control)
    failures.check("floe's schema text gives Spark's schema for the same DDL (v%d)" % version,
                   nc.iceberg_schema_json(mine) == nc.iceberg_schema_json(theirs),
                   "floe %s\n     spark %s" % (json.dumps(nc.iceberg_schema_json(mine)),
                                                 json.dumps(nc.iceberg_schema_json(theirs))))
    failures.check("floe assigns nested field ids as Iceberg does (v%d)" % version,
                   nc.iceberg_field_ids(mine) == nc.iceberg_field_ids(theirs),
                   "floe %s\n     spark %s" % (nc.iceberg_field_ids(mine), nc.iceberg_field_ids(theirs)))
    nc.spark_dataframe(spark, COLUMNS, ROWS).coalesce(1).writeTo("floe." + control).append()
    return table, control


def floe_appends(table):
    # The first rows with string-keyed maps as objects, the rest with them as [{key, value}]
    # (the input takes both forms).
    floe.run("append", table, nc.floe_write_jsonl(floe, COLUMNS, ROWS[:6], table + "-1.jsonl"))
    floe.run("append", table, nc.floe_write_jsonl(floe, COLUMNS, ROWS[6:], table + "-2.jsonl", string_map_as_pairs=True))


def engines_read(table, control, expected, label="", control_expected=None, spark_too=True):
    """Spark, PyIceberg and DuckDB read floe's table; a peer failing is told apart from floe
    failing by its read of Spark's control table (holding control_expected)."""
    what = table + label
    if spark_too:
        spark.sql("REFRESH TABLE floe.%s" % table)
        verdicts.read("Spark", what, expected, lambda: nc.spark_rows(spark, "floe." + table, COLUMNS),
                      lambda: nc.spark_rows(spark, "floe." + control, COLUMNS), control_expected=control_expected)
    from pyiceberg.table import StaticTable
    verdicts.read("PyIceberg", what, expected,
                  lambda: nc.pyiceberg_rows(StaticTable.from_metadata(floe.metadata_location(table)), COLUMNS),
                  lambda: nc.pyiceberg_rows(StaticTable.from_metadata(floe.metadata_location(control)), COLUMNS),
                  quirk=nc.null_list_of_structs_as_empty(COLUMNS), control_expected=control_expected)
    con = ic.duckdb_connect()
    verdicts.read("DuckDB", what, expected, lambda: nc.duckdb_rows(con, floe.metadata_location(table), COLUMNS),
                  lambda: nc.duckdb_rows(con, floe.metadata_location(control), COLUMNS), control_expected=control_expected)
    con.close()


def spark_changes_control(control):
    """The control for reads after floe's row changes: Spark deletes the same rows of its own
    table in merge-on-read mode (position deletes in v2, deletion vectors in v3)."""
    spark.sql("ALTER TABLE floe.%s SET TBLPROPERTIES ('write.delete.mode'='merge-on-read')" % control)
    spark.sql("DELETE FROM floe.%s WHERE id = 3 OR id = 10" % control)
    return nc.canon_rows(COLUMNS, [r for r in ROWS if r[0] not in (3, 10)])


def expected_leaf_paths(name, t):
    """The Parquet leaf column paths of a column: lists as 3-level groups (name.list.element),
    maps as name.key_value.key / .value."""
    k = nc.kind(t)
    if k == "struct":
        return [p for n, f in t[1] for p in expected_leaf_paths(name + "." + n, f)]
    if k == "list":
        return expected_leaf_paths(name + ".list.element", t[1])
    if k == "map":
        return (expected_leaf_paths(name + ".key_value.key", t[1]) +
                expected_leaf_paths(name + ".key_value.value", t[2]))
    return [name]


def pyarrow_reads_files(table, expected):
    import pyarrow.parquet as pq
    folder = os.path.dirname(os.path.dirname(floe.metadata_location(table)))
    files = sorted(glob.glob(os.path.join(folder, "data", "**", "*.parquet"), recursive=True))
    failures.check("floe wrote %s's data files" % table, len(files) >= 2, repr(files))
    want_leaves = [p for n, t in COLUMNS for p in expected_leaf_paths(n, t)]
    want_ids = nc.iceberg_field_ids(current_schema(table))
    rows = []
    for path in files:
        f = pq.ParquetFile(path)
        leaves = [f.schema.column(i).path for i in range(len(f.schema))]
        failures.check("%s: 3-level LIST and MAP groups" % os.path.basename(path), leaves == want_leaves,
                       "leaves %s\n     want %s\n%s" % (leaves, want_leaves, f.schema))
        ids = nc.parquet_field_ids(f.schema_arrow)
        failures.check("%s: a field id on every field, element, key and value" % os.path.basename(path),
                       ids == want_ids, "file %s\n     table %s" % (ids, want_ids))
        rows += nc.engine_rows(COLUMNS, f.read().to_pylist(), nc.from_arrow)
    failures.same_rows("pyarrow reads %s's data files" % table, expected, rows)


def floe_prints_csv(table, expected):
    """A nested CSV cell holds the human JSON form."""
    out = floe.run("scan", table, "--format", "csv")
    records = list(csv.DictReader(io.StringIO(out)))
    rows = []
    for record in records:
        values = {}
        for n, t in COLUMNS:
            cell = record[n]
            if nc.kind(t) == "primitive":
                values[n] = None if cell == "" else (int(cell) if t == "long" else cell)
            else:
                values[n] = None if cell == "" else json.loads(cell)
        rows.append(values)
    # CSV cannot tell an empty string from a null: compare the nested columns only.
    nested = [i for i, (_, t) in enumerate(COLUMNS) if nc.kind(t) != "primitive"]
    got = [tuple(r[i] for i in [0] + nested) for r in nc.engine_rows(COLUMNS, rows, nc.from_human_json)]
    failures.same_rows("floe prints %s's nested values as JSON in CSV cells" % table,
                       [tuple(r[i] for i in [0] + nested) for r in expected], got)


# ---- 3. row changes by floe, 4. Spark writes more -------------------------------------------------

def changed_row(row, **values):
    out = list(row)
    for name, value in values.items():
        out[NAMES.index(name)] = value
    return out


def floe_changes_rows(table, control, model):
    floe.run("properties", table, "--set", "write.delete.mode=merge-on-read", "--set",
             "write.update.mode=merge-on-read", "--set", "write.merge.mode=merge-on-read")
    floe.run("delete", table, "--where", "id = 3 OR id = 10")
    for i in (3, 10):
        del model[i]
    floe_and_spark_read(table, model, "after floe's merge-on-read delete")
    want = "PUFFIN" if metadata(table)["format-version"] >= 3 else "PARQUET"
    spark.sql("REFRESH TABLE floe.%s" % table)
    kinds = sorted({r[0] for r in spark.sql("SELECT file_format FROM floe.%s.delete_files" % table).collect()})
    failures.check("floe's delete on %s wrote %s delete files" % (table, want), kinds == [want], repr(kinds))

    floe.run("update", table, "--set", "tag = 'upd'", "--where", "id = 1 OR id = 4 OR id = 20")
    for i in (1, 4, 20):
        model[i] = changed_row(model[i], tag="upd")
    floe_and_spark_read(table, model, "after floe's merge-on-read update of a flat column")

    new = [changed_row(model[5], s={"a": 55, "b": None}, ai=[5, None], al=[{"x": "new", "y": []}],
                       m=[("z", 26)], mi=[(7, ["seven"])], n={"inner": {"z": 5.5}}),
           [100, "inserted", {"a": None, "b": "new"}, [], [None], [], [(1, [])], {"inner": None}]]
    path = nc.floe_write_jsonl(floe, COLUMNS, new, table + "-upsert.jsonl")
    floe.run("upsert", table, path, "--key", "id")
    for row in new:
        model[row[0]] = row
    floe_and_spark_read(table, model, "after floe's merge-on-read upsert")

    floe.run("properties", table, "--set", "write.update.mode=copy-on-write")
    floe.run("update", table, "--set", "tag = 'cow'", "--where", "id = 6 OR id = 30")
    for i in (6, 30):
        model[i] = changed_row(model[i], tag="cow")
    floe_and_spark_read(table, model, "after floe's copy-on-write update")

    # PyIceberg and DuckDB read the merge-on-read deletes and the updated rows too (before the
    # compaction removes the delete files).
    engines_read(table, control, model_expected(model), " after floe's row changes",
                 control_expected=spark_changes_control(control), spark_too=False)

    floe.run("rewrite-data-files", table, "--all")
    floe_and_spark_read(table, model, "after floe's compaction")


def spark_writes_more(table, model):
    more = [[200, "spark", {"a": 2, "b": "two"}, [None, 0], [{"x": "s", "y": [None]}], [("sp", None)],
             [(9, None)], {"inner": {"z": 2.0}}],
            [201, None, None, [], [], [], [], None]]
    nc.spark_dataframe(spark, COLUMNS, more).writeTo("floe." + table).append()
    for row in more:
        model[row[0]] = row
    spark.sql("UPDATE floe.%s SET tag = 'spark', s.a = -1 WHERE id = 7 OR id = 200" % table)
    for i in (7, 200):
        s = dict(model[i][NAMES.index("s")], a=-1)
        model[i] = changed_row(model[i], tag="spark", s=s)
    source = [changed_row(model[8], tag="merged", ai=[8, 8]),
              [300, "merged in", {"a": 3, "b": None}, None, [None], [("m", 3)], [(3, ["c"])], {"inner": {"z": None}}]]
    nc.spark_dataframe(spark, COLUMNS, source).createOrReplaceTempView("merge_source")
    spark.sql("MERGE INTO floe.%s t USING merge_source s ON t.id = s.id "
              "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *" % table)
    for row in source:
        model[row[0]] = row
    own = nc.spark_rows(spark, "floe." + table, COLUMNS)
    failures.same_rows("spark reads %s after its INSERT, UPDATE and MERGE" % table, model_expected(model), own)
    failures.run("floe reads %s after Spark's writes" % table, lambda: failures.same_rows(
        "floe reads %s after Spark's INSERT, merge-on-read UPDATE and MERGE" % table, own,
        nc.floe_scan(floe, table, COLUMNS)))
    kinds = sorted({r[0] for r in spark.sql("SELECT file_format FROM floe.%s.delete_files" % table).collect()})
    print("info %s delete file formats after Spark's merge-on-read writes: %s" % (table, kinds), flush=True)


def nested_schema_evolution(table, model):
    """floe adds a field to a struct and a nested column (schema text for add-column); floe and
    Spark read the old rows with nulls there; then Spark adds a struct field and inserts, and
    floe reads what Spark reads."""
    floe.run("schema", "add-column", table, "s.c", "list<struct<q: long>>")
    floe.run("schema", "add-column", table, "extra", "map<string, list<int>>")
    s_type = nc.struct(("a", "int"), ("b", "string"), ("c", nc.list_of(nc.struct(("q", "long")))))
    columns = [(n, s_type if n == "s" else t) for n, t in COLUMNS] + [("extra", nc.map_of("string", nc.list_of("int")))]

    def widen(row):
        s = row[NAMES.index("s")]
        return changed_row(row, s=None if s is None else dict(s, c=None)) + [None]
    rows = {i: widen(r) for i, r in model.items()}
    new = [[400, "evolved", {"a": 4, "b": None, "c": [{"q": 1}, None, {"q": None}]}, [4], [], [], [], None,
            [("e", [1, None]), ("f", []), ("g", None)]],
           [401, None, {"a": None, "b": None, "c": []}, None, None, None, None, None, []]]
    floe.run("append", table, nc.floe_write_jsonl(floe, columns, new, table + "-evolved.jsonl"))
    for r in new:
        rows[r[0]] = r
    expected = nc.canon_rows(columns, list(rows.values()))
    failures.same_rows("floe reads %s after adding nested columns" % table, expected, nc.floe_scan(floe, table, columns))
    spark.sql("REFRESH TABLE floe.%s" % table)
    failures.same_rows("spark reads %s after floe added nested columns" % table, expected,
                       nc.spark_rows(spark, "floe." + table, columns))

    spark.sql("ALTER TABLE floe.%s ADD COLUMN s.d string" % table)
    d_type = nc.struct(*(s_type[1] + (("d", "string"),)))
    columns = [(n, d_type if n == "s" else t) for n, t in columns]
    row = [500, None, {"a": 5, "b": "five", "c": [{"q": 50}], "d": "dee"}] + [None] * (len(columns) - 3)
    nc.spark_dataframe(spark, columns, [row]).writeTo("floe." + table).append()
    own = nc.spark_rows(spark, "floe." + table, columns)
    failures.check("spark reads its row with the struct field it added",
                   any(r[0] == 500 and r[2] == ("struct", 5, "five", ("list", ("struct", 50)), "dee") for r in own),
                   repr([r for r in own if r[0] == 500]))
    failures.same_rows("floe reads %s after Spark added a struct field" % table, own, nc.floe_scan(floe, table, columns))


def run(version):
    created = []
    failures.run("floe creates a nested v%d table" % version,
                 lambda: created.append(create_and_compare_schema(version)))
    if not created:
        return
    table, control = created[0]
    model = {row[0]: list(row) for row in ROWS}
    appended = []
    failures.run("floe appends nested rows to %s" % table, lambda: (floe_appends(table), appended.append(True)))
    if not appended:
        return
    expected = model_expected(model)
    failures.run("floe reads %s back" % table, lambda: failures.same_rows(
        "floe reads %s back" % table, expected, nc.floe_scan(floe, table, COLUMNS)))
    failures.run("engines read %s" % table, lambda: engines_read(table, control, expected))
    failures.run("pyarrow reads %s's files" % table, lambda: pyarrow_reads_files(table, expected))
    if version == 2:
        failures.run("floe prints %s as CSV" % table, lambda: floe_prints_csv(table, expected))
    failures.run("floe changes rows of %s" % table, lambda: floe_changes_rows(table, control, model))
    failures.run("spark writes more to %s" % table, lambda: spark_writes_more(table, model))
    if version == 2:
        failures.run("nested schema evolution of %s" % table, lambda: nested_schema_evolution(table, model))


for version in (2, 3):
    run(version)
spark.stop()
for line in verdicts.limits:
    print(line)
failures.finish(STARTED)
