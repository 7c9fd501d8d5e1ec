import { describe, expect, it } from 'vitest';
import { bytesField, bytesOf, concatBytes, floatField, readMessage, stringField, textOf, varintField } from './protobuf-wire';

const bytes = (data: Uint8Array) => Array.from(data);

describe('the protobuf wire format', () => {
  it('writes fields as protobuf encodes them', () => {
    // The examples of protobuf.dev/programming-guides/encoding: field 1 = 150, field 2 = "testing".
    expect(bytes(varintField(1, 150))).toEqual([0x08, 0x96, 0x01]);
    expect(bytes(stringField(2, 'testing'))).toEqual([0x12, 0x07, 0x74, 0x65, 0x73, 0x74, 0x69, 0x6e, 0x67]);
    expect(bytes(varintField(20, 300))).toEqual([0xa0, 0x01, 0xac, 0x02]);
    // int64 -1 and -3 (an ONNX axis), as protobuf encodes negative int64s: two's complement, 10 bytes.
    expect(bytes(varintField(8, -1))).toEqual([0x40, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect(bytes(varintField(8, -3n))).toEqual([0x40, 0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect(readMessage(varintField(8, -3))[0]!.value).toBe(2n ** 64n - 3n);
    expect(bytes(floatField(3, 1.5))).toEqual([0x1d, 0x00, 0x00, 0xc0, 0x3f]);
    expect(bytes(bytesField(3, varintField(1, 150)))).toEqual([0x1a, 0x03, 0x08, 0x96, 0x01]);
    expect(bytes(concatBytes([Uint8Array.of(1), new Uint8Array(0), Uint8Array.of(2, 3)]))).toEqual([1, 2, 3]);
  });

  it('reads a message back field by field, each with its own encoded bytes', () => {
    const message = concatBytes([varintField(1, 150), stringField(2, 'testing'), floatField(3, 1.5), bytesField(4, varintField(5, 2 ** 40))]);
    const fields = readMessage(message);
    expect(fields.map(({ field, wireType }) => [field, wireType])).toEqual([
      [1, 0],
      [2, 2],
      [3, 5],
      [4, 2],
    ]);
    expect(fields[0]!.value).toBe(150n);
    expect(textOf(fields[1]!)).toBe('testing');
    expect(bytes(fields[2]!.value as Uint8Array)).toEqual([0x00, 0x00, 0xc0, 0x3f]);
    expect(readMessage(bytesOf(fields[3]!))[0]!.value).toBe(2n ** 40n);
    expect(bytes(concatBytes(fields.map((field) => field.encoded)))).toEqual(bytes(message));
  });

  it('says what it expected of bytes that are not a message, and of a field that is not length-delimited', () => {
    expect(() => readMessage(Uint8Array.of(0x08, 0x96))).toThrow('expected a protobuf varint at byte 2, the message ends there');
    expect(() => readMessage(Uint8Array.of(0x12, 0x07, 0x74))).toThrow('expected 7 bytes at byte 2, the message has 1 left');
    expect(() => readMessage(Uint8Array.of(0x0b))).toThrow('expected a protobuf wire type 0, 1, 2 or 5 at byte 0, got 3');
    expect(() => bytesOf(readMessage(varintField(1, 150))[0]!)).toThrow('expected field 1 to be length-delimited, its wire type is 0');
    expect(() => textOf(readMessage(bytesField(1, Uint8Array.of(0xff)))[0]!)).toThrow(TypeError);
  });
});
