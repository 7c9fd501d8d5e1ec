import { readFileSync } from 'node:fs';

// A reader of TensorBoard event files written from the published formats alone (TFRecord framing,
// CRC-32C, protobuf wire format, event.proto / summary.proto field numbers), sharing no code with
// the writer, so that a writer bug cannot hide behind the same bug in the reader.

const CRC32C_TABLE = Array.from({ length: 256 }, (_, byte) => {
  let crc = byte;
  for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  return crc >>> 0;
});

function crc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC32C_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function masked(bytes: Uint8Array): number {
  const crc = crc32c(bytes);
  return ((((crc >>> 15) | (crc << 17)) >>> 0) + 0xa282ead8) >>> 0;
}

if (crc32c(Buffer.from('123456789')) !== 0xe3069283) throw new Error('the test CRC-32C is wrong');

/** The records of a TFRecord file, each checked against its two masked CRCs. */
export function readRecords(bytes: Buffer): Buffer[] {
  const records: Buffer[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    if (offset + 12 > bytes.length) throw new Error(`a torn record header at byte ${offset}`);
    const length = Number(bytes.readBigUInt64LE(offset));
    if (bytes.readUInt32LE(offset + 8) !== masked(bytes.subarray(offset, offset + 8))) throw new Error(`length CRC mismatch at byte ${offset}`);
    const data = bytes.subarray(offset + 12, offset + 12 + length);
    if (data.length !== length || offset + 16 + length > bytes.length) throw new Error(`a torn record at byte ${offset}`);
    if (bytes.readUInt32LE(offset + 12 + length) !== masked(data)) throw new Error(`data CRC mismatch at byte ${offset}`);
    records.push(data);
    offset += 16 + length;
  }
  return records;
}

interface Field {
  number: number;
  wireType: number;
  value: bigint | Buffer;
}

function fields(bytes: Buffer): Field[] {
  const out: Field[] = [];
  let offset = 0;
  const varint = (): bigint => {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = bytes[offset++];
      if (byte === undefined) throw new Error('a torn varint');
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
    }
  };
  while (offset < bytes.length) {
    const key = Number(varint());
    const number = key >>> 3;
    const wireType = key & 7;
    if (wireType === 0) out.push({ number, wireType, value: varint() });
    else if (wireType === 1) out.push({ number, wireType, value: bytes.subarray(offset, (offset += 8)) });
    else if (wireType === 5) out.push({ number, wireType, value: bytes.subarray(offset, (offset += 4)) });
    else if (wireType === 2) {
      const length = Number(varint());
      out.push({ number, wireType, value: bytes.subarray(offset, (offset += length)) });
    } else throw new Error(`wire type ${wireType} is not used by scalar events`);
  }
  return out;
}

/** An `Event` as the reader decodes it: a `file_version` event, or a summary of scalars. */
export interface DecodedEvent {
  wallTime: number;
  step: number;
  fileVersion?: string;
  values: { tag: string; simpleValue: number }[];
}

/** Event { double wall_time = 1; int64 step = 2; string file_version = 3; Summary summary = 5 }. */
export function decodeEvent(bytes: Buffer): DecodedEvent {
  const event: DecodedEvent = { wallTime: 0, step: 0, values: [] };
  for (const field of fields(bytes)) {
    if (field.number === 1 && field.wireType === 1) event.wallTime = (field.value as Buffer).readDoubleLE(0);
    else if (field.number === 2 && field.wireType === 0) event.step = Number(BigInt.asIntN(64, field.value as bigint));
    else if (field.number === 3 && field.wireType === 2) event.fileVersion = (field.value as Buffer).toString('utf8');
    else if (field.number === 5 && field.wireType === 2) {
      // Summary { repeated Value value = 1 }; Value { string tag = 1; float simple_value = 2 }.
      for (const summaryField of fields(field.value as Buffer)) {
        if (summaryField.number !== 1) throw new Error(`unexpected Summary field ${summaryField.number}`);
        const value = { tag: '', simpleValue: Number.NaN };
        for (const valueField of fields(summaryField.value as Buffer)) {
          if (valueField.number === 1) value.tag = (valueField.value as Buffer).toString('utf8');
          else if (valueField.number === 2 && valueField.wireType === 5) value.simpleValue = (valueField.value as Buffer).readFloatLE(0);
          else throw new Error(`unexpected Summary.Value field ${valueField.number}`);
        }
        event.values.push(value);
      }
    } else throw new Error(`unexpected Event field ${field.number} (wire type ${field.wireType})`);
  }
  return event;
}

/** The events of an event file, in order. */
export function readEventFile(path: string): DecodedEvent[] {
  return readRecords(readFileSync(path)).map(decodeEvent);
}
