import type { ImageData, ImageMediaType } from '@saccade/spec';

/** The media type that an image's magic bytes announce (PNG, JPEG, WebP), or `undefined`. */
export function detectImageMediaType(bytes: Uint8Array): ImageMediaType | undefined {
  const at = (i: number) => bytes[i];
  if (
    bytes.length >= 8 &&
    at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47 &&
    at(4) === 0x0d && at(5) === 0x0a && at(6) === 0x1a && at(7) === 0x0a
  ) {
    return 'image/png';
  }
  if (bytes.length >= 3 && at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'image/jpeg';
  if (
    bytes.length >= 12 &&
    at(0) === 0x52 && at(1) === 0x49 && at(2) === 0x46 && at(3) === 0x46 && // RIFF
    at(8) === 0x57 && at(9) === 0x45 && at(10) === 0x42 && at(11) === 0x50 // WEBP
  ) {
    return 'image/webp';
  }
  return undefined;
}

const MEDIA_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/webp'];

/**
 * Why a value is not a valid `ImageData` (bytes in a `Uint8Array`, a known media type that the
 * magic bytes confirm, positive integer sizes when given), or `undefined` when it is valid.
 */
export function describeInvalidImage(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return `expected an ImageData object, received ${value === null ? 'null' : typeof value}`;
  const image = value as Partial<ImageData>;
  if (!(image.data instanceof Uint8Array)) return 'expected image.data to be a Uint8Array of encoded bytes';
  if (typeof image.mediaType !== 'string' || !MEDIA_TYPES.includes(image.mediaType)) {
    return `expected image.mediaType to be one of ${MEDIA_TYPES.join(', ')}, received ${JSON.stringify(image.mediaType)}`;
  }
  const detected = detectImageMediaType(image.data);
  if (detected === undefined) {
    return `expected the bytes of a ${image.mediaType} image, but the first bytes (${[...image.data.subarray(0, 8)]
      .map((byte) => byte.toString(16).padStart(2, '0'))
      .join(' ')}) are not PNG, JPEG or WebP`;
  }
  if (detected !== image.mediaType) return `image.mediaType says ${image.mediaType} but the bytes are ${detected}`;
  for (const side of ['width', 'height'] as const) {
    const size = image[side];
    if (size !== undefined && !(Number.isSafeInteger(size) && size > 0)) {
      return `expected image.${side} to be a positive integer, received ${JSON.stringify(size)}`;
    }
  }
  return undefined;
}

/** Whether a value is a valid `ImageData`. */
export function isImageData(value: unknown): value is ImageData {
  return describeInvalidImage(value) === undefined;
}
