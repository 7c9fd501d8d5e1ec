import { detectImageMediaType } from '@saccade/spec';
import type { ImageMediaType } from './encoded-image.js';

/** The media type the file's magic bytes announce (PNG, JPEG, WebP): spec's `detectImageMediaType`. */
export const sniffMediaType: (bytes: Uint8Array) => ImageMediaType | undefined = detectImageMediaType;

/** A short human description of bytes that are not an image we read, for error messages. */
export function describeBytes(bytes: Uint8Array): string {
  if (bytes.length === 0) return '0 bytes';
  const size = `${bytes.length} bytes`;
  if (ascii(bytes, 0, 5) === '%PDF-') return `a PDF document (${size})`;
  if (ascii(bytes, 0, 4) === 'GIF8') return `a GIF image (${size})`;
  if (looksLikeSvg(bytes)) return `SVG text (${size}; use renderSvg)`;
  const head = bytes.subarray(0, 32);
  if (head.every((byte) => byte === 0x09 || byte === 0x0a || byte === 0x0d || (byte >= 0x20 && byte < 0x7f))) {
    return `text starting ${JSON.stringify(ascii(bytes, 0, 32))} (${size})`;
  }
  const hex = [...bytes.subarray(0, 8)].map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
  return `bytes starting ${hex} (${size})`;
}

/** Width and height from a PNG's IHDR chunk, which sits at a fixed offset. */
export function pngHeaderSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (!startsWith(bytes, PNG_SIGNATURE) || bytes.length < 24) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Whether the file ends the way a complete file of its type ends (PNG IEND, JPEG EOI). */
export function looksComplete(bytes: Uint8Array, mediaType: ImageMediaType): boolean {
  if (mediaType === 'image/png') return ascii(bytes, bytes.length - 8, bytes.length - 4) === 'IEND';
  if (mediaType === 'image/jpeg') {
    // Cameras append trailing bytes after EOI, so look for it near the end, not only at it.
    const tail = bytes.subarray(Math.max(0, bytes.length - 1024));
    for (let index = tail.length - 2; index >= 0; index -= 1) {
      if (tail[index] === 0xff && tail[index + 1] === 0xd9) return true;
    }
    return false;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return bytes.length >= 8 && view.getUint32(4, true) + 8 <= bytes.length;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte);
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  if (start < 0) return '';
  return String.fromCharCode(...bytes.subarray(start, Math.min(end, bytes.length)));
}

function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = ascii(bytes, 0, 512).trimStart();
  return head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'));
}
