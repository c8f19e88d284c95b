"""Views shared with the real engines.

Through `floe serve` (on a SQLite catalog database): Spark creates a view, queries it, replaces it
and queries the new version; PyIceberg's RestCatalog lists and loads it. On the same database,
Iceberg Java's JdbcCatalog (Spark's JDBC catalog, schema V1) sees the view floe stored, and floe
serves a view Java created. Bad input (a view named like a table, a representation without a
dialect, a document without current-version-id) is refused with a clear error and writes nothing.

Run: FLOE_BINARY=build/floe $FLOE_PEERS_PYTHON tests/interop/views_peers_test.py
"""

import json
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as ic  # noqa: E402

ic.skip_without_peers()
if not ic.spark_available():
    print("skipped: no peers (Spark is not installed)")
    sys.exit(0)
STARTED = time.monotonic()
failures = ic.Failures()
home = ic.workdir("views")
floe = ic.Floe(home)
server = ic.FloeServer(floe, home)
failures.check("floe serve answers GET /v1/config", server.wait_ready())


def rest(method, path, body=None):
    """(status, parsed JSON or None) of one request to floe serve."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(server.uri + path, data=data, method=method,
                                     headers={"Authorization": "Bearer " + server.secret,
                                              "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            text = answer.read()
            return answer.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        text = error.read()
        return error.code, json.loads(text) if text else None


def view_rows():
    with sqlite3.connect(floe.db) as conn:
        return sorted(conn.execute("SELECT table_namespace, table_name, iceberg_type FROM iceberg_tables").fetchall())


spark = ic.start_spark({
    "rest": {"type": "rest", "uri": server.uri, "token": server.secret, "cache-enabled": "false"},
    # Java's JdbcCatalog on floe's database: its name is floe's catalog_name; V1 keeps views.
    "default": dict(ic.spark_jdbc_catalog(floe), **{"jdbc.schema-version": "V1", "cache-enabled": "false"})},
    extra_jars=[ic.java_jar("sqlite-jdbc")])
print("spark started at %.1f s" % (time.monotonic() - STARTED), flush=True)


def values(sql):
    return sorted(tuple(r) for r in spark.sql(sql).collect())


def spark_through_floe_serve():
    spark.sql("CREATE NAMESPACE rest.vw")
    spark.sql("CREATE TABLE rest.vw.t (id bigint, who string) USING iceberg")
    spark.sql("INSERT INTO rest.vw.t VALUES (1, 'ana'), (2, 'bo'), (3, 'cy')")
    spark.sql("CREATE VIEW rest.vw.big AS SELECT id, who FROM rest.vw.t WHERE id >= 2")
    failures.check("spark queries its view through floe serve",
                   values("SELECT * FROM rest.vw.big") == [(2, "bo"), (3, "cy")])
    spark.sql("CREATE OR REPLACE VIEW rest.vw.big AS SELECT id, who FROM rest.vw.t WHERE id >= 3")
    got = values("SELECT * FROM rest.vw.big")
    failures.check("spark queries the replaced view", got == [(3, "cy")], str(got))
    status, loaded = rest("GET", "/v1/namespaces/vw/views/big")
    failures.check("floe serve loads spark's view", status == 200, str(loaded)[:500])
    metadata = loaded["metadata"]
    failures.check("the replace is a second version in the log",
                   metadata["current-version-id"] == 2 and len(metadata["version-log"]) == 2, json.dumps(metadata)[:800])
    sqls = [r["sql"] for v in metadata["versions"] if v["version-id"] == metadata["current-version-id"]
            for r in v["representations"]]
    failures.check("the current version holds spark's new SQL", any("id >= 3" in s for s in sqls), str(sqls))
    failures.check("the database row is a VIEW", ("vw", "big", "VIEW") in view_rows(), str(view_rows()))


def pyiceberg_lists_and_loads():
    from pyiceberg.catalog.rest import RestCatalog
    catalog = RestCatalog("floe", uri=server.uri, token=server.secret)
    listed = catalog.list_views("vw")
    failures.check("pyiceberg lists the view", ("vw", "big") in [tuple(i) for i in listed], str(listed))
    failures.check("pyiceberg does not list the view as a table",
                   ("vw", "big") not in [tuple(i) for i in catalog.list_tables("vw")])
    view = catalog.load_view("vw.big")
    current = [v for v in view.metadata.versions if v.version_id == view.metadata.current_version_id][0]
    # PyIceberg wraps each representation (a pydantic root model).
    sqls = [getattr(r, "root", r).sql for r in current.representations]
    failures.check("pyiceberg loads the current version's SQL", any("id >= 3" in s for s in sqls), str(sqls))
    failures.check("pyiceberg: view_exists", catalog.view_exists("vw.big"))


def java_jdbc_catalog_shares_views():
    shown = [tuple(r) for r in spark.sql("SHOW VIEWS IN default.vw").collect()]
    failures.check("Java's JdbcCatalog sees the view floe stored", any("big" in r for r in shown), str(shown))
    got = values("SELECT * FROM default.vw.big")
    failures.check("Java's JdbcCatalog queries it", got == [(3, "cy")], str(got))
    spark.sql("CREATE VIEW default.vw.jv AS SELECT who FROM default.vw.t WHERE id = 1")
    status, loaded = rest("GET", "/v1/namespaces/vw/views/jv")
    failures.check("floe serves the view Java created", status == 200, str(loaded)[:500])
    sqls = [r["sql"] for v in loaded["metadata"]["versions"] for r in v["representations"]]
    failures.check("with Java's SQL", any("id = 1" in s for s in sqls), str(sqls))
    status, listed = rest("GET", "/v1/namespaces/vw/views")
    names = sorted(i["name"] for i in listed["identifiers"])
    failures.check("floe lists both views, not the table", names == ["big", "jv"], str(listed))


def bad_input_writes_nothing():
    before = view_rows()
    files_before = sorted(os.path.join(d, f) for d, _, fs in os.walk(floe.warehouse) for f in fs if "catalog.db" not in f)
    version = {"version-id": 1, "timestamp-ms": 1, "schema-id": 0, "summary": {}, "default-namespace": ["vw"],
               "representations": [{"type": "sql", "sql": "SELECT 1", "dialect": "spark"}]}
    schema = {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "x", "required": False, "type": "int"}]}
    status, error = rest("POST", "/v1/namespaces/vw/views", {"name": "t", "schema": schema, "view-version": version})
    failures.check("a view named like a table: 409 with Iceberg's message",
                   status == 409 and error["error"]["message"] == "Table with same name already exists: vw.t", str(error))
    no_dialect = dict(version, representations=[{"type": "sql", "sql": "SELECT 1"}])
    status, error = rest("POST", "/v1/namespaces/vw/views", {"name": "nd", "schema": schema, "view-version": no_dialect})
    failures.check("a representation without dialect: 400 naming the field",
                   status == 400 and "dialect" in error["error"]["message"], str(error))
    _, loaded = rest("GET", "/v1/namespaces/vw/views/big")
    document = dict(loaded["metadata"])
    del document["current-version-id"]
    bad_path = os.path.join(floe.warehouse, "vw", "bad.metadata.json")
    with open(bad_path, "w") as f:
        json.dump(document, f)
    status, error = rest("POST", "/v1/namespaces/vw/register-view", {"name": "bad", "metadata-location": bad_path})
    failures.check("a document without current-version-id: 400 naming the field",
                   status == 400 and "current-version-id" in error["error"]["message"], str(error))
    os.remove(bad_path)
    files_after = sorted(os.path.join(d, f) for d, _, fs in os.walk(floe.warehouse) for f in fs if "catalog.db" not in f)
    failures.check("nothing written by the refusals", view_rows() == before and files_after == files_before,
                   "%s -> %s" % (before, view_rows()))


try:
    failures.run("spark through floe serve", spark_through_floe_serve)
    failures.run("pyiceberg lists and loads", pyiceberg_lists_and_loads)
    failures.run("Java's JdbcCatalog on floe's database", java_jdbc_catalog_shares_views)
    failures.run("bad input", bad_input_writes_nothing)
finally:
    spark.stop()
    status = server.stop()
failures.check("floe serve exited cleanly on SIGTERM", status in (0, -15), "exit %s" % status)
failures.finish(STARTED)
