import { readFile } from 'node:fs/promises';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { fromDataUrl } from './data-url.js';
import {
  DEFAULT_MAX_PIXELS,
  isEncodedImage,
  isRawImage,
  type ImageMediaType,
  type ImageSource,
  type RawImage,
  type ReadOptions,
} from './encoded-image.js';
import { InvalidImageError } from './invalid-image-error.js';
import { describeBytes, looksComplete, pngHeaderSize, sniffMediaType } from './sniff-media-type.js';

/** An image whose header has been read and checked; `pipeline` continues from it. */
export interface OpenedImage {
  pipeline: Sharp;
  width: number;
  height: number;
  channels: number;
  hasAlpha: boolean;
  /** The input's media type when it is PNG, JPEG or WebP; undefined for raw pixels and other formats. */
  mediaType: ImageMediaType | undefined;
  /** sharp's name of the input format ('png', 'gif', 'raw', ...). */
  format: string;
  bytes: Uint8Array | undefined;
  source: string;
  maxPixels: number;
}

/** Formats sharp decodes that we accept as input; output is always PNG, JPEG or WebP. */
const READABLE_FORMATS = new Set(['png', 'jpeg', 'webp', 'gif', 'tiff', 'heif', 'avif']);

/**
 * Reads a source's header (never its pixels) and checks it: known format, non-zero size, within
 * `maxPixels`. sharp's own `limitInputPixels` is set too, so a decoder never allocates past it.
 */
export async function openImage(input: ImageSource, options: ReadOptions = {}): Promise<OpenedImage> {
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  if (isRawImage(input)) return openRaw(input, maxPixels);
  const { bytes, source } = await readBytes(input);
  if (bytes.length === 0) {
    throw new InvalidImageError({ reason: 'empty', expected: 'image bytes', received: '0 bytes', source });
  }
  const pipeline = sharp(bytes, { limitInputPixels: maxPixels });
  let metadata: Metadata;
  try {
    metadata = await pipeline.metadata();
  } catch (error) {
    throw await explainFailure(error, bytes, source, maxPixels);
  }
  const { format, width, height } = metadata;
  if (!READABLE_FORMATS.has(format)) {
    throw new InvalidImageError({
      reason: 'unsupported-format',
      expected: 'a PNG, JPEG or WebP image (GIF, TIFF, AVIF are converted)',
      received: format === 'svg' ? describeBytes(bytes) : `a ${format} file`,
      source,
    });
  }
  checkSize(width, height, maxPixels, source);
  return {
    pipeline,
    width,
    height,
    channels: metadata.channels,
    hasAlpha: metadata.hasAlpha,
    mediaType: sniffMediaType(bytes),
    format,
    bytes,
    source,
    maxPixels,
  };
}

/**
 * Turns a sharp failure on these bytes into an InvalidImageError that says what was wrong. Used on
 * the header read and again on decode, where truncation shows up.
 */
export async function explainFailure(
  error: unknown,
  bytes: Uint8Array | undefined,
  source: string,
  maxPixels: number,
): Promise<unknown> {
  if (InvalidImageError.isInstance(error) || bytes === undefined) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/exceeds pixel limit/i.test(message)) {
    // Read the header again without the limit, only to say how large the image claims to be.
    const claimed = await sharp(bytes, { limitInputPixels: false }).metadata().catch(() => undefined);
    const size = claimed === undefined ? 'a larger image' : `${claimed.width} × ${claimed.height}`;
    return new InvalidImageError({
      reason: 'too-large',
      expected: `at most ${maxPixels} pixels`,
      received: `a header claiming ${size}`,
      source,
      width: claimed?.width,
      height: claimed?.height,
      maxPixels,
      cause: error,
    });
  }
  const mediaType = sniffMediaType(bytes);
  if (mediaType === undefined) {
    return new InvalidImageError({
      reason: 'unsupported-format',
      expected: 'a PNG, JPEG or WebP image',
      received: describeBytes(bytes),
      source,
      cause: error,
    });
  }
  const header = pngHeaderSize(bytes);
  if (header !== undefined && (header.width === 0 || header.height === 0)) {
    return new InvalidImageError({
      reason: 'zero-size',
      expected: 'a width and height of at least 1 pixel',
      received: `a PNG header of ${header.width} × ${header.height}`,
      source,
      width: header.width,
      height: header.height,
      cause: error,
    });
  }
  const truncated = !looksComplete(bytes, mediaType);
  return new InvalidImageError({
    reason: truncated ? 'truncated' : 'corrupt',
    expected: `a complete ${mediaType} file`,
    received: truncated
      ? `${bytes.length} bytes that end before the image does`
      : `${bytes.length} bytes that do not decode (${firstLine(message)})`,
    source,
    cause: error,
  });
}

function openRaw(image: RawImage, maxPixels: number): OpenedImage {
  const { width, height, channels, data } = image;
  const source = 'raw pixels';
  if (!Number.isInteger(width) || !Number.isInteger(height) || (channels !== 3 && channels !== 4)) {
    throw new InvalidImageError({
      reason: 'bad-raw-data',
      expected: 'integer width and height and 3 or 4 channels',
      received: `${width} × ${height} × ${channels}`,
      source,
    });
  }
  checkSize(width, height, maxPixels, source);
  if (data.length !== width * height * channels) {
    throw new InvalidImageError({
      reason: 'bad-raw-data',
      expected: `${width * height * channels} bytes for ${width} × ${height} × ${channels}`,
      received: `${data.length} bytes`,
      source,
    });
  }
  return {
    pipeline: sharp(data, { raw: { width, height, channels }, limitInputPixels: maxPixels }),
    width,
    height,
    channels,
    hasAlpha: channels === 4,
    mediaType: undefined,
    format: 'raw',
    bytes: undefined,
    source,
    maxPixels,
  };
}

function checkSize(width: number, height: number, maxPixels: number, source: string): void {
  if (width < 1 || height < 1) {
    throw new InvalidImageError({
      reason: 'zero-size',
      expected: 'a width and height of at least 1 pixel',
      received: `${width} × ${height}`,
      source,
      width,
      height,
    });
  }
  if (width * height > maxPixels) {
    throw new InvalidImageError({
      reason: 'too-large',
      expected: `at most ${maxPixels} pixels`,
      received: `${width} × ${height} = ${width * height} pixels`,
      source,
      width,
      height,
      maxPixels,
    });
  }
}

async function readBytes(input: Exclude<ImageSource, RawImage>): Promise<{ bytes: Uint8Array; source: string }> {
  if (typeof input === 'string') {
    if (input.startsWith('data:')) return { bytes: fromDataUrl(input).data, source: 'data URL' };
    try {
      return { bytes: await readFile(input), source: input };
    } catch (error) {
      throw new InvalidImageError({
        reason: 'not-found',
        expected: 'a readable image file',
        received: (error as NodeJS.ErrnoException).code ?? String(error),
        source: input,
        cause: error,
      });
    }
  }
  if (input instanceof Uint8Array) return { bytes: input, source: 'bytes' };
  if (isEncodedImage(input)) return { bytes: input.data, source: `an encoded ${input.mediaType}` };
  throw new InvalidImageError({
    reason: 'unsupported-format',
    expected: 'an EncodedImage, RawImage, Uint8Array, path or data URL',
    received: describeValue(input),
  });
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return `an object with keys ${Object.keys(value).slice(0, 5).join(', ') || '(none)'}`;
}

function firstLine(message: string): string {
  return message.split('\n')[0]?.trim() ?? message;
}
