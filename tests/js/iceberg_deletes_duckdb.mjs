// A second reader of Iceberg tables, used by tests/deletes_duckdb_test.cc: it shares no code
// with floe. The metadata document is read with JSON.parse, manifest lists and manifests with
// avsc, and DuckDB (npm @duckdb/node-api) reads the live data files and applies the delete
// files by the table spec's rules:
//   - a position delete (file_path, pos) removes row `pos` of `file_path` when the delete's data
//     sequence number is >= the data file's;
//   - an equality delete removes rows whose equality columns equal (null equal to null) one of
//     its rows, when its data sequence number is > the data file's and it has the data file's
//     partition (same spec and partition tuple), or it was written under an unpartitioned spec.
//
//   node iceberg_deletes_duckdb.mjs METADATA_JSON COLUMN...
//
// Prints the snapshot's rows, one JSON array of strings (or null) per row, ordered by all
// printed columns; then, on stderr, how many data and delete files of each kind it used.
import avro from 'avsc';
import { bigIntLongs } from './avro_long.mjs';
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [metadataPath, ...columns] = process.argv.slice(2);
if (!metadataPath || columns.length === 0) {
  console.error('usage: iceberg_deletes_duckdb.mjs METADATA_JSON COLUMN...');
  process.exit(2);
}


const localPath = (location) => location.replace(/^file:\/\//, '');

function readAvro(location) {
  return new Promise((resolve, reject) => {
    const records = [];
    avro
      .createFileDecoder(localPath(location), {
        parseHook: bigIntLongs,
      })
      .on('data', (r) => records.push(r))
      .on('error', reject)
      .on('end', () => resolve(records));
  });
}

// Metadata JSON holds ids as plain numbers; a snapshot id can exceed 2^53, so compare them as
// text taken straight from the document.
const metadataText = readFileSync(localPath(metadataPath), 'utf8');
const metadata = JSON.parse(metadataText.replace(/("(?:current-snapshot-id|snapshot-id)"\s*:\s*)(-?\d+)/g, '$1"$2"'));
const snapshot = metadata.snapshots.find((s) => s['snapshot-id'] === metadata['current-snapshot-id']);
if (!snapshot) {
  console.error(`no current snapshot in ${metadataPath}`);
  process.exit(1);
}
const schema = metadata.schemas.find((s) => s['schema-id'] === metadata['current-schema-id']);
const fieldName = new Map(schema.fields.map((f) => [f.id, f.name]));
const unpartitioned = new Set(metadata['partition-specs'].filter((s) => s.fields.length === 0).map((s) => s['spec-id']));

const dataFiles = [];
const positionDeletes = [];
const equalityDeletes = [];
const partitionKey = (partition) => JSON.stringify(partition, (_, v) => (typeof v === 'bigint' ? v.toString() : v));

for (const manifest of await readAvro(snapshot['manifest-list'])) {
  for (const entry of await readAvro(manifest.manifest_path)) {
    if (entry.status === 2) continue; // DELETED entries only record history
    const file = entry.data_file;
    // Entries added in this manifest's snapshot inherit the manifest's sequence number.
    const sequence = entry.sequence_number ?? manifest.sequence_number;
    const described = {
      path: localPath(file.file_path),
      sequence,
      spec: manifest.partition_spec_id,
      partition: partitionKey(file.partition),
    };
    if (file.content === 0) dataFiles.push(described);
    else if (file.content === 1) positionDeletes.push(described);
    else equalityDeletes.push({ ...described, columns: file.equality_ids.map((id) => fieldName.get(id)) });
  }
}

const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const con = await instance.connect();
const quote = (s) => `'${s.replaceAll("'", "''")}'`;
const ident = (s) => `"${s.replaceAll('"', '""')}"`;

const positionSql = positionDeletes.length
  ? positionDeletes
      .map((d) => `SELECT file_path, pos, ${d.sequence} AS seq FROM read_parquet(${quote(d.path)})`)
      .join(' UNION ALL ')
  : 'SELECT NULL::VARCHAR AS file_path, NULL::BIGINT AS pos, NULL::BIGINT AS seq WHERE false';
await con.run(`CREATE TABLE position_deletes AS ${positionSql}`);

const perFile = dataFiles.map((data) => {
  const conditions = [
    `NOT EXISTS (SELECT 1 FROM position_deletes p WHERE p.file_path = ${quote(data.path)}
       AND p.pos = d.file_row_number AND p.seq >= ${data.sequence})`,
  ];
  for (const del of equalityDeletes) {
    const applies = del.sequence > data.sequence && (unpartitioned.has(del.spec) || (del.spec === data.spec && del.partition === data.partition));
    if (!applies) continue;
    const match = del.columns.map((c) => `e.${ident(c)} IS NOT DISTINCT FROM d.${ident(c)}`).join(' AND ');
    conditions.push(`NOT EXISTS (SELECT 1 FROM read_parquet(${quote(del.path)}) e WHERE ${match})`);
  }
  const projection = columns.map((c) => `d.${ident(c)}`).join(', ');
  return `SELECT ${projection} FROM read_parquet(${quote(data.path)}, file_row_number = true) d WHERE ${conditions.join(' AND ')}`;
});

const order = columns.map((_, i) => `${i + 1}`).join(', ');
const sql = perFile.length ? `${perFile.join(' UNION ALL ')} ORDER BY ${order}` : null;
if (sql) {
  const reader = await con.runAndReadAll(sql);
  for (const row of reader.getRows()) {
    console.log(JSON.stringify(row.map((v) => (v === null ? null : String(v)))));
  }
}
console.error(
  `data files ${dataFiles.length}, position delete files ${positionDeletes.length}, equality delete files ${equalityDeletes.length}`,
);
