import { detectImageMediaType, InvalidArgumentError, type ImageData } from '@saccade/spec';

/**
 * A body of VAGEN's remote env protocol (`vagen/envs_remote/multipart_codec.py`): one JSON part
 * named `data` and the images in order, each its own part. Requests are `multipart/form-data`,
 * responses `multipart/mixed`.
 */
export interface MultipartBody {
  data: Record<string, unknown>;
  images: ImageData[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const CRLF = encoder.encode('\r\n');
const HEADER_END = encoder.encode('\r\n\r\n');

/** A fresh boundary: `gym_env_` and 32 hex digits, as VAGEN's encoder makes them. */
function newBoundary(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return `gym_env_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

const extension: Record<ImageData['mediaType'], string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/**
 * Encodes `data` and `images` as VAGEN's `encode_multipart` does: the JSON part first (no filename,
 * so form parsers read it as a field), then each image with its own media type, in order. Returns
 * the body and the `content-type` header to send with it.
 */
export function encodeMultipartBody(body: MultipartBody, subtype: 'form-data' | 'mixed'): { contentType: string; body: Uint8Array } {
  const boundary = newBoundary();
  const chunks: Uint8Array[] = [];
  const text = (value: string) => chunks.push(encoder.encode(value));
  text(`--${boundary}\r\nContent-Disposition: form-data; name="data"\r\nContent-Type: application/json; charset=utf-8\r\n\r\n`);
  text(JSON.stringify(body.data));
  chunks.push(CRLF);
  body.images.forEach((image, index) => {
    text(`--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="${index}.${extension[image.mediaType]}"\r\nContent-Type: ${image.mediaType}\r\n\r\n`);
    chunks.push(image.data);
    chunks.push(CRLF);
  });
  text(`--${boundary}--\r\n`);
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return { contentType: `multipart/${subtype}; boundary="${boundary}"`, body: out };
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  const last = haystack.length - needle.length;
  outer: for (let index = haystack.indexOf(first!, from); index !== -1 && index <= last; index = haystack.indexOf(first!, index + 1)) {
    for (let offset = 1; offset < needle.length; offset++) if (haystack[index + offset] !== needle[offset]) continue outer;
    return index;
  }
  return -1;
}

const bad = (expected: string, value: unknown) => new InvalidArgumentError({ argument: 'multipart body', expected, value });

/** The boundary of a `multipart/*` content type (quoted or not). */
function boundaryOf(contentType: string): string {
  if (!/^\s*multipart\//i.test(contentType)) throw bad('a multipart/form-data or multipart/mixed content type', contentType);
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (boundary === undefined) throw bad('a content type with a boundary=… parameter', contentType);
  return boundary;
}

/**
 * Decodes a body that `encodeMultipartBody` or VAGEN's `encode_multipart` wrote: the part named
 * `data` (or typed `application/json`) is the JSON object, each `image/*` part an image in order.
 * Other parts are skipped. A body that is not multipart, a `data` part that is not a JSON object,
 * or an image part that is not PNG, JPEG or WebP throws `InvalidArgumentError` saying so.
 */
export function decodeMultipartBody(contentType: string, body: Uint8Array): MultipartBody {
  const delimiter = encoder.encode(`--${boundaryOf(contentType)}`);
  const data: Record<string, unknown>[] = [];
  const images: ImageData[] = [];
  let start = indexOf(body, delimiter, 0);
  if (start === -1) throw bad('a body with the boundary of its content type', `${body.length} bytes without it`);
  while (start !== -1) {
    const afterDelimiter = start + delimiter.length;
    // `--boundary--` closes the body.
    if (body[afterDelimiter] === 0x2d && body[afterDelimiter + 1] === 0x2d) break;
    const next = indexOf(body, delimiter, afterDelimiter);
    if (next === -1) throw bad('a body closed by --boundary--', 'a body cut off in a part');
    // The part's bytes lie between the CRLF after the delimiter and the CRLF before the next one.
    const partStart = body[afterDelimiter] === 0x0d && body[afterDelimiter + 1] === 0x0a ? afterDelimiter + 2 : afterDelimiter;
    const partEnd = body[next - 2] === 0x0d && body[next - 1] === 0x0a ? next - 2 : next;
    const part = body.subarray(partStart, partEnd);
    const headerEnd = indexOf(part, HEADER_END, 0);
    if (headerEnd === -1) throw bad('each part to have headers, a blank line and its content', decoder.decode(part.subarray(0, 80)));
    const headers = decoder.decode(part.subarray(0, headerEnd)).split('\r\n');
    const payload = part.subarray(headerEnd + HEADER_END.length);
    const header = (name: string) => headers.find((line) => line.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim() ?? '';
    const type = header('content-type').toLowerCase();
    const name = /\bname="([^"]*)"/i.exec(header('content-disposition'))?.[1];
    if (type.startsWith('application/json') || (name === 'data' && !type.startsWith('image/'))) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(decoder.decode(payload));
      } catch (error) {
        throw bad('a data part of JSON', `${(error as Error).message} in ${decoder.decode(payload.subarray(0, 80))}`);
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad('a data part that is a JSON object', parsed);
      data.push(parsed as Record<string, unknown>);
    } else if (type.startsWith('image/')) {
      const bytes = payload.slice();
      const mediaType = detectImageMediaType(bytes);
      if (mediaType === undefined) throw bad(`image part ${images.length} to be a PNG, JPEG or WebP file`, `${bytes.length} bytes typed ${type}`);
      images.push({ data: bytes, mediaType });
    }
    start = next;
  }
  if (data.length > 1) throw bad('one data part', `${data.length}`);
  return { data: data[0] ?? {}, images };
}
