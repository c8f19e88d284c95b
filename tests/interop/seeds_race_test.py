"""The seeds' race, with the seeds' engines: Spark and PyIceberg write one partitioned table on S3
at the same time through `floe serve`, and each race must end the way Iceberg's isolation rules
say (DESIGN.md, "What conflicts"), with no row lost and none doubled.

The table: orders(order_id long, country string, amount long, ts timestamp), partitioned by
country, ORDERS rows (order_id 0..ORDERS-1, country COUNTRIES[order_id % 5]), in a SQLite catalog
of floe's whose warehouse is a moto bucket (scripts/s3.sh; FLOE_TEST_S3_ENDPOINT).

The races and their expected outcomes (printed as a table from the run, each one asserted):
  1. Spark DELETE ... country = 'DE' AND order_id % 2 = 0 (copy-on-write, serializable) while
     PyIceberg appends two even German orders: Spark refused ("Found conflicting files that can
     contain records matching ..."), PyIceberg's rows kept;
  2. the same with write.delete.isolation-level=snapshot: both commit, PyIceberg's rows survive;
  3. a DE delete while PyIceberg appends in FR (serializable): both commit;
  4. Spark's rewrite_data_files of DE while PyIceberg deletes a row of one of its inputs: the
     compaction is refused (Missing required files to delete), the delete stays;
  5. Spark INSERT and PyIceberg append: both land, Spark's stale commit rebased by floe serve;
  6. PyIceberg's stale table object (its own retry off): refused by its SqlCatalog alone
     ("Requirement failed: branch main has changed"), rebased and landed through floe serve.
Then the rows per country (count, distinct ids, sum of ids) must be the model's exactly.

How each race is ordered, every time: Spark reaches floe serve through a relay in this script
(GatedRelay). Spark runs its statement in a thread under a job group; once a Spark job has
started, Spark has planned (its table and snapshot are fixed), and the relay holds Spark's next
requests on the table until PyIceberg, talking to floe serve through a relay of its own, has
committed. So PyIceberg always commits between Spark's planning and Spark's commit:
- hold "table": every request for the table is held, including the refresh Spark's commit starts
  with, so Spark validates its commit client-side against PyIceberg's snapshot (Iceberg Java's
  ValidationException is Spark's own verdict);
- hold "commit": PyIceberg commits once Spark's commit POST is held, so that commit reaches floe
  serve stale (its branch moved on) and the server has to rebase it.

Run: FLOE_BINARY=build/floe FLOE_TEST_S3_ENDPOINT=http://127.0.0.1:PORT $FLOE_PEERS_PYTHON \
     tests/interop/seeds_race_test.py   (FLOE_SEEDS_RACE_ORDERS=N changes the table's size)
"""

import datetime as dt
import http.client
import http.server
import os
import re
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as ic  # noqa: E402

ic.skip_without_peers()
if not ic.spark_available() or not os.environ.get("FLOE_PEERS_AWS_BUNDLE_JAR"):
    print("skipped: no peers (Spark or FLOE_PEERS_AWS_BUNDLE_JAR missing)")
    sys.exit(0)
S3_ENDPOINT = os.environ.get("FLOE_TEST_S3_ENDPOINT")
if not S3_ENDPOINT:
    print("skipped: no peers (no S3 server: FLOE_TEST_S3_ENDPOINT unset; bash scripts/s3.sh start)")
    sys.exit(0)

STARTED = time.monotonic()
failures = ic.Failures()
home = ic.workdir("seedsrace")
floe = ic.Floe(home)

ORDERS = int(os.environ.get("FLOE_SEEDS_RACE_ORDERS", "1000000"))
COUNTRIES = ["DE", "FR", "US", "IT", "ES"]
TABLE = "race.orders"
EPOCH = dt.datetime(2026, 1, 1)
BUCKET = "seeds-race-%d" % os.getpid()
S3 = {"s3.endpoint": S3_ENDPOINT, "s3.access-key-id": "testing", "s3.secret-access-key": "testing-secret",
      "s3.region": "us-east-1", "s3.path-style-access": "true"}
# Every process (floe serve, Spark's JVM, pyarrow) finds moto's credentials the AWS way too.
os.environ.update({"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing-secret",
                   "AWS_REGION": "us-east-1", "AWS_DEFAULT_REGION": "us-east-1"})

import boto3  # noqa: E402

boto3.client("s3", endpoint_url=S3_ENDPOINT, region_name="us-east-1").create_bucket(Bucket=BUCKET)
warehouse = "s3://%s/warehouse" % BUCKET
catalog_uri = "sqlite://%s?%s" % (floe.db, urllib.parse.urlencode(
    {"warehouse": warehouse, "s3.endpoint": S3_ENDPOINT, "s3.path-style-access": "true"}))
server = ic.FloeServer(floe, home, catalog=catalog_uri)


# ---- the relay that orders each race ---------------------------------------------------------
class GatedRelay(http.server.ThreadingHTTPServer):
    """Forwards every request to floe serve; while armed, holds the matching ones until released."""

    daemon_threads = True

    def __init__(self, target_port):
        super().__init__(("127.0.0.1", 0), RelayHandler)
        self.target_port = target_port
        self.lock = threading.Lock()
        self.should_hold = None
        self.released = threading.Event()
        self.holding = threading.Event()  # set once a request is held
        self.held = []      # (method, path) of the requests held in the current race
        self.answers = []   # (method, path, status) of every forwarded request in the current race
        self.refusals = []  # (method, path, status, request body, answer body) of each 4xx/5xx answer

    def arm(self, should_hold):
        with self.lock:
            self.should_hold, self.held, self.answers, self.refusals = should_hold, [], [], []
            self.released.clear()
            self.holding.clear()

    def release(self):
        self.released.set()

    def disarm(self):
        with self.lock:
            self.should_hold = None
        self.released.set()

    def gate(self, method, path):
        with self.lock:
            rule = self.should_hold
        if rule is not None and not self.released.is_set() and rule(method, path):
            with self.lock:
                self.held.append((method, path))
            self.holding.set()
            self.released.wait(timeout=240)  # bounded: the race releases it or fails by then


class RelayHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length"}

    def relay(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        self.server.gate(self.command, self.path)
        upstream = http.client.HTTPConnection("127.0.0.1", self.server.target_port, timeout=120)
        try:
            headers = {k: v for k, v in self.headers.items() if k.lower() not in self.HOP_BY_HOP | {"host"}}
            upstream.request(self.command, self.path, body=body, headers=headers)
            answer = upstream.getresponse()
            data = answer.read()
            with self.server.lock:
                self.server.answers.append((self.command, self.path, answer.status))
                if answer.status >= 400:
                    self.server.refusals.append((self.command, self.path, answer.status, body, data))
            self.send_response(answer.status)
            for key, value in answer.getheaders():
                if key.lower() not in self.HOP_BY_HOP:
                    self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        finally:
            upstream.close()

    do_GET = do_POST = do_DELETE = do_HEAD = do_PUT = relay

    def log_message(self, *args):
        pass


relay = GatedRelay(server.port)
threading.Thread(target=relay.serve_forever, daemon=True).start()
relay_uri = "http://127.0.0.1:%d" % relay.server_address[1]

spark_started = time.monotonic()
spark = ic.start_spark({"rest": dict({
    "type": "rest", "uri": relay_uri, "token": server.secret, "cache-enabled": "false",
    "io-impl": "org.apache.iceberg.aws.s3.S3FileIO", "client.region": "us-east-1"}, **S3)},
    app="floe-seeds-race", extra_jars=[os.environ["FLOE_PEERS_AWS_BUNDLE_JAR"]])
print("spark started in %.1f s" % (time.monotonic() - spark_started), flush=True)
failures.check("floe serve answers GET /v1/config", server.wait_ready())

from pyiceberg.catalog import load_catalog  # noqa: E402

# PyIceberg reaches floe serve through a relay of its own that is never armed: it only counts
# PyIceberg's commits.
py_relay = GatedRelay(server.port)
threading.Thread(target=py_relay.serve_forever, daemon=True).start()
rest = load_catalog("floe_rest", type="rest", uri="http://127.0.0.1:%d" % py_relay.server_address[1],
                    token=server.secret, **S3)
# PyIceberg's own SQL catalog on the same database (catalog_name 'default', floe's): no server
# between PyIceberg and the database, so nobody rebases PyIceberg's stale commits.
direct = load_catalog("default", type="sql", uri="sqlite:///" + floe.db, warehouse=warehouse, **S3)


# ---- the rows: a model of what the table must hold ---------------------------------------------
class Model:
    """Base orders are 0..ORDERS-1 minus those a committed delete removed (predicates on the id,
    applied to the base only when the delete saw them); extra orders are the ones written later."""

    def __init__(self):
        self.base_deletes = []
        self.extra = {}  # order_id -> country

    def delete(self, predicate, extra_seen):
        """A committed delete: predicate(order_id, country); extra_seen: the extra ids it read."""
        self.base_deletes.append(predicate)
        for order_id in [i for i in extra_seen if i in self.extra]:
            if predicate(order_id, self.extra[order_id]):
                del self.extra[order_id]

    def per_country(self):
        """{country: (rows, sum of order_id)}"""
        totals = {c: [0, 0] for c in COUNTRIES}
        for order_id in range(ORDERS):
            country = COUNTRIES[order_id % 5]
            if not any(p(order_id, country) for p in self.base_deletes):
                totals[country][0] += 1
                totals[country][1] += order_id
        for order_id, country in self.extra.items():
            totals[country][0] += 1
            totals[country][1] += order_id
        return {c: tuple(v) for c, v in totals.items() if v[0]}


model = Model()
next_id = [ORDERS]


def new_orders(country, parity):
    """Two fresh order ids of the given parity (0 even, 1 odd), above every id so far."""
    ids = []
    while len(ids) < 2:
        if next_id[0] % 2 == parity:
            ids.append(next_id[0])
        next_id[0] += 1
    return [(i, country) for i in ids]


def arrow(orders):
    import pyarrow as pa
    return pa.table({"order_id": pa.array([o for o, _ in orders], pa.int64()),
                     "country": pa.array([c for _, c in orders], pa.string()),
                     "amount": pa.array([o % 1000 for o, _ in orders], pa.int64()),
                     "ts": pa.array([EPOCH + dt.timedelta(seconds=o) for o, _ in orders], pa.timestamp("us"))})


def spark_insert_sql(orders):
    return "INSERT INTO rest.%s VALUES %s" % (TABLE, ", ".join(
        "(%d, '%s', %d, TIMESTAMP_NTZ'%s')" % (o, c, o % 1000, (EPOCH + dt.timedelta(seconds=o)).isoformat(" "))
        for o, c in orders))


# ---- the outcome table -------------------------------------------------------------------------
OUTCOMES = []
KEY_PHRASES = ("Found conflicting files", "Cannot commit", "Missing required files", "missing data files",
               "Requirement failed", "ValidationException", "CommitFailedException")


def message_of(error):
    """The engine's own message: the first line naming the conflict, else the first line; for a
    Java exception whose cause names the conflict better (a procedure wraps it), with that cause."""
    text = str(error)
    causes = []
    # PySpark keeps the Java exception as _origin (a converted error) or java_exception (py4j's).
    throwable = getattr(error, "_origin", None) or getattr(error, "java_exception", None)
    for _ in range(8):  # the cause chain, bounded
        if throwable is None:
            break
        causes.append("%s: %s" % (throwable.getClass().getSimpleName(), throwable.getMessage()))
        throwable = throwable.getCause()
    validation = [c for c in causes[1:] if c.startswith("ValidationException")] or [
        line.split("exceptions.", 1)[-1] for line in text.splitlines()
        if line.startswith("Caused by:") and "ValidationException" in line]
    if validation:
        return first_line(text).split(". ")[0] + ". [cause: " + clean(validation[-1]) + "]"
    line = first_line(text)
    if line:
        return line
    return causes[0] if causes else type(error).__name__


def first_line(text):
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for phrase in KEY_PHRASES:
        for line in lines:
            if phrase in line:
                return clean(line)
    return clean(lines[0]) if lines else ""


def clean(line):
    return re.sub(r"\s+", " ", line).lstrip(": ")[:400]


def record(writer, other, isolation, outcome, message, expected, expected_outcome):
    ok = outcome == expected_outcome and all(phrase in message for phrase in expected)
    OUTCOMES.append((writer, other, isolation, outcome, message))
    failures.check("%s vs %s (%s): %s" % (writer, other, isolation, outcome), ok,
                   "expected %s with %s; got %s: %s" % (expected_outcome, expected, outcome, message))


def run_spark(group, sql, verdict):
    spark.sparkContext.setJobGroup(group, sql[:80])
    try:
        spark.sql(sql).collect()
        verdict["outcome"], verdict["message"] = "committed", ""
    except Exception as error:  # noqa: BLE001 - Spark's refusal is the verdict
        verdict["outcome"], verdict["message"] = "refused", message_of(error)
    finally:
        spark.sparkContext.setJobGroup("idle", "")


RACES = [0]


def answer_text(body):
    import gzip
    try:
        return gzip.decompress(body).decode() if body[:2] == b"\x1f\x8b" else body.decode()
    except (OSError, UnicodeDecodeError):
        return repr(body[:300])


def on_table(path):
    return path.split("?")[0].endswith("/tables/" + TABLE.split(".")[1])


def race(sql, other, hold):
    """Runs Spark's `sql` and, once Spark has planned, `other` (PyIceberg's commit); Spark's
    requests for the table (hold='table') or its commit POST alone (hold='commit') wait for it.
    Returns (Spark's verdict, other's verdict, the relay's record of Spark's requests)."""
    RACES[0] += 1
    group = "seeds-race-%d" % RACES[0]
    tracker = spark.sparkContext.statusTracker()

    planned_seen = threading.Event()

    def spark_planned():
        # A job of the statement's group, or any job (a procedure runs its jobs on Iceberg's own
        # threads, outside the group): nothing else runs Spark jobs during a race.
        if not planned_seen.is_set() and (tracker.getJobIdsForGroup(group) or tracker.getActiveJobsIds()):
            planned_seen.set()
        return planned_seen.is_set()

    def should_hold(method, path):
        return on_table(path) and (hold == "table" or method == "POST") and spark_planned()

    relay.arm(should_hold)
    verdict = {}
    thread = threading.Thread(target=run_spark, args=(group, sql, verdict))
    thread.start()
    deadline = time.monotonic() + 240
    while not spark_planned() and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    planned = spark_planned()
    if hold == "commit":  # PyIceberg commits only once Spark's commit is on its way (and held)
        while planned and not relay.holding.is_set() and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        planned = relay.holding.is_set()
    try:
        other_verdict = other() if planned else {"outcome": "not run", "message": "Spark never started a job"}
    except Exception as error:  # noqa: BLE001 - PyIceberg's refusal is its verdict
        other_verdict = {"outcome": "refused", "message": message_of(error)}
    relay.release()
    thread.join(timeout=300)
    relay.disarm()
    traffic = {"held": list(relay.held), "answers": list(relay.answers), "refusals": list(relay.refusals)}
    # Ordered by construction: the relay held whatever Spark sent on the table after planning
    # until PyIceberg was done (none when Spark's job outlasted PyIceberg's commit anyway).
    failures.check("race %d ordered: Spark planned, PyIceberg committed, then Spark committed "
                   "(the relay held %d of Spark's requests meanwhile)" % (RACES[0], len(traffic["held"])),
                   planned and not thread.is_alive() and (hold == "table" or len(traffic["held"]) == 1),
                   "planned=%s, spark done=%s, held=%s, Spark's requests: %s" % (
                       planned, not thread.is_alive(), traffic["held"], traffic["answers"]))
    return verdict, other_verdict, traffic


def pyiceberg(action):
    """PyIceberg's side of a race: load the table now (Spark has planned, not committed), act."""
    def run():
        table = rest.load_table(TABLE)
        action(table)
        return {"outcome": "committed", "message": ""}
    return run


# ---- the table -----------------------------------------------------------------------------------
def create_orders():
    spark.sql("CREATE NAMESPACE IF NOT EXISTS rest.race")
    spark.sql("CREATE TABLE rest.%s (order_id BIGINT, country STRING, amount BIGINT, ts TIMESTAMP_NTZ) USING iceberg "
              "PARTITIONED BY (country) TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='copy-on-write', "
              "'write.update.mode'='copy-on-write')" % TABLE)
    loaded = time.monotonic()
    spark.sql("INSERT INTO rest.%s SELECT id, element_at(array(%s), CAST(id %% 5 + 1 AS INT)), id %% 1000, "
              "CAST(timestamp_seconds(%d + id) AS TIMESTAMP_NTZ) FROM range(%d)" % (
                  TABLE, ", ".join("'%s'" % c for c in COUNTRIES), int((EPOCH - dt.datetime(1970, 1, 1)).total_seconds()),
                  ORDERS))
    print("%d orders written by Spark in %.1f s" % (ORDERS, time.monotonic() - loaded), flush=True)


def set_isolation(level):
    spark.sql("ALTER TABLE rest.%s SET TBLPROPERTIES ('write.delete.isolation-level'='%s')" % (TABLE, level))


DELETE_EVEN_DE = "DELETE FROM rest.%s WHERE country = 'DE' AND order_id %% 2 = 0" % TABLE


def even_de(order_id, country):
    return country == "DE" and order_id % 2 == 0


def races():
    create_orders()

    # 1. serializable (the default): PyIceberg's even German orders may match Spark's delete.
    added = new_orders("DE", 0)
    seen = list(model.extra)
    timed = time.monotonic()
    spark_v, py_v, _ = race(DELETE_EVEN_DE, pyiceberg(lambda t: t.append(arrow(added))), hold="table")
    print("race 1 took %.1f s" % (time.monotonic() - timed), flush=True)
    model.extra.update(added)
    if spark_v.get("outcome") == "committed":
        model.delete(even_de, seen)
    record("Spark DELETE DE even (copy-on-write)", "PyIceberg append 2 even DE", "serializable",
           spark_v.get("outcome"), spark_v.get("message", ""),
           ["Found conflicting files that can contain records matching"], "refused")
    record("PyIceberg append 2 even DE", "Spark DELETE DE even", "-", py_v["outcome"], py_v["message"], [], "committed")

    # 2. snapshot isolation: both land, PyIceberg's rows survive Spark's delete.
    set_isolation("snapshot")
    added = new_orders("DE", 0)
    seen = list(model.extra)
    spark_v, py_v, _ = race(DELETE_EVEN_DE, pyiceberg(lambda t: t.append(arrow(added))), hold="table")
    model.extra.update(added)
    if spark_v.get("outcome") == "committed":
        model.delete(even_de, seen)
    record("Spark DELETE DE even (copy-on-write)", "PyIceberg append 2 even DE", "snapshot",
           spark_v.get("outcome"), spark_v.get("message", ""), [], "committed")
    record("PyIceberg append 2 even DE", "Spark DELETE DE even", "-", py_v["outcome"], py_v["message"], [], "committed")
    set_isolation("serializable")

    # 3. serializable, the append in another partition: both land.
    added = new_orders("FR", 0)
    seen = list(model.extra)
    sql = "DELETE FROM rest.%s WHERE country = 'DE' AND order_id %% 3 = 0" % TABLE
    spark_v, py_v, _ = race(sql, pyiceberg(lambda t: t.append(arrow(added))), hold="table")
    model.extra.update(added)
    if spark_v.get("outcome") == "committed":
        model.delete(lambda o, c: c == "DE" and o % 3 == 0, seen)
    record("Spark DELETE DE id%3=0 (copy-on-write)", "PyIceberg append 2 FR", "serializable",
           spark_v.get("outcome"), spark_v.get("message", ""), [], "committed")
    record("PyIceberg append 2 FR", "Spark DELETE DE id%3=0", "-", py_v["outcome"], py_v["message"], [], "committed")

    # 4. a compaction of DE against PyIceberg deleting rows of one of its input files.
    victims = [o for o, c in model.extra.items() if c == "DE"][:1]
    victim_filter = "order_id == %d" % victims[0]
    sql = ("CALL rest.system.rewrite_data_files(table => '%s', where => \"country = 'DE'\", "
           "options => map('rewrite-all', 'true', 'partial-progress.enabled', 'false'))" % TABLE)
    spark_v, py_v, _ = race(sql, pyiceberg(lambda t: t.delete(delete_filter=victim_filter)), hold="table")
    if py_v["outcome"] == "committed":
        model.delete(lambda o, c: o in victims, list(model.extra))
    record("Spark rewrite_data_files DE (compaction)", "PyIceberg delete 1 DE row", "serializable",
           spark_v.get("outcome"), spark_v.get("message", ""), ["Cannot commit rewrite",
                                                                "Missing required files to delete"], "refused")
    record("PyIceberg delete 1 DE row", "Spark rewrite_data_files DE", "-", py_v["outcome"], py_v["message"], [],
           "committed")

    # 5. two appends: Spark's commit reaches floe serve after PyIceberg's, stale; the server rebases it.
    spark_rows, py_rows = new_orders("US", 1), new_orders("US", 1)
    spark_v, py_v, traffic = race(spark_insert_sql(spark_rows), pyiceberg(lambda t: t.append(arrow(py_rows))),
                                  hold="commit")
    commits = [status for method, path, status in traffic["answers"] if method == "POST" and on_table(path)]
    if spark_v.get("outcome") == "committed":
        model.extra.update(spark_rows)
    if py_v["outcome"] == "committed":
        model.extra.update(py_rows)
    record("Spark INSERT 2 US", "PyIceberg append 2 US", "-", spark_v.get("outcome"),
           spark_v.get("message") or "floe serve answered Spark's stale commit %s" % commits, [], "committed")
    record("PyIceberg append 2 US", "Spark INSERT 2 US", "-", py_v["outcome"], py_v["message"], [], "committed")
    # floe serve rebases a stale append (DESIGN.md, "What conflicts"): one POST, answered 200. A
    # 409 would make Spark refresh and retry (both still land, one round trip later). Spark's
    # list leaves out the manifests of DELETED entries only that PyIceberg's delete (race 4) left.
    failures.check("floe serve rebased Spark's stale append (one commit request, answered 200): %s" % commits,
                   commits == [200], "".join("refused with %s; " % answer_text(r[4])
                                             for r in traffic["refusals"] if on_table(r[1])))

    # 6. PyIceberg's stale table object: alone (its SQL catalog) refused; through floe serve it lands.
    # PyIceberg's own retry (refresh, re-validate, recommit) is off, so that what is judged is the
    # one stale commit.
    spark.sql("ALTER TABLE rest.%s SET TBLPROPERTIES ('commit.retry.num-retries'='0')" % TABLE)
    for via, catalog, expected, phrase in (("PyIceberg SqlCatalog (no server)", direct, "refused",
                                            ["Requirement failed: branch main has changed"]),
                                           ("PyIceberg via floe serve", rest, "committed", [])):
        stale = catalog.load_table(TABLE)
        spark_rows, py_rows = new_orders("IT", 1), new_orders("IT", 1)
        spark.sql(spark_insert_sql(spark_rows))
        model.extra.update(spark_rows)
        py_relay.arm(None)
        try:
            stale.append(arrow(py_rows))
            outcome, message = "committed", ""
            model.extra.update(py_rows)
        except Exception as error:  # noqa: BLE001 - the refusal is the verdict
            outcome, message = "refused", message_of(error)
        commits = [status for method, path, status in py_relay.answers if method == "POST" and on_table(path)]
        if catalog is rest:
            message = message or "floe serve answered the stale commit %s (rebased)" % commits
            failures.check("PyIceberg sent its stale commit once and floe serve took it: %s" % commits, commits == [200])
        record("%s append 2 IT, stale table" % via, "Spark INSERT 2 IT (committed first)", "-", outcome,
               message, phrase, expected)

    # The rows: exactly the model, per country (count, distinct ids, sum of ids).
    expected = model.per_country()
    actual = {r[0]: (r[1], r[3]) for r in spark.sql(
        "SELECT country, count(*), count(DISTINCT order_id), sum(order_id) FROM rest.%s GROUP BY country" % TABLE
    ).collect()}
    distinct = {r[0]: r[2] for r in spark.sql(
        "SELECT country, count(*), count(DISTINCT order_id) FROM rest.%s GROUP BY country" % TABLE).collect()}
    failures.check("Spark counts exactly the model's rows per country (no lost, no doubled): %s" % {
        c: v[0] for c, v in sorted(expected.items())}, actual == expected, "expected %s, got %s" % (expected, actual))
    failures.check("no order_id twice", all(distinct[c] == actual[c][0] for c in actual), str(distinct))
    extra = rest.load_table(TABLE).scan(row_filter="order_id >= %d" % ORDERS,
                                        selected_fields=("order_id", "country")).to_arrow().to_pylist()
    failures.check("PyIceberg reads exactly the %d later orders: %s" % (len(model.extra), sorted(model.extra)),
                   sorted((r["order_id"], r["country"]) for r in extra) == sorted(model.extra.items()),
                   "got %s" % sorted((r["order_id"], r["country"]) for r in extra))


try:
    failures.run("the seeds' race", races)
finally:
    print("\n%-58s %-38s %-12s %-9s %s" % ("writer", "other writer", "isolation", "outcome", "message"))
    for row in OUTCOMES:
        print("%-58s %-38s %-12s %-9s %s" % row)
    print(flush=True)
    spark.stop()
    relay.shutdown()
    status = server.stop()
failures.check("floe serve exited cleanly on SIGTERM", status in (0, -15), "exit %s" % status)
failures.finish(STARTED)
