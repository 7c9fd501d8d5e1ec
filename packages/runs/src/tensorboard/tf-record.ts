import CRC32C from 'crc-32/crc32c.js';

/** TFRecord's mask: rotate right by 15 bits and add a constant, so a CRC of CRC-bearing data stays well spread. */
const MASK_DELTA = 0xa282ead8;

/** The masked CRC-32C (Castagnoli) TFRecord stores beside a record's length and its data. */
export function maskedCrc32c(bytes: Uint8Array): number {
  const crc = CRC32C.buf(bytes) >>> 0;
  return ((((crc >>> 15) | (crc << 17)) >>> 0) + MASK_DELTA) >>> 0;
}

/**
 * One TFRecord: the data's length as a little-endian uint64, the masked CRC-32C of those 8 bytes,
 * the data, the masked CRC-32C of the data (all little-endian). TensorBoard's event files are a
 * sequence of these, each holding one serialised `Event`.
 */
export function encodeTfRecord(data: Uint8Array): Buffer {
  const record = Buffer.alloc(8 + 4 + data.length + 4);
  record.writeBigUInt64LE(BigInt(data.length), 0);
  record.writeUInt32LE(maskedCrc32c(record.subarray(0, 8)), 8);
  record.set(data, 12);
  record.writeUInt32LE(maskedCrc32c(data), 12 + data.length);
  return record;
}
