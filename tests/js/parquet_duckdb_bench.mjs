// DuckDB's side of bench/parquet_bench.cc: the same rows, written with COPY TO (zstd) and
// scanned with read_parquet, on DuckDB's 2 threads.
//
// usage: node parquet_duckdb_bench.mjs ROWS OUT_DIR [FLOE_FILE]
// The rows are materialized in memory first (untimed, as floe's bench builds its batches
// before timing). Prints one JSON line: write_s / write_cpu_s, file_bytes, scan_sum_s,
// scan_filter_s (best of 5, warm) and their results; with FLOE_FILE also DuckDB's scans of
// floe's file (a cross-check that DuckDB reads it and gets the same answers).
import { DuckDBInstance } from '@duckdb/node-api';
import fs from 'fs';
import path from 'path';

const [rowsArg, outDir, floeFile] = process.argv.slice(2);
const rows = Number(rowsArg ?? 10000000);
const out = path.join(outDir ?? '/tmp', `duckdb_bench_${process.pid}.parquet`);

const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
const con = await instance.connect();
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
const now = () => performance.now() / 1000;

async function scalar(sql) {
  const reader = await con.runAndReadAll(sql);
  return reader.getRows()[0].map((v) => (typeof v === 'bigint' ? v.toString() : v));
}

await con.run(`CREATE TABLE bench AS
  WITH a AS (SELECT i, ((i::HUGEINT * 6364136223846793005 + 1442695040888963407) % 18446744073709551616)::UBIGINT AS x0
             FROM range(${rows}) r(i)),
       b AS (SELECT i, ((xor(x0, x0 >> 33))::UHUGEINT * 18397679294719823053::UHUGEINT
                        % 18446744073709551616::UHUGEINT)::UBIGINT AS x1 FROM a),
       c AS (SELECT i, xor(x1, x1 >> 33) AS x FROM b)
  SELECT i AS order_id,
         ['DE', 'FR', 'US'][((x >> 20) % 3)::INTEGER + 1] AS country,
         ((x >> 33) % 100000)::BIGINT AS amount_cents,
         make_timestamp(1704067200000000 + i * 1000) AS ts
  FROM c ORDER BY i`);

let t0 = now(), c0 = cpu();
await con.run(`COPY bench TO '${out}' (FORMAT parquet, COMPRESSION zstd)`);
const write_s = now() - t0, write_cpu_s = cpu() - c0;
const file_bytes = fs.statSync(out).size;

async function scans(file) {
  let best = { sum: 1e9, filter: 1e9, sum_cpu: 1e9, filter_cpu: 1e9 };
  let r1, r2;
  for (let run = 0; run < 5; ++run) {
    let a = now(), ca = cpu();
    r1 = await scalar(`SELECT count(*), sum(amount_cents) FROM read_parquet('${file}')`);
    let b = now(), cb = cpu();
    r2 = await scalar(`SELECT count(*), sum(amount_cents) FROM read_parquet('${file}') WHERE country = 'DE'`);
    let c = now(), cc = cpu();
    best.sum = Math.min(best.sum, b - a);
    best.filter = Math.min(best.filter, c - b);
    best.sum_cpu = Math.min(best.sum_cpu, cb - ca);
    best.filter_cpu = Math.min(best.filter_cpu, cc - cb);
  }
  return { scan_sum_s: best.sum, scan_sum_cpu_s: best.sum_cpu, scan_filter_s: best.filter, scan_filter_cpu_s: best.filter_cpu,
           count: r1[0], sum: r1[1], de_count: r2[0], de_sum: r2[1] };
}

const result = { engine: 'duckdb', rows, write_s, write_cpu_s, file_bytes, ...(await scans(out)) };
if (floeFile) result.on_floe_file = await scans(floeFile);
console.log(JSON.stringify(result));
fs.unlinkSync(out);
