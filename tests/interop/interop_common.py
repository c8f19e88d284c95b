"""What the cross-engine tests share: running floe, reading a table with each real engine, and
turning every engine's values into one canonical, typed form so that row sets compare exactly.

The real engines are the judges (PyIceberg, DuckDB with its iceberg extension, Spark with
Iceberg's runtime, Iceberg Java's generic reader). A value is canonicalised by the Iceberg type of its column, and each
engine's Python type must be the one that type maps to (a long read back as a float, or a
timestamp read without its zone, is a mismatch, not a rounding question).
"""

import datetime as dt
import decimal
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import uuid

UTC = dt.timezone.utc


def skip_without_peers():
    """Exits with the project's skip marker when the real engines are not installed."""
    needed = ["FLOE_PEERS_PYTHON", "FLOE_PEERS_DUCKDB_EXTENSIONS", "FLOE_BINARY"]
    missing = [name for name in needed if not os.environ.get(name)]
    if missing:
        print("skipped: no peers (" + ", ".join(missing) + " unset)")
        sys.exit(0)


def spark_available():
    return bool(os.environ.get("FLOE_PEERS_SPARK_ICEBERG_JAR")) and shutil.which("java") is not None


class Failures:
    """Collects mismatches so that one run reports every engine's verdict, then fails once."""

    def __init__(self):
        self.items = []
        self.checks = 0

    def check(self, what, ok, detail=""):
        self.checks += 1
        if ok:
            print("ok   " + what, flush=True)
        else:
            print("FAIL " + what + ("\n     " + detail if detail else ""), flush=True)
            self.items.append(what)

    def same_rows(self, what, expected, actual):
        expected_sorted = sorted(expected, key=row_key)
        actual_sorted = sorted(actual, key=row_key)
        if expected_sorted == actual_sorted:
            self.check(what + " (%d rows)" % len(expected), True)
            return
        missing = [r for r in expected_sorted if r not in actual_sorted]
        extra = [r for r in actual_sorted if r not in expected_sorted]
        self.check(what, False, "expected %d rows, got %d; missing %s; unexpected %s" %
                   (len(expected), len(actual), missing[:3], extra[:3]))

    def run(self, what, function):
        """Runs one check that may raise: an engine refusing to read is a failure too."""
        try:
            function()
        except Exception as error:  # noqa: BLE001 - the engine's error is the verdict
            if os.environ.get("FLOE_INTEROP_TRACEBACK"):
                import traceback
                traceback.print_exc()
            self.check(what, False, "%s: %s" % (type(error).__name__, str(error)[:1500]))

    def finish(self, started):
        elapsed = time.monotonic() - started
        print("%d checks, %d failed, %.1f s" % (self.checks, len(self.items), elapsed))
        if self.items:
            print("failed: " + "; ".join(self.items))
            print("kept for a look: " + ", ".join(WORKDIRS))
            sys.exit(1)
        for folder in WORKDIRS:
            shutil.rmtree(folder, ignore_errors=True)


def row_key(row):
    return tuple((v is None, "" if v is None else str(v)) for v in row)


# ---------------------------------------------------------------------------------------------
# Canonical values: one Python form per Iceberg type.

def _micros(t):
    return t.strftime("%H:%M:%S.%f")


def canon(iceberg_type, value):
    """The canonical form of a value of an Iceberg primitive type; raises on a wrong Python type."""
    if value is None:
        return None
    t = iceberg_type
    def need(*types):
        if not isinstance(value, types) or (bool not in types and isinstance(value, bool)):
            raise TypeError("%s value %r is a %s" % (t, value, type(value).__name__))
    if t == "boolean":
        need(bool)
        return value
    if t in ("int", "long"):
        need(int)
        return value
    if t == "float":
        need(float)
        return struct.unpack("<f", struct.pack("<f", value))[0]
    if t == "double":
        need(float)
        return value
    if t.startswith("decimal"):
        need(decimal.Decimal)
        scale = int(t.split(",")[1].rstrip(")").strip())
        return str(value.quantize(decimal.Decimal(1).scaleb(-scale)))
    if t == "date":
        if isinstance(value, dt.datetime):
            raise TypeError("date value %r is a datetime" % value)
        need(dt.date)
        return value.isoformat()
    if t == "time":
        need(dt.time)
        return _micros(value)
    if t == "timestamp":
        need(dt.datetime)
        if value.tzinfo is not None:
            raise TypeError("timestamp (without zone) value %r carries a zone" % value)
        return value.strftime("%Y-%m-%dT%H:%M:%S.%f")
    if t == "timestamptz":
        need(dt.datetime)
        if value.tzinfo is None:
            raise TypeError("timestamptz value %r has no zone" % value)
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")
    if t == "string":
        need(str)
        return value
    if t == "uuid":
        need(uuid.UUID)
        return str(value)
    if t.startswith("fixed") or t == "binary":
        need(bytes)
        return value.hex().upper()
    raise ValueError("no canonical form for type " + t)


def canon_rows(columns, rows):
    """columns: [(name, type)]; rows: sequences or dicts of engine values."""
    out = []
    for row in rows:
        values = [row[name] for name, _ in columns] if isinstance(row, dict) else list(row)
        if len(values) != len(columns):
            raise ValueError("row %r has %d values for %d columns" % (row, len(values), len(columns)))
        out.append(tuple(canon(t, v) for (_, t), v in zip(columns, values)))
    return out


def from_floe_json(iceberg_type, value):
    """floe's JSON form of a value (Iceberg's single-value JSON) as the engine-neutral Python value."""
    if value is None:
        return None
    t = iceberg_type
    if t in ("boolean", "int", "long", "string"):
        return value
    if t in ("float", "double"):
        return float(value)
    if t.startswith("decimal"):
        return decimal.Decimal(value)
    if t == "date":
        return dt.date.fromisoformat(value)
    if t == "time":
        return dt.time.fromisoformat(value)
    if t == "timestamp":
        return dt.datetime.fromisoformat(value)
    if t == "timestamptz":
        return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    if t == "uuid":
        return uuid.UUID(value)
    if t.startswith("fixed") or t == "binary":
        return bytes.fromhex(value)
    raise ValueError("no JSON form for type " + t)


def to_floe_json(iceberg_type, value):
    """The inverse: a Python value as a line of floe's JSON-lines input."""
    if value is None:
        return None
    t = iceberg_type
    if t.startswith("decimal") or t == "uuid":
        return str(value)
    if t in ("date", "time"):
        return value.isoformat() if t == "date" else _micros(value)
    if t == "timestamp":
        return value.strftime("%Y-%m-%dT%H:%M:%S.%f")
    if t == "timestamptz":
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")
    if t.startswith("fixed") or t == "binary":
        return value.hex().upper()
    return value


def arrow_type(t):
    import pyarrow as pa
    simple = {"boolean": pa.bool_(), "int": pa.int32(), "long": pa.int64(), "float": pa.float32(),
              "double": pa.float64(), "date": pa.date32(), "time": pa.time64("us"), "timestamp": pa.timestamp("us"),
              "timestamptz": pa.timestamp("us", tz="UTC"), "string": pa.string(), "uuid": pa.binary(16),
              "binary": pa.binary()}
    if t in simple:
        return simple[t]
    if t.startswith("decimal"):
        precision, scale = t[len("decimal("):-1].split(",")
        return pa.decimal128(int(precision), int(scale))
    if t.startswith("fixed"):
        return pa.binary(int(t[len("fixed["):-1]))
    raise ValueError("no Arrow type for " + t)


# ---------------------------------------------------------------------------------------------
# floe

class Floe:
    """The `floe` command on one catalog (a SQLite catalog in a temporary folder by default)."""

    def __init__(self, workdir, catalog=None):
        self.binary = os.environ["FLOE_BINARY"]
        self.workdir = workdir
        self.warehouse = os.path.join(workdir, "warehouse")
        os.makedirs(self.warehouse, exist_ok=True)
        self.db = os.path.join(self.warehouse, "catalog.db")
        self.catalog = catalog or "sqlite://" + self.db

    def run(self, *args, stdin=None, check=True, timeout=120):
        command = [self.binary, "--catalog", self.catalog] + [str(a) for a in args]
        done = subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=timeout,
                              cwd=self.workdir)
        if check and done.returncode != 0:
            raise RuntimeError("floe %s exited %d: %s %s" % (" ".join(map(str, args)), done.returncode,
                                                            done.stdout[-2000:], done.stderr[-2000:]))
        return done.stdout

    def append_rows(self, table, columns, rows, command="append", extra=()):
        path = os.path.join(self.workdir, "input-%d.jsonl" % time.monotonic_ns())
        with open(path, "w") as f:
            for row in rows:
                f.write(json.dumps({n: to_floe_json(t, v) for (n, t), v in zip(columns, row)}) + "\n")
        return self.run(command, table, path, *extra)

    def append_parquet(self, table, columns, rows, command="append", extra=()):
        """Rows written by pyarrow into a Parquet file, then given to floe (binary values have no
        JSON-lines form that floe reads: its text input takes a string's bytes as they are)."""
        import pyarrow as pa
        import pyarrow.parquet as pq
        path = os.path.join(self.workdir, "input-%d.parquet" % time.monotonic_ns())
        arrays = []
        for i, (_, t) in enumerate(columns):
            values = [row[i] for row in rows]
            if t == "uuid":
                values = [None if v is None else v.bytes for v in values]
            arrays.append(pa.array(values, type=arrow_type(t)))
        pq.write_table(pa.table(arrays, names=[n for n, _ in columns]), path)
        return self.run(command, table, path, *extra)

    def scan(self, table, columns, *options):
        out = self.run("scan", table, "--format", "jsonl", *options)
        rows = []
        for line in out.splitlines():
            if line.strip():
                record = json.loads(line)
                rows.append(tuple(from_floe_json(t, record.get(n)) for n, t in columns))
        return canon_rows(columns, rows)

    def schema(self, table):
        """[(name, type)] of the table's current schema, as floe reads it."""
        out = self.run("schema", table, "--format", "jsonl")
        return [(f["name"], f["type"]) for f in map(json.loads, filter(str.strip, out.splitlines()))]

    def metadata_location(self, table):
        """The current metadata file, as the catalog database records it (SQLite, or PostgreSQL
        for a postgresql:// catalog URI with its ?catalog= name)."""
        namespace, name = table.rsplit(".", 1)
        if self.catalog.startswith("postgresql://"):
            import urllib.parse
            import psycopg2
            base, _, query = self.catalog.partition("?")
            catalog_name = urllib.parse.parse_qs(query).get("catalog", ["default"])[0]
            with psycopg2.connect(base) as conn, conn.cursor() as cursor:
                cursor.execute("SELECT metadata_location FROM iceberg_tables WHERE catalog_name = %s AND "
                               "table_namespace = %s AND table_name = %s", (catalog_name, namespace, name))
                row = cursor.fetchone()
        else:
            import sqlite3
            with sqlite3.connect(self.db) as conn:
                row = conn.execute("SELECT metadata_location FROM iceberg_tables WHERE table_namespace = ? AND "
                                   "table_name = ?", (namespace, name)).fetchone()
        if not row:
            raise RuntimeError("no table %s in %s" % (table, self.db))
        location = row[0]
        return location[len("file://"):] if location.startswith("file://") else location

    def snapshot_ids(self, table):
        out = self.run("snapshots", table, "--format", "jsonl")
        return [json.loads(line)["snapshot_id"] for line in out.splitlines() if line.strip()]


# ---------------------------------------------------------------------------------------------
# Readers

def pyiceberg_read(metadata_path, columns, snapshot_id=None, ref=None):
    from pyiceberg.table import StaticTable
    table = StaticTable.from_metadata(metadata_path)
    if ref is not None:
        snapshot_id = table.metadata.refs[ref].snapshot_id
    arrow = table.scan(selected_fields=tuple(n for n, _ in columns), snapshot_id=snapshot_id).to_arrow()
    return canon_rows(columns, pyiceberg_values(arrow, columns))


def pyiceberg_values(arrow, columns):
    """Arrow rows as Python values; Arrow's uuid extension gives bytes, read here as a UUID."""
    rows = arrow.to_pylist()
    uuid_columns = [n for n, t in columns if t == "uuid"]
    for row in rows:
        for n in uuid_columns:
            if isinstance(row[n], bytes):
                row[n] = uuid.UUID(bytes=row[n])
    return rows


def duckdb_connect():
    import duckdb
    con = duckdb.connect(config={"autoinstall_known_extensions": "false", "autoload_known_extensions": "false"})
    extensions = os.environ["FLOE_PEERS_DUCKDB_EXTENSIONS"]
    for name in ("avro", "iceberg"):
        con.execute("LOAD '%s'" % os.path.join(extensions, name + ".duckdb_extension"))
    con.execute("SET TimeZone = 'UTC'")
    return con


def duckdb_select(columns):
    """The select list for DuckDB. Its Python client converts a TIMESTAMP WITH TIME ZONE only with
    pytz (not in the peers' venv): such a column is read as its UTC wall time (timezone('UTC', c))
    and given its zone back in duckdb_values; DESCRIBE checks the type itself."""
    return ", ".join("timezone('UTC', \"%s\")" % n if t == "timestamptz" else '"%s"' % n for n, t in columns)


def duckdb_values(columns, rows):
    out = []
    for row in rows:
        out.append([v.replace(tzinfo=UTC) if t == "timestamptz" and v is not None else v
                    for (_, t), v in zip(columns, row)])
    return canon_rows(columns, out)


def duckdb_read(con, source, columns, where=None):
    sql = "SELECT %s FROM %s" % (duckdb_select(columns), source)
    if where:
        sql += " WHERE " + where
    return duckdb_values(columns, con.execute(sql).fetchall())


def duckdb_types(con, metadata_path):
    rows = con.execute("DESCRIBE SELECT * FROM iceberg_scan('%s')" % metadata_path).fetchall()
    return {r[0]: r[1] for r in rows}


# Spark has no uuid or time type: Iceberg's runtime reads a uuid as a string and refuses a time.
def spark_values(columns, rows):
    out = []
    for row in rows:
        values = []
        for (_, t), v in zip(columns, row):
            if v is not None and t == "uuid" and isinstance(v, str):
                v = uuid.UUID(v)
            elif v is not None and isinstance(v, bytearray):
                v = bytes(v)
            elif v is not None and t == "timestamptz" and isinstance(v, dt.datetime) and v.tzinfo is None:
                v = v.replace(tzinfo=UTC)  # the session and the driver run in UTC (see start_spark)
            values.append(v)
        out.append(values)
    return canon_rows(columns, out)


def start_spark(catalogs, app="floe-interop", extra_jars=()):
    """One local[2] Spark session with Iceberg's runtime; catalogs: {name: {property: value}}."""
    os.environ["TZ"] = "UTC"
    time.tzset()
    from pyspark.sql import SparkSession
    jars = [os.environ["FLOE_PEERS_SPARK_ICEBERG_JAR"]] + list(extra_jars)
    builder = (SparkSession.builder.master("local[2]").appName(app)
               .config("spark.jars", ",".join(jars))
               .config("spark.sql.extensions", "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.driver.extraJavaOptions", "-Duser.timezone=UTC")
               .config("spark.executor.extraJavaOptions", "-Duser.timezone=UTC")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "2")
               .config("spark.driver.memory", "1g")
               .config("spark.sql.adaptive.enabled", "false"))
    for name, properties in catalogs.items():
        builder = builder.config("spark.sql.catalog." + name, "org.apache.iceberg.spark.SparkCatalog")
        for key, value in properties.items():
            builder = builder.config("spark.sql.catalog.%s.%s" % (name, key), value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def java_jar(prefix):
    folder = os.environ.get("FLOE_PEERS_JAVA_JARS", "")
    if not folder or not os.path.isdir(folder):
        return None
    for name in sorted(os.listdir(folder)):
        if name.startswith(prefix) and name.endswith(".jar"):
            return os.path.join(folder, name)
    return None


def java_available():
    return bool(os.environ.get("FLOE_PEERS_JAVA_JARS")) and shutil.which("java") is not None


def java_generic_read(requests, workdir):
    """Reads tables with Iceberg Java's generic reader (tests/interop/java/GenericRead.java), all
    in one JVM. requests: [{"label", "metadata", "columns": [(name, type)], "snapshot_id"?, "ref"?}].
    Returns {label: canonical rows} or {label: Exception} for a read Java refused."""
    path = os.path.join(workdir, "java-requests.jsonl")
    with open(path, "w") as f:
        for r in requests:
            line = dict(r, columns=[n for n, _ in r["columns"]])
            f.write(json.dumps(line) + "\n")
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "java", "GenericRead.java")
    done = subprocess.run(["java", "-Xmx512m", "-cp", os.environ["FLOE_PEERS_JAVA_JARS"] + "/*", source, path],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError("GenericRead.java failed (%d): %s" % (done.returncode, done.stderr[-2000:]))
    columns = {r["label"]: r["columns"] for r in requests}
    out = {}
    for line in done.stdout.splitlines():
        if not line.startswith("{"):
            continue
        answer = json.loads(line)
        label = answer["label"]
        if "error" in answer:
            out[label] = RuntimeError(answer["error"])
            continue
        cols = columns[label]
        out[label] = canon_rows(cols, [[from_floe_json(t, v) for (_, t), v in zip(cols, row)]
                                       for row in answer["rows"]])
    return out


def spark_jdbc_catalog(floe, warehouse=None):
    """Spark's properties for Iceberg's JDBC catalog over floe's SQLite catalog database."""
    return {"type": "jdbc", "uri": "jdbc:sqlite:" + floe.db, "warehouse": warehouse or floe.warehouse,
            "jdbc.schema-version": "V0"}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


WORKDIRS = []


def workdir(name):
    """A fresh folder, removed when every check passed and kept when one failed."""
    base = os.environ.get("FLOE_INTEROP_TMP") or tempfile.gettempdir()
    folder = tempfile.mkdtemp(prefix="floe-interop-%s-" % name, dir=base)
    WORKDIRS.append(folder)
    return folder


class FloeServer:
    """`floe serve` on a catalog URI, with a tokens file granting one bearer token write access
    to everything; stopped with SIGTERM by stop(). env: extra environment (S3 credentials)."""

    def __init__(self, floe, home, catalog=None, env=None):
        import hashlib
        self.secret = "interop-secret-%d" % os.getpid()
        self.port = free_port()
        self.uri = "http://127.0.0.1:%d" % self.port
        tokens = os.path.join(home, "tokens")
        with open(tokens, "w") as f:
            f.write("interop:sha256:%s:write@*\n" % hashlib.sha256(self.secret.encode()).hexdigest())
        self.log = open(os.path.join(home, "serve.log"), "w")
        self.process = subprocess.Popen(
            [floe.binary, "--catalog", catalog or floe.catalog, "serve", "--listen", "127.0.0.1:%d" % self.port,
             "--tokens-file", tokens, "--log-format", "off"],
            stdout=self.log, stderr=self.log, env=dict(os.environ, **(env or {})))

    def wait_ready(self, seconds=30):
        """True once GET /v1/config answers 200; False if the server died or never answered."""
        import urllib.request
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                request = urllib.request.Request(self.uri + "/v1/config",
                                                 headers={"Authorization": "Bearer " + self.secret})
                with urllib.request.urlopen(request, timeout=2) as answer:
                    return answer.status == 200
            except OSError:
                if self.process.poll() is not None:
                    return False
                time.sleep(0.1)
        return False

    def stop(self):
        """Returns the exit status (0 or -15 on a clean SIGTERM shutdown)."""
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
        return self.process.returncode
