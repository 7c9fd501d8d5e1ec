import { detectImageMediaType } from '@saccade/core';
import type { ImageData } from '@saccade/spec';
import { ServerRequestError } from './server-request-error';

/** `data:image/png;base64,…` of an image's encoded bytes. */
export function toDataUrl(image: ImageData): string {
  return `data:${image.mediaType};base64,${Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength).toString('base64')}`;
}

/**
 * A base64 data URL (or bare base64) → image bytes; the media type is read from the bytes. Remote
 * URLs are refused: services fetch nothing from the network. A 400 says which field was wrong.
 */
export function fromDataUrl(value: unknown, where: string): ImageData {
  if (typeof value !== 'string') throw new ServerRequestError({ statusCode: 400, message: `${where}: expected an image as a data URL string, received ${value === null ? 'null' : typeof value}.` });
  if (/^https?:\/\//i.test(value)) {
    throw new ServerRequestError({ statusCode: 400, message: `${where}: remote image URLs are not fetched (no network at run time); expected a data URL such as "data:image/png;base64,…".` });
  }
  const match = /^data:([^;,]*)(;base64)?,/i.exec(value);
  if (match !== null && match[2] === undefined) {
    throw new ServerRequestError({ statusCode: 400, message: `${where}: expected a base64 data URL ("data:image/png;base64,…"), received a data URL without ;base64.` });
  }
  const base64 = match === null ? value : value.slice(match[0].length);
  const data = new Uint8Array(Buffer.from(base64, 'base64'));
  const mediaType = detectImageMediaType(data);
  if (mediaType === undefined) {
    throw new ServerRequestError({ statusCode: 400, message: `${where}: expected a PNG, JPEG or WebP image, received ${data.length} bytes that are none of these.` });
  }
  return { data, mediaType };
}
