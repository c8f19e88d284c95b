// avsc's side of bench/avro_bench.cc: the same work floe does, on the manifest floe wrote.
//
// usage: node avro_bench.mjs MANIFEST.avro RUNS
// Loads the manifest's records (untimed), then times (a) writing them as an Avro container file
// with the same schema and codec, in memory, and (b) reading the manifest's bytes back into
// objects. Prints {"records", "codec", "write_ms", "read_ms", "write_cpu_ms", "read_cpu_ms", "bytes"}
// as JSON (wall and CPU milliseconds per run; CPU time includes libuv's zlib threads).
import avro from 'avsc';
import fs from 'fs';
import { bigIntLongs } from './avro_long.mjs';

const parseHook = bigIntLongs;

const [file, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 5);
const bytes = fs.readFileSync(file);

function decodeAll(buffer) {
  return new Promise((resolve, reject) => {
    const records = [];
    let meta;
    const dec = new avro.streams.BlockDecoder({ parseHook });
    dec.on('metadata', (type, codec, header) => (meta = { type, codec, header }));
    dec.on('data', (r) => records.push(r));
    dec.on('error', reject);
    dec.on('end', () => resolve({ records, meta }));
    dec.end(buffer);
  });
}

function encodeAll(type, codec, metadata, records) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    const enc = new avro.streams.BlockEncoder(type, { codec, metadata, blockSize: 256 * 1024 });
    enc.on('data', (c) => chunks.push(c));
    enc.on('error', reject);
    enc.on('end', () => resolve(Buffer.concat(chunks)));
    for (const r of records) enc.write(r);
    enc.end();
  });
}

const { records, meta } = await decodeAll(bytes);
const metadata = {};
for (const [k, v] of Object.entries(meta.header.meta)) if (!k.startsWith('avro.')) metadata[k] = v;

const writeMs = [];
const readMs = [];
const writeCpu = [];
const readCpu = [];
const cpuMs = (u) => (u.user + u.system) / 1000;
let written = 0;
for (let i = 0; i < runs; i++) {
  let t = process.hrtime.bigint();
  let c = process.cpuUsage();
  const out = await encodeAll(meta.type, meta.codec, metadata, records);
  writeMs.push(Number(process.hrtime.bigint() - t) / 1e6);
  writeCpu.push(cpuMs(process.cpuUsage(c)));
  written = out.length;
  t = process.hrtime.bigint();
  c = process.cpuUsage();
  const back = await decodeAll(bytes);
  readMs.push(Number(process.hrtime.bigint() - t) / 1e6);
  readCpu.push(cpuMs(process.cpuUsage(c)));
  if (back.records.length !== records.length) throw new Error('record count mismatch');
}
console.log(JSON.stringify({
  records: records.length, codec: meta.codec, write_ms: writeMs, read_ms: readMs,
  write_cpu_ms: writeCpu, read_cpu_ms: readCpu, bytes: written,
}));
