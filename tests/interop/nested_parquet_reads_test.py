"""floe's Parquet reader on nested columns written by pyarrow (Arrow's Parquet writer): lists,
maps and structs at several depths, with nulls and empties at every level, in files laid out
every way pyarrow can lay them out (v1 and v2 data pages, dictionary or plain, tiny pages so
that records cross page boundaries, several row groups, three codecs, and the non-compliant
list naming of use_compliant_nested_type=False). pyarrow is the judge: `floe cat FILE --format
jsonl` must print exactly the rows pyarrow holds, in the human JSON form (struct -> object,
list -> array, map with string keys -> object, other maps -> [{"key", "value"}]).
Then the same file goes through `floe create --like` and `floe append` (a foreign file
without field ids: ids inferred for every nested field) and `floe scan` must give the rows back.

Run: FLOE_BINARY=build/floe $FLOE_PEERS_PYTHON tests/interop/nested_parquet_reads_test.py
Takes a few seconds.
"""

import json
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as ic  # noqa: E402

ic.skip_without_peers()
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

STARTED = time.monotonic()
failures = ic.Failures()
work = ic.workdir("nested-parquet-reads")
floe = ic.Floe(work)
ROWS = 60
rng = random.Random(20261204)


def maybe(value_fn, null=0.15):
    return None if rng.random() < null else value_fn()


def some(item_fn, most=4):
    """A list with an empty one now and then."""
    return [item_fn() for _ in range(rng.choice([0, 1, 2, 3, most]))]


def word():
    return rng.choice(["a", "bb", "ccc", "dé", "e e", ""]) + str(rng.randint(0, 3))


SCHEMA = pa.schema([
    ("id", pa.int64()),
    ("li", pa.list_(pa.int32())),
    ("ls", pa.list_(pa.string())),
    ("lst", pa.list_(pa.struct([("a", pa.int64()), ("b", pa.string())]))),
    ("lls", pa.list_(pa.list_(pa.string()))),
    ("msi", pa.map_(pa.string(), pa.int32())),
    ("mil", pa.map_(pa.int32(), pa.list_(pa.struct([("x", pa.float64())])))),
    ("sl", pa.struct([("tags", pa.list_(pa.int64())), ("name", pa.string())])),
    ("lml", pa.list_(pa.map_(pa.string(), pa.list_(pa.int32())))),
    ("lb", pa.list_(pa.bool_())),
])


def row(i):
    def a_struct():
        return {"a": maybe(lambda: rng.randint(-10**12, 10**12)), "b": maybe(word)}

    def a_map(key_fn, value_fn):
        keys = list(dict.fromkeys(key_fn() for _ in range(rng.choice([0, 1, 2, 3]))))
        return [(k, value_fn()) for k in keys]

    return {
        "id": i,
        "li": maybe(lambda: some(lambda: maybe(lambda: rng.randint(-2**31, 2**31 - 1)))),
        "ls": maybe(lambda: some(lambda: maybe(word))),
        "lst": maybe(lambda: some(lambda: maybe(a_struct))),
        "lls": maybe(lambda: some(lambda: maybe(lambda: some(lambda: maybe(word))))),
        "msi": maybe(lambda: a_map(word, lambda: maybe(lambda: rng.randint(-1000, 1000)))),
        "mil": maybe(lambda: a_map(lambda: rng.randint(-5, 5),
                                   lambda: maybe(lambda: some(lambda: maybe(lambda: {"x": maybe(lambda: rng.randint(-8, 8) / 4)}))))),
        "sl": maybe(lambda: {"tags": maybe(lambda: some(lambda: maybe(lambda: rng.randint(0, 99)))), "name": maybe(word)}),
        "lml": maybe(lambda: some(lambda: maybe(lambda: a_map(word, lambda: maybe(lambda: some(lambda: maybe(lambda: rng.randint(0, 9))))))),
                     most=3),
        "lb": maybe(lambda: some(lambda: maybe(lambda: rng.random() < 0.5))),
    }


def human(value, arrow_type):
    """A pyarrow value in floe's human JSON form, by its Arrow type."""
    if value is None:
        return None
    if pa.types.is_map(arrow_type):
        pairs = [(human(k, arrow_type.key_type), human(v, arrow_type.item_type)) for k, v in value]
        if pa.types.is_string(arrow_type.key_type):
            return {k: v for k, v in pairs}
        return [{"key": k, "value": v} for k, v in pairs]
    if pa.types.is_list(arrow_type):
        return [human(v, arrow_type.value_type) for v in value]
    if pa.types.is_struct(arrow_type):
        return {arrow_type.field(i).name: human(value[arrow_type.field(i).name], arrow_type.field(i).type)
                for i in range(arrow_type.num_fields)}
    return value


def expected_rows(table):
    out = []
    for r in table.to_pylist():
        out.append({f.name: human(r[f.name], f.type) for f in table.schema})
    return out


def floe_rows(*args):
    done = subprocess.run([floe.binary] + list(args), capture_output=True, text=True, cwd=work)
    if done.returncode != 0:
        return None, done.stderr.strip()
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()], ""


def first_difference(want, got):
    for i, (w, g) in enumerate(zip(want, got)):
        if w != g:
            return "row %d\n     want %r\n     got  %r" % (i, w, g)
    return "row counts %d and %d" % (len(want), len(got))


table = pa.Table.from_pylist([row(i) for i in range(ROWS)], schema=SCHEMA)
want = expected_rows(table)

LAYOUTS = [
    ("v1-plain-tiny-pages", dict(data_page_version="1.0", use_dictionary=False, data_page_size=64, row_group_size=ROWS)),
    ("v2-dictionary-tiny-pages", dict(data_page_version="2.0", use_dictionary=True, data_page_size=64, row_group_size=ROWS)),
    ("v1-dictionary-row-groups-of-7", dict(data_page_version="1.0", use_dictionary=True, row_group_size=7)),
    ("v2-snappy-row-groups-of-13", dict(data_page_version="2.0", compression="snappy", row_group_size=13)),
    ("zstd-one-page", dict(compression="zstd")),
    ("non-compliant-list-names", dict(use_compliant_nested_type=False, data_page_size=128, row_group_size=17)),
]
files = {}
for name, options in LAYOUTS:
    path = os.path.join(work, name + ".parquet")
    pq.write_table(table, path, **options)
    files[name] = path
    got, err = floe_rows("cat", path, "--format", "jsonl")
    if got is None:
        failures.check("floe cat reads pyarrow's nested file (%s)" % name, False, err)
        continue
    failures.check("floe cat prints pyarrow's nested rows exactly (%s)" % name, got == want, first_difference(want, got))

# A projection of single columns: each nested column read alone, by itself.
path = files["v2-dictionary-tiny-pages"]
for column in ["lst", "mil", "lml"]:
    alone = pa.Table.from_pylist([{column: r[column]} for r in table.to_pylist()],
                                 schema=pa.schema([SCHEMA.field(column)]))
    one = os.path.join(work, "only-" + column + ".parquet")
    pq.write_table(alone, one, data_page_size=64)
    got, err = floe_rows("cat", one, "--format", "jsonl")
    failures.check("floe cat reads a file holding only %s" % column, got == expected_rows(alone),
                   err or first_difference(expected_rows(alone), got or []))

# A foreign file into a table: create --like infers the schema (ids for every nested field),
# append adds the file, scan reads the rows back.
floe.run("namespace", "create", "t")
created = subprocess.run([floe.binary, "--catalog", floe.catalog, "create", "t.nested", "--like", files["zstd-one-page"]],
                         capture_output=True, text=True, cwd=work)
failures.check("floe create --like a nested pyarrow file", created.returncode == 0, created.stderr)
if created.returncode == 0:
    appended = subprocess.run([floe.binary, "--catalog", floe.catalog, "append", "t.nested", files["v1-plain-tiny-pages"]],
                              capture_output=True, text=True, cwd=work)
    failures.check("floe append of a nested pyarrow file", appended.returncode == 0, appended.stderr)
    got, err = floe_rows("--catalog", floe.catalog, "scan", "t.nested", "--format", "jsonl")
    got = sorted(got or [], key=lambda r: r["id"])
    failures.check("floe scan gives the appended nested rows back", got == want, err or first_difference(want, got))

failures.finish(STARTED)
