"""DuckDB's side of the whole-table benches (ingest, scan output, table scans), with DuckDB timed
by itself: the statement alone, inside this process, not a process's start-up.

Run with the peers' Python (scripts/peers.sh: FLOE_PEERS_PYTHON, DuckDB 1.4.4):

  duckdb_peer.py make SRC_PARQUET SRC_CSV|- ROWS     the benches' input rows (order_id, country of
                                                     3 values, amount_cents, ts), uncompressed
  duckdb_peer.py upsert-input SRC OUT                0.1% of SRC's rows, amount_cents + 1
  duckdb_peer.py copy-ids SRC OUT_DIR                SRC by country, with Iceberg field ids 1-4
  duckdb_peer.py run MODE ARGS...                    one statement of a MODE below, untimed
  duckdb_peer.py same csv|jsonl|parquet OUT FILE...  'rows N missing M extra E': OUT against FILEs
  duckdb_peer.py table-same FORMAT OUT WHERE STEP... the same against table-scan's rows
  duckdb_peer.py pair RUNS [--clean PATH]... [--before FLOE2] -- FLOE_ARGV... -- MODE ARGS... [-- MODE ARGS...]
      RUNS rounds (after one warm-up round), each: FLOE_ARGV as a whole process, `floe --version`
      (the same binary doing nothing; the median of these is subtracted), then MODE's statement in this process, timed by
      time.perf_counter and time.process_time around con.execute(...).fetchall() on a fresh
      in-memory DuckDB (2 threads; opening it is not timed). PATHs are removed before each run.
      FLOE2 (another floe binary, e.g. main's) runs the same arguments in each round too, and
      each further MODE is a further DuckDB statement timed in each round.
      Prints min / median of each and the median of per-round ratios, floe net of its no-op.

MODEs (the statement DuckDB runs):
  copy SRC OUT                  COPY (SELECT * FROM SRC) TO OUT (FORMAT parquet, COMPRESSION zstd)
  copy-partitioned SRC OUT_DIR  the same, PARTITION_BY (country)
  scan FORMAT OUT FILE...       COPY (SELECT * FROM read_parquet([FILE...])) TO OUT as csv (with a
                                header), jsonl or parquet (zstd)
  table-scan FORMAT OUT WHERE STEP...
      an Iceberg table's rows by hand: each STEP is a file listing the files one commit added
      (data, position delete or equality delete files, told apart by their columns), in commit
      order; position deletes drop (file_path, pos) from any data file, equality deletes the rows
      with equal keys (null equal to null) of data files added by earlier commits only; WHERE
      ('-': none) is SQL over the table's columns. The files are classified before the clock.
  iceberg-scan FORMAT OUT WHERE METADATA_JSON SNAPSHOT|-
      COPY (SELECT * FROM iceberg_scan(METADATA_JSON[, snapshot_from_id]) [WHERE ...]) TO OUT:
      DuckDB reading the table itself, manifests and deletes included, with the iceberg, avro and
      httpfs extensions loaded from FLOE_PEERS_DUCKDB_EXTENSIONS (never downloaded)
"""
import os
import statistics
import subprocess
import sys
import time

import duckdb


def quote(s):
    return "'" + s.replace("'", "''") + "'"


def ident(s):
    return '"' + s.replace('"', '""') + '"'


def connect():
    con = duckdb.connect(":memory:")
    con.execute("SET threads = 2")
    return con


def load_iceberg(con):
    folder = os.environ.get("FLOE_PEERS_DUCKDB_EXTENSIONS", "")
    if not folder:
        sys.exit("duckdb_peer.py: iceberg-scan needs FLOE_PEERS_DUCKDB_EXTENSIONS (scripts/peers.sh env)")
    con.execute("SET autoinstall_known_extensions = false")
    con.execute("SET autoload_known_extensions = false")
    for name in ("avro", "httpfs", "iceberg"):
        con.execute(f"LOAD {quote(os.path.join(folder, name + '.duckdb_extension'))}")


def copy_format(fmt):
    return {"csv": "FORMAT csv, HEADER", "jsonl": "FORMAT json"}.get(fmt, "FORMAT parquet, COMPRESSION zstd")


def table_query(con, where, step_files):
    """The SELECT of table-scan (see the top)."""
    steps = [[l for l in open(f).read().split("\n") if l] for f in step_files]

    def columns_of(path):
        return [r[0] for r in con.execute(f"DESCRIBE SELECT * FROM read_parquet({quote(path)})").fetchall()]

    kinds, width = [], 0
    for files in steps:
        kind = {"data": [], "positions": [], "equality": []}
        for path in files:
            cols = columns_of(path)
            if "file_path" in cols and "pos" in cols:
                kind["positions"].append(path)
            else:
                kind["data"].append((path, cols))
            width = max(width, len(cols))
        kinds.append(kind)
    for kind in kinds:
        kind["equality"] = [(p, c) for p, c in kind["data"] if len(c) < width]
        kind["data"] = [p for p, c in kind["data"] if len(c) == width]
    positions = [p for k in kinds for p in k["positions"]]
    parts = []
    for s, kind in enumerate(kinds):
        if not kind["data"]:
            continue
        files = ", ".join(map(quote, kind["data"]))
        if positions:
            sql = (f"SELECT d.* FROM read_parquet([{files}], filename = true, file_row_number = true) d "
                   f"ANTI JOIN (SELECT regexp_replace(file_path, '^file://', '') AS file_path, pos "
                   f"FROM read_parquet([{', '.join(map(quote, positions))}])) p "
                   f"ON p.file_path = d.filename AND p.pos = d.file_row_number")
        else:
            sql = f"SELECT d.* FROM read_parquet([{files}]) d"
        for later in kinds[s + 1:]:
            for path, key in later["equality"]:
                on = " AND ".join(f"e.{ident(c)} IS NOT DISTINCT FROM d.{ident(c)}" for c in key)
                sql += f" ANTI JOIN read_parquet({quote(path)}) e ON {on}"
        parts.append(sql)
    rows = " UNION ALL ".join(parts) if parts else "SELECT 1 WHERE false"
    exclude = " EXCLUDE (filename, file_row_number)" if positions else ""
    return f"SELECT *{exclude} FROM ({rows})" + ("" if where == "-" else f" WHERE {where}")


def statement(con, mode, args):
    """The SQL of a MODE (see the top); any set-up queries run here, before the clock."""
    if mode == "copy":
        src, out = args
        return f"COPY (SELECT * FROM {quote(src)}) TO {quote(out)} (FORMAT parquet, COMPRESSION zstd)"
    if mode == "copy-partitioned":
        src, out = args
        return (f"COPY (SELECT * FROM {quote(src)}) TO {quote(out)} "
                f"(FORMAT parquet, COMPRESSION zstd, PARTITION_BY (country), OVERWRITE_OR_IGNORE)")
    if mode == "scan":
        fmt, out, *files = args
        return (f"COPY (SELECT * FROM read_parquet([{', '.join(map(quote, files))}])) TO {quote(out)} "
                f"({copy_format(fmt)})")
    if mode == "table-scan":
        fmt, out, where, *steps = args
        return f"COPY ({table_query(con, where, steps)}) TO {quote(out)} ({copy_format(fmt)})"
    if mode == "iceberg-scan":
        fmt, out, where, metadata, snapshot = args
        load_iceberg(con)
        at = "" if snapshot == "-" else f", snapshot_from_id = {int(snapshot)}"
        rows = f"SELECT * FROM iceberg_scan({quote(metadata)}{at})" + ("" if where == "-" else f" WHERE {where}")
        return f"COPY ({rows}) TO {quote(out)} ({copy_format(fmt)})"
    sys.exit(f"duckdb_peer.py: unknown mode {mode!r} (copy, copy-partitioned, scan, table-scan, iceberg-scan)")


def same_rows(con, fmt, out, want):
    """OUT's rows read back with the column types of `want`, against want's, as multisets."""
    typed = con.execute(f"DESCRIBE {want}").fetchall()
    columns = ", ".join(f"{quote(r[0])}: {quote(r[1])}" for r in typed)
    got = {"csv": f"SELECT * FROM read_csv({quote(out)}, header = true, columns = {{{columns}}})",
           "jsonl": f"SELECT * FROM read_json({quote(out)}, format = 'newline_delimited', columns = {{{columns}}})"
           }.get(fmt, f"SELECT * FROM read_parquet({quote(out)})")
    count = lambda sql: con.execute(sql).fetchone()[0]
    rows = count(f"SELECT count(*) FROM ({got})")
    missing = count(f"SELECT count(*) FROM ({want} EXCEPT ALL {got})")
    extra = count(f"SELECT count(*) FROM ({got} EXCEPT ALL {want})")
    return f"rows {rows} missing {missing} extra {extra}"


def make(parquet, csv, rows):
    con = connect()
    con.execute(f"""CREATE TABLE src AS
      WITH a AS (SELECT i, ((i::HUGEINT * 6364136223846793005 + 1442695040888963407) % 18446744073709551616)::UBIGINT AS x0
                 FROM range({int(rows)}) r(i)),
           b AS (SELECT i, ((xor(x0, x0 >> 33))::UHUGEINT * 18397679294719823053::UHUGEINT
                            % 18446744073709551616::UHUGEINT)::UBIGINT AS x1 FROM a),
           c AS (SELECT i, xor(x1, x1 >> 33) AS x FROM b)
      SELECT i AS order_id,
             ['DE', 'FR', 'US'][((x >> 20) % 3)::INTEGER + 1] AS country,
             ((x >> 33) % 100000)::BIGINT AS amount_cents,
             make_timestamp(1704067200000000 + i * 1000) AS ts
      FROM c ORDER BY i""")
    con.execute(f"COPY src TO {quote(parquet)} (FORMAT parquet, COMPRESSION uncompressed)")
    if csv != "-":
        con.execute(f"COPY src TO {quote(csv)} (FORMAT csv, HEADER)")


def remove(path):
    if os.path.isdir(path):
        subprocess.run(["rm", "-rf", path], check=True)
    elif os.path.lexists(path):
        os.unlink(path)


def run_process(argv):
    """(wall s, cpu s, peak KiB) of one whole process; a failure stops the bench."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"duckdb_peer.py: {' '.join(argv)} failed ({proc.returncode}):\n{err}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def run_duckdb(mode, args):
    """(wall s, cpu s) of the statement alone on a fresh in-memory DuckDB."""
    con = connect()
    sql = statement(con, mode, args)
    cpu0, start = time.process_time(), time.perf_counter()
    con.execute(sql).fetchall()
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu0
    con.close()
    return wall, cpu


def median(values):
    return statistics.median(values)


def pair(argv):
    runs = int(argv[0])
    rest = argv[1:]
    clean, before = [], None
    while rest and rest[0] in ("--clean", "--before"):
        if rest[0] == "--clean":
            clean.append(rest[1])
        else:
            before = rest[1]
        rest = rest[2:]
    if not rest or rest[0] != "--" or "--" not in rest[1:]:
        sys.exit("usage: duckdb_peer.py pair RUNS [--clean PATH]... [--before FLOE2] -- FLOE_ARGV... -- MODE ARGS...")
    split = rest.index("--", 1)
    floe_argv, statements = rest[1:split], [[]]
    for arg in rest[split + 1:]:
        if arg == "--":
            statements.append([])
        else:
            statements[-1].append(arg)
    ducks = {("DuckDB" if i == 0 else f"DuckDB {st[0]}"): st for i, st in enumerate(statements)}
    binaries = {"floe": floe_argv[0]}
    if before:
        binaries["before"] = before
    rounds = []  # per round: {name: (wall, cpu, peak)} for each binary and its no-op, {duck: (wall, cpu)}
    for i in range(runs + 1):  # round 0 warms the caches and is not counted
        got = {}
        for name, binary in binaries.items():
            for path in clean:
                remove(path)
            got[name] = run_process([binary] + floe_argv[1:])
            got[name + " no-op"] = run_process([binary, "--version"])
        for duck, (mode, *mode_args) in ducks.items():
            for path in clean:
                remove(path)
            got[duck] = run_duckdb(mode, mode_args)
        if i > 0:
            rounds.append(got)
    for path in clean:
        remove(path)

    def show(name, values):
        print(f"  {name:<36} min {min(values):7.3f} s  median {median(values):7.3f} s")

    # floe's net time: each run less the median of its no-op runs (one no-op run is too short to
    # subtract alone on a loaded machine).
    noop = {name: (median([r[name + " no-op"][0] for r in rounds]), median([r[name + " no-op"][1] for r in rounds]))
            for name in binaries}
    for name in binaries:
        show(f"{name} wall (whole process)", [r[name][0] for r in rounds])
        show(f"{name} cpu (whole process)", [r[name][1] for r in rounds])
        show(f"{name} --version wall (no-op)", [r[name + ' no-op'][0] for r in rounds])
        show(f"{name} wall net of the no-op", [r[name][0] - noop[name][0] for r in rounds])
        show(f"{name} cpu net of the no-op", [r[name][1] - noop[name][1] for r in rounds])
        print(f"  {name} peak RSS {median([r[name][2] for r in rounds]) / 1024:.0f} MiB (median)")
    for duck in ducks:
        show(f"{duck} wall (statement)", [r[duck][0] for r in rounds])
        show(f"{duck} cpu (statement)", [r[duck][1] for r in rounds])
    for duck in ducks:
        for name in binaries:
            wall = median([(r[name][0] - noop[name][0]) / r[duck][0] for r in rounds])
            cpu = median([(r[name][1] - noop[name][1]) / max(r[duck][1], 1e-6) for r in rounds])
            by_min = ((min(r[name][0] for r in rounds) - min(r[name + " no-op"][0] for r in rounds))
                      / min(r[duck][0] for r in rounds))
            print(f"  {name} net / {duck}: wall {wall:.2f}x (median of {runs} rounds; by minimums {by_min:.2f}x), "
                  f"cpu {cpu:.2f}x")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    what, args = sys.argv[1], sys.argv[2:]
    if what == "make":
        make(*args)
    elif what == "upsert-input":
        src, out = args
        connect().execute(f"COPY (SELECT order_id, country, amount_cents + 1 AS amount_cents, ts FROM {quote(src)} "
                          f"WHERE order_id % 1000 = 7) TO {quote(out)} (FORMAT parquet)")
    elif what == "copy-ids":
        src, out = args
        connect().execute(f"""COPY (SELECT * FROM {quote(src)}) TO {quote(out)}
          (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (country), WRITE_PARTITION_COLUMNS true,
           OVERWRITE_OR_IGNORE, FIELD_IDS {{order_id: 1, country: 2, amount_cents: 3, ts: 4}})""")
    elif what == "run":
        con = connect()
        con.execute(statement(con, args[0], args[1:])).fetchall()
    elif what == "same":
        fmt, out, *files = args
        print(same_rows(connect(), fmt, out, f"SELECT * FROM read_parquet([{', '.join(map(quote, files))}])"))
    elif what == "table-same":
        fmt, out, where, *steps = args
        con = connect()
        print(same_rows(con, fmt, out, table_query(con, where, steps)))
    elif what == "pair":
        pair(args)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
