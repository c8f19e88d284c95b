// DuckDB as the other engine in tests/parquet_duckdb_test.cc.
//
//   node read_parquet.mjs read FILE "SELECT ... FROM t"   rows of the query over the file (view t)
//   node read_parquet.mjs write FILE CODEC               DuckDB writes its sample table to FILE
//
// "read" prints one JSON array per row; every value is a string (the test chooses the SQL
// that renders each column canonically) or null.
import { DuckDBInstance } from '@duckdb/node-api';

const [mode, file, arg] = process.argv.slice(2);
const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const con = await instance.connect();
const quote = (s) => `'${s.replaceAll("'", "''")}'`;

if (mode === 'read') {
  await con.run(`CREATE VIEW t AS SELECT * FROM read_parquet(${quote(file)})`);
  const reader = await con.runAndReadAll(arg);
  for (const row of reader.getRows()) {
    console.log(JSON.stringify(row.map((v) => (v === null ? null : String(v)))));
  }
} else if (mode === 'write') {
  // i = 0..999; every column is null on rows where i % 7 = 3.
  await con.run(`COPY (
    SELECT i AS id,
      CASE WHEN i % 7 = 3 THEN NULL ELSE i % 2 = 0 END AS b,
      CASE WHEN i % 7 = 3 THEN NULL ELSE (i * 37 - 500)::INTEGER END AS i32,
      CASE WHEN i % 7 = 3 THEN NULL ELSE i * 1000000007 END AS i64,
      CASE WHEN i % 7 = 3 THEN NULL ELSE (i / 8)::FLOAT END AS f,
      CASE WHEN i % 7 = 3 THEN NULL ELSE i / 3 END AS d,
      CASE WHEN i % 7 = 3 THEN NULL ELSE (i * 1.25 - 300)::DECIMAL(9,2) END AS dec9,
      CASE WHEN i % 7 = 3 THEN NULL ELSE (i * 123456.789)::DECIMAL(18,3) END AS dec18,
      CASE WHEN i % 7 = 3 THEN NULL ELSE (i::DECIMAL(38,10) * 12345678901234.5) END AS dec38,
      CASE WHEN i % 7 = 3 THEN NULL ELSE DATE '2020-01-01' + i::INTEGER END AS dt,
      CASE WHEN i % 7 = 3 THEN NULL ELSE TIME '00:00:00' + to_microseconds(i * 12345678) END AS tm,
      CASE WHEN i % 7 = 3 THEN NULL ELSE make_timestamp(1600000000000000 + i * 1234567) END AS ts,
      CASE WHEN i % 7 = 3 THEN NULL ELSE make_timestamp(1600000000000000 + i * 7654321)::TIMESTAMPTZ END AS tstz,
      CASE WHEN i % 7 = 3 THEN NULL ELSE 'text ' || (i % 13) END AS s,
      CASE WHEN i % 7 = 3 THEN NULL ELSE ('\\x' || lpad(to_hex(i), 4, '0'))::BLOB END AS bin,
      CASE WHEN i % 7 = 3 THEN NULL ELSE ('00000000-0000-4000-8000-' || lpad(i::VARCHAR, 12, '0'))::UUID END AS u
    FROM range(1000) r(i)) TO ${quote(file)} (FORMAT parquet, COMPRESSION ${arg})`);
} else {
  console.error('usage: read_parquet.mjs read FILE SQL | write FILE CODEC');
  process.exit(2);
}
