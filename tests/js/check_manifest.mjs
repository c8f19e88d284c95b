// Reads Iceberg manifests and manifest lists with avsc (an Avro implementation independent of
// floe) and checks their embedded Avro schemas against the Iceberg table spec: field names,
// field ids, element/key/value ids, types, optional-ness (a union with null first and a null
// default), and the key-value metadata Iceberg writers set.
//
// usage: node check_manifest.mjs FILE...
// Prints one JSON line per file: {file, kind, format_version, records, problems, ...sums}.
// Exits 1 if any file has a problem.
import avro from 'avsc';
import { bigIntLongs } from './avro_long.mjs';


// The spec's types, written out here from the table spec (format/spec.md), not from floe.
const req = (id, name, type) => ({ id, name, type, optional: false });
const opt = (id, name, type) => ({ id, name, type, optional: true });
const map = (keyId, valueId, valueType) => ({ map: { keyId, valueId, keyType: 'int', valueType } });
const list = (elementId, elementType) => ({ list: { elementId, elementType } });

function dataFileFields(v) {
  const f = [];
  if (v >= 2) f.push(req(134, 'content', 'int'));
  f.push(req(100, 'file_path', 'string'));
  f.push(req(101, 'file_format', 'string'));
  f.push(req(102, 'partition', 'partition'));
  f.push(req(103, 'record_count', 'long'));
  f.push(req(104, 'file_size_in_bytes', 'long'));
  if (v === 1) f.push(req(105, 'block_size_in_bytes', 'long'));
  f.push(opt(108, 'column_sizes', map(117, 118, 'long')));
  f.push(opt(109, 'value_counts', map(119, 120, 'long')));
  f.push(opt(110, 'null_value_counts', map(121, 122, 'long')));
  f.push(opt(137, 'nan_value_counts', map(138, 139, 'long')));
  f.push(opt(125, 'lower_bounds', map(126, 127, 'bytes')));
  f.push(opt(128, 'upper_bounds', map(129, 130, 'bytes')));
  f.push(opt(131, 'key_metadata', 'bytes'));
  f.push(opt(132, 'split_offsets', list(133, 'long')));
  if (v >= 2) f.push(opt(135, 'equality_ids', list(136, 'int')));
  f.push(opt(140, 'sort_order_id', 'int'));
  if (v >= 3) f.push(opt(142, 'first_row_id', 'long'));
  if (v >= 2) f.push(opt(143, 'referenced_data_file', 'string'));
  if (v >= 3) {
    f.push(opt(144, 'content_offset', 'long'));
    f.push(opt(145, 'content_size_in_bytes', 'long'));
  }
  return f;
}

function manifestEntryFields(v) {
  if (v === 1) {
    return [req(0, 'status', 'int'), req(1, 'snapshot_id', 'long'), req(2, 'data_file', { record: dataFileFields(1) })];
  }
  return [
    req(0, 'status', 'int'),
    opt(1, 'snapshot_id', 'long'),
    opt(3, 'sequence_number', 'long'),
    opt(4, 'file_sequence_number', 'long'),
    req(2, 'data_file', { record: dataFileFields(v) }),
  ];
}

const fieldSummary = {
  record: [
    req(509, 'contains_null', 'boolean'),
    opt(518, 'contains_nan', 'boolean'),
    opt(510, 'lower_bound', 'bytes'),
    opt(511, 'upper_bound', 'bytes'),
  ],
};

function manifestFileFields(v) {
  const f = [req(500, 'manifest_path', 'string'), req(501, 'manifest_length', 'long'), req(502, 'partition_spec_id', 'int')];
  if (v === 1) {
    f.push(req(503, 'added_snapshot_id', 'long'));
    f.push(opt(504, 'added_files_count', 'int'), opt(505, 'existing_files_count', 'int'), opt(506, 'deleted_files_count', 'int'));
    f.push(opt(512, 'added_rows_count', 'long'), opt(513, 'existing_rows_count', 'long'), opt(514, 'deleted_rows_count', 'long'));
  } else {
    f.push(req(517, 'content', 'int'), req(515, 'sequence_number', 'long'), req(516, 'min_sequence_number', 'long'));
    f.push(req(503, 'added_snapshot_id', 'long'));
    f.push(req(504, 'added_files_count', 'int'), req(505, 'existing_files_count', 'int'), req(506, 'deleted_files_count', 'int'));
    f.push(req(512, 'added_rows_count', 'long'), req(513, 'existing_rows_count', 'long'), req(514, 'deleted_rows_count', 'long'));
  }
  f.push(opt(507, 'partitions', list(508, fieldSummary)));
  f.push(opt(519, 'key_metadata', 'bytes'));
  if (v >= 3) f.push(opt(520, 'first_row_id', 'long'));
  return f;
}

// Iceberg partition field types (transform results) as Avro types (spec Appendix A).
function partitionAvroMatches(icebergType, avroType) {
  const t = typeof avroType === 'string' ? { type: avroType } : avroType;
  if (icebergType === 'date') return t.type === 'int' && t.logicalType === 'date';
  if (icebergType === 'int' || icebergType === 'long' || icebergType === 'string' || icebergType === 'boolean' ||
      icebergType === 'float' || icebergType === 'double') return t.type === icebergType && !t.logicalType;
  if (icebergType === 'binary') return t.type === 'bytes';
  if (icebergType === 'timestamp') return t.type === 'long' && t.logicalType === 'timestamp-micros' && t['adjust-to-utc'] === false;
  if (icebergType === 'timestamptz') return t.type === 'long' && t.logicalType === 'timestamp-micros' && t['adjust-to-utc'] === true;
  if (icebergType === 'time') return t.type === 'long' && t.logicalType === 'time-micros';
  if (icebergType === 'uuid') return t.type === 'fixed' && t.size === 16 && t.logicalType === 'uuid';
  let m = /^fixed\[(\d+)\]$/.exec(icebergType);
  if (m) return t.type === 'fixed' && t.size === Number(m[1]);
  m = /^decimal\((\d+),\s*(\d+)\)$/.exec(icebergType);
  if (m) return t.type === 'fixed' && t.logicalType === 'decimal' && t.precision === Number(m[1]) && t.scale === Number(m[2]);
  return false;
}

function checkType(expected, actual, path, ctx, problems) {
  if (typeof expected === 'string' && expected !== 'partition') {
    const a = typeof actual === 'string' ? actual : actual.type;
    if (a !== expected || (typeof actual === 'object' && actual.logicalType)) {
      problems.push(`${path}: type ${JSON.stringify(actual)}, expected ${expected}`);
    }
    return;
  }
  if (expected === 'partition') {
    if (typeof actual !== 'object' || actual.type !== 'record') {
      problems.push(`${path}: partition is not a record`);
      return;
    }
    const spec = ctx.partitionSpec;
    if (!spec) return;
    if (actual.fields.length !== spec.length) problems.push(`${path}: ${actual.fields.length} partition fields, spec has ${spec.length}`);
    for (const pf of spec) {
      const f = actual.fields.find((x) => x['field-id'] === pf['field-id']);
      if (!f) {
        problems.push(`${path}: no partition field with field-id ${pf['field-id']}`);
        continue;
      }
      if (!Array.isArray(f.type) || f.type.length !== 2 || f.type[0] !== 'null' || f.default !== null) {
        problems.push(`${path}.${f.name}: partition fields must be optional (union with null first, default null)`);
        continue;
      }
      const want = ctx.partitionTypes?.[pf['field-id']];
      if (want && !partitionAvroMatches(want, f.type[1])) {
        problems.push(`${path}.${f.name}: Avro type ${JSON.stringify(f.type[1])} does not carry Iceberg type ${want}`);
      }
    }
    return;
  }
  if (expected.record) {
    if (typeof actual !== 'object' || actual.type !== 'record') {
      problems.push(`${path}: expected a record, got ${JSON.stringify(actual).slice(0, 80)}`);
      return;
    }
    checkFields(expected.record, actual.fields, path, ctx, problems);
    return;
  }
  if (expected.map) {
    const m = expected.map;
    if (typeof actual !== 'object' || actual.type !== 'array' || actual.logicalType !== 'map' ||
        typeof actual.items !== 'object' || actual.items.type !== 'record' || actual.items.fields.length !== 2) {
      problems.push(`${path}: a map with int keys must be an array of key/value records with logicalType map`);
      return;
    }
    checkFields([req(m.keyId, 'key', m.keyType), req(m.valueId, 'value', m.valueType)], actual.items.fields, path, ctx, problems);
    return;
  }
  if (expected.list) {
    if (typeof actual !== 'object' || actual.type !== 'array' || actual['element-id'] !== expected.list.elementId) {
      problems.push(`${path}: expected an array with element-id ${expected.list.elementId}`);
      return;
    }
    checkType(expected.list.elementType, actual.items, `${path}[]`, ctx, problems);
  }
}

function checkFields(expectedFields, actualFields, path, ctx, problems) {
  const byId = new Map(actualFields.map((f) => [f['field-id'], f]));
  for (const e of expectedFields) {
    const f = byId.get(e.id);
    if (!f) {
      problems.push(`${path}: missing field ${e.id} ${e.name}`);
      continue;
    }
    const p = `${path}.${f.name}`;
    if (f.name !== e.name) problems.push(`${path}: field ${e.id} is named ${f.name}, expected ${e.name}`);
    let type = f.type;
    if (e.optional) {
      if (!Array.isArray(type) || type.length !== 2 || type[0] !== 'null' || !('default' in f) || f.default !== null) {
        problems.push(`${p}: optional field must be a union with null first and default null`);
        continue;
      }
      type = type[1];
    } else if (Array.isArray(type)) {
      problems.push(`${p}: required field must not be a union`);
      continue;
    }
    checkType(e.type, type, p, ctx, problems);
  }
  for (const f of actualFields) {
    if (!expectedFields.some((e) => e.id === f['field-id'])) problems.push(`${path}: unexpected field ${f['field-id']} ${f.name}`);
  }
}

function partitionTypesFromMetadata(meta) {
  // Iceberg result types of the partition fields, from the table schema and partition spec.
  try {
    const schema = JSON.parse(meta.schema);
    const spec = JSON.parse(meta['partition-spec']);
    const types = {};
    for (const pf of spec) {
      const src = schema.fields.find((c) => c.id === pf['source-id']);
      const t = String(src?.type);
      const tr = pf.transform;
      if (tr === 'identity' || tr.startsWith('truncate')) types[pf['field-id']] = t.replace(/\s+/g, '');
      else if (tr.startsWith('bucket') || tr === 'year' || tr === 'month' || tr === 'hour') types[pf['field-id']] = 'int';
      else if (tr === 'day') types[pf['field-id']] = 'date';
    }
    return types;
  } catch {
    return undefined;
  }
}

async function checkFile(file) {
  const problems = [];
  const result = { file, problems };
  const records = [];
  await new Promise((resolve) => {
    const dec = avro.createFileDecoder(file, {
      parseHook: bigIntLongs,
    });
    dec.on('metadata', (type, codec, header) => {
      const meta = {};
      for (const [k, v] of Object.entries(header.meta)) meta[k] = v.toString();
      const schema = JSON.parse(meta['avro.schema']);
      result.codec = codec;
      result.format_version = Number(meta['format-version']);
      const v = result.format_version;
      if (!(v >= 1 && v <= 3)) problems.push(`format-version metadata is ${meta['format-version']}`);
      if (schema.name === 'manifest_entry') {
        result.kind = 'manifest';
        for (const k of ['schema', 'schema-id', 'partition-spec', 'partition-spec-id', 'format-version']) {
          if (!(k in meta)) problems.push(`metadata lacks ${k}`);
        }
        if (v >= 2 && !['data', 'deletes'].includes(meta.content)) problems.push(`metadata content is ${meta.content}`);
        result.content = meta.content ?? 'data';
        const ctx = { partitionSpec: JSON.parse(meta['partition-spec'] ?? 'null'), partitionTypes: partitionTypesFromMetadata(meta) };
        checkFields(manifestEntryFields(v), schema.fields, 'manifest_entry', ctx, problems);
      } else if (schema.name === 'manifest_file') {
        result.kind = 'manifest-list';
        for (const k of ['snapshot-id', 'parent-snapshot-id', 'format-version']) if (!(k in meta)) problems.push(`metadata lacks ${k}`);
        if (v >= 2 && !('sequence-number' in meta)) problems.push('metadata lacks sequence-number');
        checkFields(manifestFileFields(v), schema.fields, 'manifest_file', {}, problems);
      } else {
        problems.push(`unknown record name ${schema.name}`);
      }
    });
    dec.on('data', (r) => records.push(r));
    dec.on('error', (e) => {
      problems.push(`avsc could not read the file: ${e.message}`);
      resolve();
    });
    dec.on('end', resolve);
  });
  result.records = records.length;
  if (result.kind === 'manifest') {
    result.status_counts = [0, 0, 0];
    let rows = 0n;
    let nullSeq = 0;
    for (const r of records) {
      result.status_counts[r.status]++;
      rows += r.data_file.record_count;
      if (r.sequence_number === null) nullSeq++;
    }
    result.total_record_count = rows.toString();
    result.null_sequence_numbers = nullSeq;
    if (records.length) {
      result.first = {
        file_path: records[0].data_file.file_path,
        partition_fields: Object.keys(records[0].data_file.partition).length,
      };
    }
  } else if (result.kind === 'manifest-list') {
    let added = 0;
    for (const r of records) added += r.added_files_count ?? 0;
    result.total_added_files = added;
    result.manifest_paths = records.map((r) => r.manifest_path);
    result.sequence_numbers = records.map((r) => (r.sequence_number === undefined ? null : r.sequence_number.toString()));
  }
  return result;
}

let failed = false;
for (const file of process.argv.slice(2)) {
  const r = await checkFile(file);
  if (r.problems.length) failed = true;
  console.log(JSON.stringify(r));
}
process.exit(failed ? 1 : 0);
