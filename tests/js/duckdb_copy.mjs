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
//        node duckdb_copy.mjs copy-ids SRC OUT_DIR              copy-partitioned, with the Iceberg field ids 1-4
//                                                              (and the country column kept in the files)
//        node duckdb_copy.mjs table-scan csv|jsonl|parquet OUT WHERE STEP...
//             an Iceberg table's rows by hand: each STEP is a file listing the files one commit added
//             (data, position delete or equality delete files, told apart by their columns), in
//             commit order; position deletes drop (file_path, pos) from any data file, equality
//             deletes the rows with equal keys (null equal to null) of data files added by earlier
//             commits only; WHERE ('-': none) is SQL over the table's columns
//        node duckdb_copy.mjs table-same csv|jsonl|parquet OUT WHERE STEP...
//             prints 'rows N missing M extra E': OUT's rows against table-scan's
// The rows are those of tests/js/parquet_duckdb_bench.mjs: order_id, country (3 values),
// amount_cents, ts.
import { DuckDBInstance } from '@duckdb/node-api';

const [mode, ...args] = process.argv.slice(2);
const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
const con = await instance.connect();
const quote = (s) => `'${s.replaceAll("'", "''")}'`;
const ident = (s) => `"${s.replaceAll('"', '""')}"`;

// The SELECT of table-scan (see the top). Files' kinds come from their columns, as a reader
// without the manifests would tell them: file_path + pos is a position delete file, a file with
// fewer columns than the data files an equality delete file on those columns.
async function tableQuery(where, stepFiles) {
  const { readFileSync } = await import('node:fs');
  const steps = stepFiles.map((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.length > 0));
  const columnsOf = async (file) =>
    (await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${quote(file)})`)).getRowObjects().map((r) => r.column_name);
  const kinds = [];  // per step: { data: [], positions: [], equality: [{ file, key }] }
  let width = 0;
  for (const files of steps) {
    const kind = { data: [], positions: [], equality: [] };
    for (const file of files) {
      const columns = await columnsOf(file);
      if (columns.includes('file_path') && columns.includes('pos')) kind.positions.push(file);
      else kind.data.push({ file, columns });
      width = Math.max(width, columns.length);
    }
    kinds.push(kind);
  }
  for (const kind of kinds) {
    kind.equality = kind.data.filter((d) => d.columns.length < width).map((d) => ({ file: d.file, key: d.columns }));
    kind.data = kind.data.filter((d) => d.columns.length === width).map((d) => d.file);
  }
  const positions = kinds.flatMap((k) => k.positions);
  const parts = [];
  kinds.forEach((kind, s) => {
    if (kind.data.length === 0) return;
    const list = kind.data.map(quote).join(', ');
    let sql = positions.length > 0
      ? `SELECT d.* FROM read_parquet([${list}], filename = true, file_row_number = true) d
         ANTI JOIN (SELECT regexp_replace(file_path, '^file://', '') AS file_path, pos
                    FROM read_parquet([${positions.map(quote).join(', ')}])) p
           ON p.file_path = d.filename AND p.pos = d.file_row_number`
      : `SELECT d.* FROM read_parquet([${list}]) d`;
    for (const later of kinds.slice(s + 1)) {
      for (const eq of later.equality) {
        const on = eq.key.map((c) => `e.${ident(c)} IS NOT DISTINCT FROM d.${ident(c)}`).join(' AND ');
        sql += ` ANTI JOIN read_parquet(${quote(eq.file)}) e ON ${on}`;
      }
    }
    parts.push(sql);
  });
  const rows = parts.length > 0 ? parts.join(' UNION ALL ') : 'SELECT 1 WHERE false';
  const exclude = positions.length > 0 ? ' EXCLUDE (filename, file_row_number)' : '';
  return `SELECT *${exclude} FROM (${rows})${where === '-' ? '' : ` WHERE ${where}`}`;
}

// COPY options writing `format`.
const copyFormat = (format) =>
  format === 'csv' ? 'FORMAT csv, HEADER' : format === 'jsonl' ? 'FORMAT json' : 'FORMAT parquet, COMPRESSION zstd';

// OUT's rows (written as `format`) read back with the column types of `want`, compared with
// want's as multisets: 'rows N missing M extra E'.
async function sameRows(format, out, want) {
  const typed = await con.runAndReadAll(`DESCRIBE ${want}`);
  const columns = typed.getRowObjects().map((r) => `${quote(r.column_name)}: ${quote(r.column_type)}`).join(', ');
  const got = format === 'csv' ? `SELECT * FROM read_csv(${quote(out)}, header = true, columns = {${columns}})`
    : format === 'jsonl' ? `SELECT * FROM read_json(${quote(out)}, format = 'newline_delimited', columns = {${columns}})`
    : `SELECT * FROM read_parquet(${quote(out)})`;
  const count = async (sql) => (await con.runAndReadAll(sql)).getRows()[0][0];
  const rows = await count(`SELECT count(*) FROM (${got})`);
  const missing = await count(`SELECT count(*) FROM (${want} EXCEPT ALL ${got})`);
  const extra = await count(`SELECT count(*) FROM (${got} EXCEPT ALL ${want})`);
  return `rows ${rows} missing ${missing} extra ${extra}`;
}

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
  await con.run(`COPY (SELECT * FROM read_parquet([${list}])) TO ${quote(out)} (${copyFormat(mode.slice(5))})`);
} else if (mode === 'same') {
  // The output read back with the data files' column types, compared as multisets of rows.
  const [format, out, ...files] = args;
  console.log(await sameRows(format, out, `SELECT * FROM read_parquet([${files.map(quote).join(', ')}])`));
} else if (mode === 'copy-ids') {
  const [src, outDir] = args;
  await con.run(`COPY (SELECT * FROM ${quote(src)}) TO ${quote(outDir)}
    (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (country), WRITE_PARTITION_COLUMNS true, OVERWRITE_OR_IGNORE,
     FIELD_IDS {order_id: 1, country: 2, amount_cents: 3, ts: 4})`);
} else if (mode === 'table-scan') {
  const [format, out, where, ...steps] = args;
  await con.run(`COPY (${await tableQuery(where, steps)}) TO ${quote(out)} (${copyFormat(format)})`);
} else if (mode === 'table-same') {
  const [format, out, where, ...steps] = args;
  console.log(await sameRows(format, out, await tableQuery(where, steps)));
} else if (mode === 'noop') {
  await con.run('SELECT 1');
} else {
  console.error('usage: duckdb_copy.mjs make|copy|scan ...');
  process.exit(2);
}
