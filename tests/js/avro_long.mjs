// Iceberg ids and sequence numbers are Avro longs beyond 2^53, which a JS number cannot hold:
// every script here decodes them as BigInt through this type.
import avro from 'avsc';

export const longType = avro.types.LongType.__with({
  fromBuffer: (buf) => buf.readBigInt64LE(),
  toBuffer: (n) => {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(BigInt(n));
    return b;
  },
  fromJSON: BigInt,
  toJSON: Number,
  isValid: (n) => typeof n === 'bigint',
  compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
});

// parseHook for avro.createFileDecoder: the file's own schema, with longs as BigInt.
export const bigIntLongs = (schema) => avro.Type.forSchema(schema, { registry: { long: longType } });
