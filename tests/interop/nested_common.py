"""Nested types (struct, list, map) across engines: one description of a nested schema, rendered
as each writer's DDL, and one canonical form of a nested value that every reader's Python values
are turned into, so that Spark's, PyIceberg's, DuckDB's, pyarrow's and floe's rows compare exactly.

A type is an Iceberg primitive name ("int", "long", "string", "double", ...) or one of
  ("struct", ((name, type), ...))   ("list", element)   ("map", key, value)
with every field, element and value optional (the engines' defaults for SQL DDL).

A model value (what the test writes) is, by type: a dict {field name: value} for a struct, a
Python list for a list, a list of (key, value) pairs for a map (any key type, order kept).

floe's human JSON form (the contract of the nested-types work, src/types/column_batch.h): a struct
is an object keyed by field name in field order, a list an array, a map with string keys an
object, any other map an array of {"key": K, "value": V}; primitives as floe's JSON lines print them.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as ic  # noqa: E402


def struct(*fields):
    return ("struct", tuple(fields))


def list_of(element):
    return ("list", element)


def map_of(key, value):
    return ("map", key, value)


def kind(t):
    return t[0] if isinstance(t, tuple) else "primitive"


# ---- rendering a type as each writer spells it -------------------------------------------------

SPARK_PRIMITIVES = {"int": "int", "long": "bigint", "string": "string", "double": "double", "boolean": "boolean",
                    "float": "float", "date": "date"}


def spark_type(t):
    k = kind(t)
    if k == "struct":
        return "struct<%s>" % ", ".join("%s: %s" % (n, spark_type(f)) for n, f in t[1])
    if k == "list":
        return "array<%s>" % spark_type(t[1])
    if k == "map":
        return "map<%s, %s>" % (spark_type(t[1]), spark_type(t[2]))
    return SPARK_PRIMITIVES[t]


def spark_ddl(columns):
    return ", ".join("%s %s" % (n, spark_type(t)) for n, t in columns)


def floe_type(t, list_word="list"):
    """floe's schema text (floe create --schema): list<T> (array<T> too), map<K, V>, struct<n: T>."""
    k = kind(t)
    if k == "struct":
        return "struct<%s>" % ", ".join("%s: %s" % (n, floe_type(f, list_word)) for n, f in t[1])
    if k == "list":
        return "%s<%s>" % (list_word, floe_type(t[1], list_word))
    if k == "map":
        return "map<%s, %s>" % (floe_type(t[1], list_word), floe_type(t[2], list_word))
    return t


def floe_schema_text(columns):
    # The second list column is spelled array<...>, which the schema text accepts as well.
    parts = []
    for i, (n, t) in enumerate(columns):
        parts.append("%s %s" % (n, floe_type(t, "array" if i % 2 else "list")))
    return ", ".join(parts)


def pyiceberg_schema(columns):
    """A PyIceberg Schema; ids are numbered depth-first (PyIceberg renumbers them on create)."""
    from pyiceberg.schema import Schema
    from pyiceberg import types as pt
    primitives = {"int": pt.IntegerType(), "long": pt.LongType(), "string": pt.StringType(),
                  "double": pt.DoubleType(), "boolean": pt.BooleanType()}
    counter = [0]

    def next_id():
        counter[0] += 1
        return counter[0]

    def convert(t):
        k = kind(t)
        if k == "struct":
            return pt.StructType(*[pt.NestedField(next_id(), n, convert(f), required=False) for n, f in t[1]])
        if k == "list":
            return pt.ListType(next_id(), convert(t[1]), element_required=False)
        if k == "map":
            return pt.MapType(next_id(), convert(t[1]), next_id(), convert(t[2]), value_required=False)
        return primitives[t]

    return Schema(*[pt.NestedField(next_id(), n, convert(t), required=False) for n, t in columns])


def iceberg_schema_json(t):
    """The schema JSON's type of a column with ids removed: for comparing two writers' schemas."""
    if isinstance(t, str):
        return t
    if t["type"] == "struct":
        return {"type": "struct", "fields": [
            {"name": f["name"], "required": f["required"], "type": iceberg_schema_json(f["type"])} for f in t["fields"]]}
    if t["type"] == "list":
        return {"type": "list", "element-required": t["element-required"], "element": iceberg_schema_json(t["element"])}
    if t["type"] == "map":
        return {"type": "map", "value-required": t["value-required"], "key": iceberg_schema_json(t["key"]),
                "value": iceberg_schema_json(t["value"])}
    raise ValueError("unknown schema type %r" % t)


def iceberg_field_ids(schema_json):
    """{dotted path: field id} of every field, list element and map key/value of a schema JSON."""
    out = {}

    def walk(path, t):
        if isinstance(t, str):
            return
        if t["type"] == "struct":
            for f in t["fields"]:
                out[path + f["name"]] = f["id"]
                walk(path + f["name"] + ".", f["type"])
        elif t["type"] == "list":
            out[path + "element"] = t["element-id"]
            walk(path + "element.", t["element"])
        elif t["type"] == "map":
            out[path + "key"] = t["key-id"]
            out[path + "value"] = t["value-id"]
            walk(path + "key.", t["key"])
            walk(path + "value.", t["value"])

    walk("", schema_json)
    return out


# ---- values --------------------------------------------------------------------------------------

def canon(t, v):
    """The canonical, hashable form of a model value (or of an engine's value already mapped to
    the model's shapes): structs and lists as tuples, maps as key-sorted pair tuples."""
    if v is None:
        return None
    k = kind(t)
    if k == "struct":
        if not isinstance(v, dict) or list(v) != [n for n, _ in t[1]]:
            raise TypeError("struct value %r does not have the fields %s in order" % (v, [n for n, _ in t[1]]))
        return ("struct",) + tuple(canon(f, v[n]) for n, f in t[1])
    if k == "list":
        if not isinstance(v, list):
            raise TypeError("list value %r is a %s" % (v, type(v).__name__))
        return ("list",) + tuple(canon(t[1], e) for e in v)
    if k == "map":
        if not isinstance(v, list) or not all(isinstance(p, tuple) and len(p) == 2 for p in v):
            raise TypeError("map value %r is not a list of pairs" % (v,))
        pairs = [(canon(t[1], key), canon(t[2], value)) for key, value in v]
        if len({repr(key) for key, _ in pairs}) != len(pairs):
            raise ValueError("map value %r repeats a key" % (v,))
        return ("map",) + tuple(sorted(pairs, key=lambda p: repr(p[0])))
    return ic.canon(t, v)


def canon_rows(columns, rows):
    """rows: model rows (sequences in column order, or dicts by column name)."""
    out = []
    for row in rows:
        values = [row[n] for n, _ in columns] if isinstance(row, dict) else list(row)
        if len(values) != len(columns):
            raise ValueError("row %r has %d values for %d columns" % (row, len(values), len(columns)))
        out.append(tuple(canon(t, v) for (_, t), v in zip(columns, values)))
    return out


def to_human_json(t, v, string_map_as_pairs=False):
    """A model value as floe's human JSON (its JSON-lines input and output)."""
    if v is None:
        return None
    k = kind(t)
    if k == "struct":
        return {n: to_human_json(f, v[n], string_map_as_pairs) for n, f in t[1]}
    if k == "list":
        return [to_human_json(t[1], e, string_map_as_pairs) for e in v]
    if k == "map":
        if t[1] == "string" and not string_map_as_pairs:
            return {key: to_human_json(t[2], value, string_map_as_pairs) for key, value in v}
        return [{"key": to_human_json(t[1], key, string_map_as_pairs), "value": to_human_json(t[2], value, string_map_as_pairs)}
                for key, value in v]
    return ic.to_floe_json(t, v)


def from_human_json(t, v):
    """floe's human JSON as a model value; raises when the shape is not the contract's."""
    if v is None:
        return None
    k = kind(t)
    if k == "struct":
        names = [n for n, _ in t[1]]
        if not isinstance(v, dict) or list(v) != names:
            raise TypeError("floe printed struct %s as %r, not an object keyed %s in order" % (floe_type(t), v, names))
        return {n: from_human_json(f, v[n]) for n, f in t[1]}
    if k == "list":
        if not isinstance(v, list):
            raise TypeError("floe printed list %s as %r" % (floe_type(t), v))
        return [from_human_json(t[1], e) for e in v]
    if k == "map":
        if t[1] == "string":
            if not isinstance(v, dict):
                raise TypeError("floe printed string-keyed map %s as %r, not an object" % (floe_type(t), v))
            return [(key, from_human_json(t[2], value)) for key, value in v.items()]
        if not isinstance(v, list) or not all(isinstance(p, dict) and list(p) == ["key", "value"] for p in v):
            raise TypeError("floe printed map %s as %r, not [{\"key\", \"value\"}]" % (floe_type(t), v))
        return [(from_human_json(t[1], p["key"]), from_human_json(t[2], p["value"])) for p in v]
    return ic.from_floe_json(t, v)


def human_json_line(columns, row, string_map_as_pairs=False):
    return json.dumps({n: to_human_json(t, v, string_map_as_pairs) for (n, t), v in zip(columns, row)},
                      ensure_ascii=False)


def from_spark(t, v):
    """Spark's collect() values: a Row for a struct, a list, a dict for a map."""
    if v is None:
        return None
    k = kind(t)
    if k == "struct":
        values = list(v)
        if len(values) != len(t[1]):
            raise TypeError("Spark struct %r has %d fields, not %d" % (v, len(values), len(t[1])))
        return {n: from_spark(f, x) for (n, f), x in zip(t[1], values)}
    if k == "list":
        return [from_spark(t[1], e) for e in v]
    if k == "map":
        if not isinstance(v, dict):
            raise TypeError("Spark map %r is a %s" % (v, type(v).__name__))
        return [(from_spark(t[1], key), from_spark(t[2], value)) for key, value in v.items()]
    return v


def from_arrow(t, v):
    """pyarrow's to_pylist() values (PyIceberg and direct Parquet reads): a dict for a struct, a
    list, a list of (key, value) tuples for a map."""
    if v is None:
        return None
    k = kind(t)
    if k == "struct":
        if not isinstance(v, dict):
            raise TypeError("Arrow struct %r is a %s" % (v, type(v).__name__))
        return {n: from_arrow(f, v[n]) for n, f in t[1]}
    if k == "list":
        return [from_arrow(t[1], e) for e in v]
    if k == "map":
        return [(from_arrow(t[1], key), from_arrow(t[2], value)) for key, value in v]
    return v


def from_duckdb(t, v):
    """DuckDB's Python values: a dict for a struct, a list, a dict for a map (or, in some
    versions, {"key": [...], "value": [...]})."""
    if v is None:
        return None
    k = kind(t)
    if k == "struct":
        if not isinstance(v, dict):
            raise TypeError("DuckDB struct %r is a %s" % (v, type(v).__name__))
        return {n: from_duckdb(f, v[n]) for n, f in t[1]}
    if k == "list":
        return [from_duckdb(t[1], e) for e in v]
    if k == "map":
        if not isinstance(v, dict):
            raise TypeError("DuckDB map %r is a %s" % (v, type(v).__name__))
        if list(v) == ["key", "value"] and isinstance(v["key"], list):
            items = zip(v["key"], v["value"])
        else:
            items = v.items()
        return [(from_duckdb(t[1], key), from_duckdb(t[2], value)) for key, value in items]
    return v


def engine_rows(columns, rows, convert):
    """Engine rows (sequences in column order or dicts) in canonical form via convert(type, value)."""
    out = []
    for row in rows:
        values = [row[n] for n, _ in columns] if isinstance(row, dict) else list(row)
        out.append(tuple(canon(t, convert(t, v)) for (_, t), v in zip(columns, values)))
    return out


# ---- the engines ---------------------------------------------------------------------------------

def floe_scan(floe, table, columns, *options):
    return from_jsonl(floe.run("scan", table, "--format", "jsonl", *options), columns)


def from_jsonl(out, columns):
    """floe's JSON-lines output in canonical form; every record must hold exactly the columns."""
    records = [json.loads(line) for line in out.splitlines() if line.strip()]
    for record in records:
        if list(record) != [n for n, _ in columns]:
            raise TypeError("floe printed the columns %s, not %s" % (list(record), [n for n, _ in columns]))
    return engine_rows(columns, records, from_human_json)


def floe_write_jsonl(floe, columns, rows, name, string_map_as_pairs=False):
    path = os.path.join(floe.workdir, name)
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(human_json_line(columns, row, string_map_as_pairs) + "\n")
    return path


def spark_rows(spark, table, columns):
    select = ", ".join("`%s`" % n for n, _ in columns)
    return engine_rows(columns, [tuple(r) for r in spark.sql("SELECT %s FROM %s" % (select, table)).collect()],
                       from_spark)


def spark_dataframe(spark, columns, rows):
    """A DataFrame of model rows with the columns' Spark types (maps as dicts, structs as tuples)."""
    def to_spark(t, v):
        if v is None:
            return None
        k = kind(t)
        if k == "struct":
            return tuple(to_spark(f, v[n]) for n, f in t[1])
        if k == "list":
            return [to_spark(t[1], e) for e in v]
        if k == "map":
            return {to_spark(t[1], key): to_spark(t[2], value) for key, value in v}
        return v
    data = [tuple(to_spark(t, v) for (_, t), v in zip(columns, row)) for row in rows]
    return spark.createDataFrame(data, schema=spark_ddl(columns))


def arrow_table(columns, rows, arrow_schema):
    """A pyarrow table of model rows (structs as dicts, maps as lists of pairs)."""
    import pyarrow as pa
    arrays = [pa.array([row[i] for row in rows], type=arrow_schema.field(i).type) for i in range(len(columns))]
    return pa.Table.from_arrays(arrays, schema=arrow_schema)


def pyiceberg_rows(table, columns):
    return engine_rows(columns, table.scan().to_arrow().to_pylist(), from_arrow)


def duckdb_rows(con, metadata_path, columns):
    select = ", ".join('"%s"' % n for n, _ in columns)
    rows = con.execute("SELECT %s FROM iceberg_scan('%s')" % (select, metadata_path)).fetchall()
    return engine_rows(columns, rows, from_duckdb)


def parquet_field_ids(arrow_schema):
    """{dotted path: field id or None} of every field in a Parquet file's Arrow schema, with list
    elements as `element` and map entries as `key` / `value` (the Iceberg names)."""
    import pyarrow as pa
    out = {}

    def field_id(field):
        meta = field.metadata or {}
        value = meta.get(b"PARQUET:field_id")
        return int(value) if value is not None else None

    def walk(path, t):
        if pa.types.is_struct(t):
            for i in range(t.num_fields):
                f = t.field(i)
                out[path + f.name] = field_id(f)
                walk(path + f.name + ".", f.type)
        elif pa.types.is_map(t):
            out[path + "key"] = field_id(t.key_field)
            out[path + "value"] = field_id(t.item_field)
            walk(path + "key.", t.key_type)
            walk(path + "value.", t.item_type)
        elif pa.types.is_list(t) or pa.types.is_large_list(t):
            out[path + "element"] = field_id(t.value_field)
            walk(path + "element.", t.value_type)

    for f in arrow_schema:
        out[f.name] = field_id(f)
        walk(f.name + ".", f.type)
    return out


class PeerVerdicts:
    """A peer that cannot read or write something is told apart from floe getting it wrong by a
    control: the same operation on the same data written by another engine (Spark). When the peer
    fails on the control too, its failure is printed as a named peer limit with its version and
    exact error; when it handles the control and fails on floe's table, that is floe's failure."""

    def __init__(self, failures):
        self.failures = failures
        self.limits = []
        self.refusals = {"PyIceberg": ("PyIceberg does not yet support equality deletes",)}

    def read(self, peer, what, expected, read_floe, read_control=None, quirk=None, control_expected=None):
        """read_floe() returns the peer's canonical rows of floe's table; read_control() reads
        the control table (holding control_expected, by default the same rows) the same way.
        quirk(rows, expected) names a known way the peer alters values (or returns None): it is a
        peer limit only when the peer's read of the control is altered the same way."""
        if control_expected is None:
            control_expected = expected
        try:
            rows = read_floe()
        except Exception as error:  # noqa: BLE001 - the peer's error is part of the verdict
            floe_error = "%s: %s" % (type(error).__name__, str(error)[:1200])
        else:
            limit = quirk(rows, expected) if quirk is not None and not same(rows, expected) else None
            if limit and read_control is not None:
                try:
                    control_rows = read_control()
                except Exception:  # noqa: BLE001
                    control_rows = None
                if control_rows is not None and quirk(control_rows, control_expected) == limit:
                    line = "peer limit: %s %s %s (on Spark's table too), reading %s" % (
                        peer, VERSIONS.get(peer, "?"), limit, what)
                    print(line, flush=True)
                    self.limits.append(line)
                    return
            self.failures.same_rows("%s reads %s" % (peer, what), expected, rows)
            return
        # A peer refusing in its own words a feature floe's table legitimately uses (PyIceberg
        # 0.12.0 and the equality deletes of a merge-on-read upsert in format 2) is its limit.
        for words in self.refusals.get(peer, ()):
            if words in floe_error:
                line = "peer limit: %s %s refuses %s: %s" % (peer, VERSIONS.get(peer, "?"), what, floe_error)
                print(line, flush=True)
                self.limits.append(line)
                return
        control_error = None
        if read_control is not None:
            try:
                read_control()
            except Exception as error:  # noqa: BLE001
                control_error = "%s: %s" % (type(error).__name__, str(error)[:600])
        if control_error is not None:
            line = "peer limit: %s %s cannot read %s (it fails on Spark's table too): %s" % (
                peer, VERSIONS.get(peer, "?"), what, control_error)
            print(line, flush=True)
            self.limits.append(line)
        else:
            self.failures.check("%s reads %s" % (peer, what), False,
                                floe_error + ("" if read_control is None else " (it reads Spark's table)"))


def same(rows_a, rows_b):
    return sorted(rows_a, key=ic.row_key) == sorted(rows_b, key=ic.row_key)


def null_list_of_structs_as_empty(columns):
    """PyIceberg 0.12.0 reads (and writes) a null list<struct> as an empty list (its issue
    apache/iceberg-python#3833, earlier #251): returns a quirk for PeerVerdicts.read that
    recognises exactly that change."""
    lists = [i for i, (_, t) in enumerate(columns) if kind(t) == "list" and kind(t[1]) == "struct"]

    def emptied(rows):
        return [tuple(("list",) if i in lists and v is None else v for i, v in enumerate(r)) for r in rows]

    def quirk(rows, expected):
        if same(rows, emptied(expected)):
            return "reads a null list<struct> as an empty list"
        return None
    return quirk


def peer_versions():
    import duckdb
    import pyarrow
    import pyiceberg
    versions = {"PyIceberg": pyiceberg.__version__, "DuckDB": duckdb.__version__, "pyarrow": pyarrow.__version__}
    try:
        import pyspark
        versions["Spark"] = pyspark.__version__
    except ImportError:
        pass
    versions["Iceberg runtime"] = os.path.basename(os.environ.get("FLOE_PEERS_SPARK_ICEBERG_JAR", "none"))
    return versions


VERSIONS = peer_versions() if os.environ.get("FLOE_PEERS_PYTHON") else {}


# ---- the table every nested test writes ----------------------------------------------------------

COLUMNS = [
    ("id", "long"),
    ("tag", "string"),
    ("s", struct(("a", "int"), ("b", "string"))),
    ("ai", list_of("int")),
    ("al", list_of(struct(("x", "string"), ("y", list_of("long"))))),
    ("m", map_of("string", "int")),
    ("mi", map_of("int", list_of("string"))),
    ("n", struct(("inner", struct(("z", "double"))))),
]


def model_rows(first=1, count=40):
    """Rows with nulls and empties at every level: a null list, a list with null elements, an
    empty list, a null struct, a struct with null fields, an empty map, a map with null values;
    then generated rows mixing them (several pages' worth of repetition levels)."""
    rows = [
        [1, "full", {"a": 1, "b": "x"}, [1, 2, 3],
         [{"x": "p", "y": [1, 2]}, {"x": None, "y": []}],
         [("a", 1), ("b", 2)], [(1, ["u", "v"]), (2, [])], {"inner": {"z": 1.5}}],
        [2, None, None, None, None, None, None, None],
        [3, "empties", {"a": None, "b": None}, [], [], [], [], {"inner": None}],
        [4, "nulls inside", {"a": 3, "b": None}, [None, 5, None],
         [None, {"x": "q", "y": None}, {"x": "r", "y": [None, 7]}],
         [("k", None), ("j", 0)], [(3, None), (4, [None, "w"])], {"inner": {"z": None}}],
        [5, "odd text", {"a": None, "b": "y \"quoted\"\n"}, None, [{"x": "", "y": [-1]}],
         None, [(-5, ["é", ""])], None],
        [6, "", {"a": -2147483648, "b": "ü"}, [2147483647], [{"x": None, "y": None}],
         [("with \"quote\"", 1), ("ü", -2), ("", 3)], [(0, [None])], {"inner": {"z": -0.25}}],
    ]
    for i in range(7, 7 + count):
        rows.append([
            i, "t%d" % (i % 5) if i % 7 else None,
            None if i % 9 == 0 else {"a": i if i % 4 else None, "b": "b%d" % i},
            None if i % 8 == 0 else [j if j % 3 else None for j in range(i % 6)],
            None if i % 11 == 0 else [None if (i + j) % 5 == 0 else {"x": "x%d" % j, "y": list(range(j * i, j * i + j % 3))}
                                      for j in range(i % 4)],
            None if i % 10 == 0 else [("k%d" % j, None if j == 2 else i * j) for j in range(i % 5)],
            None if i % 12 == 0 else [(j - i, ["s%d" % j] * (j % 3)) for j in range(i % 3)],
            None if i % 13 == 0 else {"inner": None if i % 6 == 0 else {"z": i / 8.0}},
        ])
    return [r for r in rows if r[0] >= first]
