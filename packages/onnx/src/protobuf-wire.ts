// The protobuf wire format, just enough to read and rewrite an ONNX model's graph without a schema
// compiler: fields keep their encoded bytes, so what a rewrite does not touch is written back as it was.

/** One field of a message: its number, wire type, value (a varint, or the bytes of the rest) and its own encoded bytes. */
export interface WireField {
  field: number;
  wireType: 0 | 1 | 2 | 5;
  /** Varints as bigint; length-delimited, 64- and 32-bit values as their bytes. */
  value: bigint | Uint8Array;
  encoded: Uint8Array;
}

const decoder = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/** The fields of one message, in order. Throws on bytes that are not a protobuf message. */
export function readMessage(bytes: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (at >= bytes.length) throw new Error(`expected a protobuf varint at byte ${at}, the message ends there`);
      const byte = bytes[at++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return result;
    }
    throw new Error(`expected a protobuf varint of at most 10 bytes at byte ${at}`);
  };
  const take = (length: number): Uint8Array => {
    if (at + length > bytes.length) throw new Error(`expected ${length} bytes at byte ${at}, the message has ${bytes.length - at} left`);
    at += length;
    return bytes.subarray(at - length, at);
  };
  while (at < bytes.length) {
    const start = at;
    const tag = Number(varint());
    const wireType = tag & 7;
    let value: bigint | Uint8Array;
    if (wireType === 0) value = varint();
    else if (wireType === 1) value = take(8);
    else if (wireType === 2) value = take(Number(varint()));
    else if (wireType === 5) value = take(4);
    else throw new Error(`expected a protobuf wire type 0, 1, 2 or 5 at byte ${start}, got ${wireType}`);
    fields.push({ field: tag >>> 3, wireType, value, encoded: bytes.subarray(start, at) });
  }
  return fields;
}

function varintBytes(value: number | bigint): number[] {
  const out: number[] = [];
  // A negative int64 (ONNX's axes, shapes' -1) is written as its 64-bit two's complement: 10 bytes.
  let rest = BigInt.asUintN(64, BigInt(value));
  do {
    let byte = Number(rest & 0x7fn);
    rest >>= 7n;
    if (rest > 0n) byte |= 0x80;
    out.push(byte);
  } while (rest > 0n);
  return out;
}

/** The parts one after another in one array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A length-delimited field (a string, bytes or a nested message). */
export function bytesField(field: number, bytes: Uint8Array): Uint8Array {
  return concatBytes([Uint8Array.from([...varintBytes((field << 3) | 2), ...varintBytes(bytes.length)]), bytes]);
}

/** A string field, UTF-8 encoded and length-delimited. */
export const stringField = (field: number, text: string): Uint8Array => bytesField(field, encoder.encode(text));

/**
 * A varint field (wire type 0) holding an integer, as protobuf writes an int64: a negative one as
 * its 64-bit two's complement (ten bytes; it reads back as that unsigned value).
 */
export const varintField = (field: number, value: number | bigint): Uint8Array => Uint8Array.from([...varintBytes(field << 3), ...varintBytes(value)]);

/** A 32-bit float field (wire type 5, little-endian). */
export function floatField(field: number, value: number): Uint8Array {
  const bytes = new Uint8Array(5);
  bytes[0] = (field << 3) | 5;
  new DataView(bytes.buffer).setFloat32(1, value, true);
  return bytes;
}

/** The bytes of a length-delimited field's value; throws if the field holds something else. */
export function bytesOf(field: WireField): Uint8Array {
  if (!(field.value instanceof Uint8Array) || field.wireType !== 2) throw new Error(`expected field ${field.field} to be length-delimited, its wire type is ${field.wireType}`);
  return field.value;
}

/** A length-delimited field's value read as UTF-8 text; throws if the field holds something else. */
export const textOf = (field: WireField): string => decoder.decode(bytesOf(field));
