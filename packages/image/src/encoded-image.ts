/** The encoded formats Saccade passes between envs, tools and agents (what VLM APIs accept). */
export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/webp';

/**
 * An encoded image as `@saccade/spec` passes it: the file's bytes and their media type. Declared
 * here structurally (image takes only the dependency-free sniffer from spec); the two are assignable
 * both ways.
 */
export interface EncodedImage {
  data: Uint8Array;
  mediaType: ImageMediaType;
  width?: number;
  height?: number;
}

/** Decoded pixels, interleaved row-major: RGB (channels 3) or RGBA (channels 4), 8 bits each. */
export interface RawImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 3 | 4;
}

/**
 * Anything an operation accepts: an encoded image, decoded pixels, the bytes of a file (Buffer is a
 * Uint8Array), or a string holding a file path or a `data:image/...;base64,` URL.
 */
export type ImageSource = EncodedImage | RawImage | Uint8Array | string;

/** Options every operation that reads an image accepts. */
export interface ReadOptions {
  /** Refuse images with more pixels than this, from the header, before decoding. Default 64 megapixels. */
  maxPixels?: number;
}

/** How an operation encodes its result. */
export interface OutputOptions extends ReadOptions {
  /** Default: the input's format when it is PNG, JPEG or WebP, otherwise PNG. */
  format?: ImageMediaType;
  /** JPEG and WebP quality, 1–100. Default 90. */
  quality?: number;
}

/**
 * The pixel limit readers apply when `maxPixels` is not given (64 megapixels): a decompression bomb
 * is refused from its header.
 */
export const DEFAULT_MAX_PIXELS = 64 * 1024 * 1024;

/** Every ImageMediaType, for validating a media type that came from outside. */
export const IMAGE_MEDIA_TYPES: readonly ImageMediaType[] = ['image/png', 'image/jpeg', 'image/webp'];

/**
 * True for decoded pixels (`channels` and `data`, no `mediaType`): tells a RawImage from an
 * EncodedImage in an ImageSource.
 */
export function isRawImage(value: unknown): value is RawImage {
  return (
    typeof value === 'object' &&
    value !== null &&
    'channels' in value &&
    'data' in value &&
    !('mediaType' in value)
  );
}

/** True for an encoded image: `data` bytes and a PNG, JPEG or WebP `mediaType`. */
export function isEncodedImage(value: unknown): value is EncodedImage {
  return (
    typeof value === 'object' &&
    value !== null &&
    'data' in value &&
    value.data instanceof Uint8Array &&
    'mediaType' in value &&
    IMAGE_MEDIA_TYPES.includes(value.mediaType as ImageMediaType)
  );
}
