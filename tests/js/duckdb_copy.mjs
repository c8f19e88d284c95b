// DuckDB's side of bench/ingest_bench.sh: one COPY statement on DuckDB's 2 threads.
//
// usage: node duckdb_copy.mjs make SRC_PARQUET SRC_CSV ROWS   write the benchmark's input files
//        node duckdb_copy.mjs copy SRC OUT                     COPY (SELECT * FROM SRC) TO OUT (zstd)
//        node duckdb_copy.mjs copy-partitioned SRC OUT_DIR      the same, one folder of files per country
//        node duckdb_copy.mjs scan OUT.csv FILE...             COPY (SELECT * FROM read_parquet([...])) TO OUT.csv
//        node duckdb_copy.mjs scan-jsonl OUT FILE...           the same TO newline-delimited JSON
//        node duckdb_copy.mjs scan-parquet OUT FILE...         the same TO Parquet (zstd, floe's default codec)
//        node duckdb_copy.mjs same csv|jsonl|parquet OUT FILE... prints 'rows N missing M extra E': OUT's rows
//                                                              against the files' (EXCEPT ALL both ways)
//        node duckdb_copy.mjs noop                             start node and DuckDB only (the floor of the others)
// The rows are those of tests/js/parquet_duckdb_bench.mjs: order_id, country (3 values),
// amount_cents, ts.
import { DuckDBInstance } from '@duckdb/node-api';

const [mode, ...args] = process.argv.slice(2);
const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
const con = await instance.connect();
const quote = (s) => `'${s.replaceAll("'", "''")}'`;

if (mode === 'make') {
  const [parquet, csv, rows] = args;
  await con.run(`CREATE TABLE src AS
    WITH a AS (SELECT i, ((i::HUGEINT * 6364136223846793005 + 1442695040888963407) % 18446744073709551616)::UBIGINT AS x0
               FROM range(${Number(rows)}) r(i)),
         b AS (SELECT i, ((xor(x0, x0 >> 33))::UHUGEINT * 18397679294719823053::UHUGEINT
                          % 18446744073709551616::UHUGEINT)::UBIGINT AS x1 FROM a),
         c AS (SELECT i, xor(x1, x1 >> 33) AS x FROM b)
    SELECT i AS order_id,
           ['DE', 'FR', 'US'][((x >> 20) % 3)::INTEGER + 1] AS country,
           ((x >> 33) % 100000)::BIGINT AS amount_cents,
           make_timestamp(1704067200000000 + i * 1000) AS ts
    FROM c ORDER BY i`);
  await con.run(`COPY src TO ${quote(parquet)} (FORMAT parquet, COMPRESSION uncompressed)`);
  if (csv !== '-') await con.run(`COPY src TO ${quote(csv)} (FORMAT csv, HEADER)`);
} else if (mode === 'copy') {
  const [src, out] = args;
  await con.run(`COPY (SELECT * FROM ${quote(src)}) TO ${quote(out)} (FORMAT parquet, COMPRESSION zstd)`);
} else if (mode === 'copy-partitioned') {
  const [src, outDir] = args;
  await con.run(`COPY (SELECT * FROM ${quote(src)}) TO ${quote(outDir)}
    (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (country), OVERWRITE_OR_IGNORE)`);
} else if (mode === 'scan') {
  const [out, ...files] = args;
  const list = files.map(quote).join(', ');
  await con.run(`COPY (SELECT * FROM read_parquet([${list}])) TO ${quote(out)} (FORMAT csv, HEADER)`);
} else if (mode === 'scan-jsonl' || mode === 'scan-parquet') {
  const [out, ...files] = args;
  const list = files.map(quote).join(', ');
  const format = mode === 'scan-jsonl' ? 'FORMAT json' : 'FORMAT parquet, COMPRESSION zstd';
  await con.run(`COPY (SELECT * FROM read_parquet([${list}])) TO ${quote(out)} (${format})`);
} else if (mode === 'same') {
  // The output read back with the data files' column types, compared as multisets of rows.
  const [format, out, ...files] = args;
  const list = files.map(quote).join(', ');
  const want = `SELECT * FROM read_parquet([${list}])`;
  const typed = await con.runAndReadAll(`DESCRIBE ${want}`);
  const columns = typed.getRowObjects().map((r) => `${quote(r.column_name)}: ${quote(r.column_type)}`).join(', ');
  const got = format === 'csv' ? `SELECT * FROM read_csv(${quote(out)}, header = true, columns = {${columns}})`
    : format === 'jsonl' ? `SELECT * FROM read_json(${quote(out)}, format = 'newline_delimited', columns = {${columns}})`
    : `SELECT * FROM read_parquet(${quote(out)})`;
  const count = async (sql) => (await con.runAndReadAll(sql)).getRows()[0][0];
  const rows = await count(`SELECT count(*) FROM (${got})`);
  const missing = await count(`SELECT count(*) FROM (${want} EXCEPT ALL ${got})`);
  const extra = await count(`SELECT count(*) FROM (${got} EXCEPT ALL ${want})`);
  console.log(`rows ${rows} missing ${missing} extra ${extra}`);
} else if (mode === 'noop') {
  await con.run('SELECT 1');
} else {
  console.error('usage: duckdb_copy.mjs make|copy|scan ...');
  process.exit(2);
}
