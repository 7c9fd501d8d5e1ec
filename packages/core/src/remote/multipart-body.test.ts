import { InvalidArgumentError, type ImageData } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { decodeMultipartBody, encodeMultipartBody } from './multipart-body';

const encoder = new TextEncoder();
// The smallest files the sniffer accepts: a PNG signature (ending in CR LF, as PNGs do) and a JPEG start.
const png: ImageData = { data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x0d, 0x0a]), mediaType: 'image/png' };
const jpeg: ImageData = { data: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x2d, 0x2d]), mediaType: 'image/jpeg' };

const concat = (...parts: (string | Uint8Array)[]) => {
  const bytes = parts.map((part) => (typeof part === 'string' ? encoder.encode(part) : part));
  const out = new Uint8Array(bytes.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of bytes) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

describe('encodeMultipartBody / decodeMultipartBody', () => {
  it('round-trips the JSON part and the images in order, bytes unchanged (CR LF and dashes inside a file included)', () => {
    const data = { session_id: 'abc', obs: 'Grid <image> then <image> — ünïcode', info: { success: true } };
    const { contentType, body } = encodeMultipartBody({ data, images: [png, jpeg] }, 'mixed');
    expect(contentType).toMatch(/^multipart\/mixed; boundary="gym_env_[0-9a-f]{32}"$/);
    const decoded = decodeMultipartBody(contentType, body);
    expect(decoded.data).toEqual(data);
    expect(decoded.images).toEqual([png, jpeg]);
  });

  it("reads the body VAGEN's encode_multipart writes (unquoted boundary too), skipping parts that are neither", () => {
    const body = concat(
      '--gym_env_1\r\nContent-Disposition: form-data; name="data"\r\nContent-Type: application/json; charset=utf-8\r\n\r\n{"session_id": "s1", "method": "step", "params": {"action_str": "Left"}}\r\n',
      '--gym_env_1\r\nContent-Disposition: form-data; name="note"\r\nContent-Type: text/plain\r\n\r\nignored\r\n',
      '--gym_env_1\r\nContent-Disposition: form-data; name="images"; filename="0.png"\r\nContent-Type: image/png\r\n\r\n',
      png.data,
      '\r\n--gym_env_1--\r\n',
    );
    expect(decodeMultipartBody('multipart/form-data; boundary=gym_env_1', body)).toEqual({ data: { session_id: 's1', method: 'step', params: { action_str: 'Left' } }, images: [png] });
  });

  it('says what was expected for a body that is not multipart, has no JSON object, or carries an image that is not one', () => {
    const notMultipart = () => decodeMultipartBody('application/json', encoder.encode('{}'));
    expect(notMultipart).toThrow(InvalidArgumentError);
    expect(notMultipart).toThrow('expected a multipart/form-data or multipart/mixed content type');
    expect(() => decodeMultipartBody('multipart/mixed', encoder.encode(''))).toThrow('expected a content type with a boundary=… parameter');
    const list = concat('--b\r\nContent-Disposition: form-data; name="data"\r\n\r\n[1, 2]\r\n--b--\r\n');
    expect(() => decodeMultipartBody('multipart/mixed; boundary=b', list)).toThrow('expected a data part that is a JSON object');
    const text = concat('--b\r\nContent-Type: image/png\r\n\r\nnot a png\r\n--b--\r\n');
    expect(() => decodeMultipartBody('multipart/mixed; boundary=b', text)).toThrow('expected image part 0 to be a PNG, JPEG or WebP file');
    const cut = concat('--b\r\nContent-Type: application/json\r\n\r\n{}');
    expect(() => decodeMultipartBody('multipart/mixed; boundary=b', cut)).toThrow('expected a body closed by --boundary--');
  });
});
