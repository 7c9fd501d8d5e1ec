import { detectImageMediaType, type ImageData } from '@saccade/spec';

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
