// A third-party client (iceberg-js) against `floe serve`: namespaces, a table, load, commits,
// and a stale assert-ref-snapshot-id that must get 409. Usage: node rest_iceberg_js.mjs URL
import assert from 'node:assert/strict';
import { IcebergRestCatalog, IcebergError } from 'iceberg-js';

const url = process.argv[2];
if (!url) {
  console.error('usage: node rest_iceberg_js.mjs URL');
  process.exit(2);
}
const catalog = new IcebergRestCatalog({ baseUrl: url, auth: { type: 'none' } });

await catalog.createNamespace({ namespace: ['js_ns'] }, { properties: { owner: 'iceberg-js' } });
await catalog.createNamespace({ namespace: ['js_ns', 'sub'] });  // multi-level: %1F in paths
const top = await catalog.listNamespaces();
assert.ok(top.some((n) => n.namespace.join('.') === 'js_ns'), JSON.stringify(top));
const below = await catalog.listNamespaces({ namespace: ['js_ns'] });
assert.deepEqual(below, [{ namespace: ['js_ns', 'sub'] }]);
const props = await catalog.loadNamespaceMetadata({ namespace: ['js_ns'] });
assert.equal(props.properties.owner, 'iceberg-js');
assert.equal(await catalog.namespaceExists({ namespace: ['js_ns', 'sub'] }), true);
assert.equal(await catalog.namespaceExists({ namespace: ['nope'] }), false);

const id = { namespace: ['js_ns'], name: 'events' };
const created = await catalog.createTable({ namespace: ['js_ns'] }, {
  name: 'events',
  schema: {
    type: 'struct',
    'schema-id': 0,
    fields: [
      { id: 1, name: 'id', type: 'long', required: true },
      { id: 2, name: 'ts', type: 'timestamp', required: false },
      { id: 3, name: 'user', type: 'string', required: false },
    ],
  },
  'partition-spec': { 'spec-id': 0, fields: [{ 'source-id': 2, 'field-id': 1000, name: 'ts_day', transform: 'day' }] },
  'write-order': { 'order-id': 0, fields: [] },
  properties: { 'write.format.default': 'parquet' },
});
assert.equal(created['format-version'], 2);
const uuid = created['table-uuid'];
assert.ok(uuid);

const loaded = await catalog.loadTable(id);
assert.equal(loaded['table-uuid'], uuid);
assert.equal(loaded.properties['write.format.default'], 'parquet');
assert.equal(loaded['partition-specs'][0].fields[0].transform, 'day');
assert.equal(await catalog.tableExists(id), true);
assert.deepEqual(await catalog.listTables({ namespace: ['js_ns'] }), [id]);

// A commit that adds a snapshot and moves main, asserting main does not exist yet.
const snapshotId = 4242;
const committed = await catalog.updateTable(id, {
  requirements: [
    { type: 'assert-table-uuid', uuid },
    { type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': null },
  ],
  updates: [
    {
      action: 'add-snapshot',
      snapshot: {
        'snapshot-id': snapshotId,
        'sequence-number': 1,
        'timestamp-ms': Date.now(),
        'manifest-list': `${loaded.location}/metadata/snap-${snapshotId}-js.avro`,
        summary: { operation: 'append' },
        'schema-id': 0,
      },
    },
    { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': snapshotId },
    { action: 'set-properties', updates: { 'committed.by': 'iceberg-js' } },
  ],
});
assert.ok(committed['metadata-location'].endsWith('.metadata.json'));
assert.equal(committed.metadata['current-snapshot-id'], snapshotId);

// The same assertion again is stale now: main points at 4242.
let conflict = null;
try {
  await catalog.updateTable(id, {
    requirements: [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': null }],
    updates: [{ action: 'set-properties', updates: { stale: 'yes' } }],
  });
} catch (e) {
  conflict = e;
}
assert.ok(conflict instanceof IcebergError, `expected a 409, got ${conflict}`);
assert.equal(conflict.status, 409);
assert.equal(conflict.icebergType, 'CommitFailedException');
assert.match(conflict.message, /main/);
const after = await catalog.loadTable(id);
assert.equal(after.properties.stale, undefined);
assert.equal(after['current-snapshot-id'], snapshotId);

// Errors a client relies on.
await assert.rejects(catalog.loadTable({ namespace: ['js_ns'], name: 'missing' }),
  (e) => e.status === 404 && e.icebergType === 'NoSuchTableException');
await assert.rejects(catalog.createNamespace({ namespace: ['js_ns'] }), (e) => e.status === 409);
await assert.rejects(catalog.dropNamespace({ namespace: ['js_ns'] }), (e) => e.status === 409);

await catalog.dropTable(id, { purge: true });
assert.equal(await catalog.tableExists(id), false);
await catalog.dropNamespace({ namespace: ['js_ns', 'sub'] });
await catalog.dropNamespace({ namespace: ['js_ns'] });
console.log('iceberg-js: OK');
