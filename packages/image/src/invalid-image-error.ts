const marker = Symbol.for('saccade.error.invalid-image');
// @saccade/spec's SaccadeError marker, so SaccadeError.isInstance() recognises this error without
// image depending on spec.
const baseMarker = Symbol.for('saccade.error');

/** Why an image was refused; stable strings a caller can switch on. */
export type InvalidImageReason =
  | 'empty'
  | 'not-found'
  | 'unsupported-format'
  | 'truncated'
  | 'corrupt'
  | 'zero-size'
  | 'too-large'
  | 'bad-data-url'
  | 'bad-raw-data'
  | 'external-reference';

/**
 * The fields of an InvalidImageError: the reason, what was expected and what came, where the image
 * came from, and the size and limit when they are known.
 */
export interface InvalidImageErrorOptions {
  reason: InvalidImageReason;
  /** What a valid input would have been, in words. */
  expected: string;
  /** What came instead, in words. */
  received: string;
  /** Where the image came from: a path, 'bytes', 'data URL', 'raw pixels', 'svg'. */
  source?: string;
  width?: number;
  height?: number;
  maxPixels?: number;
  cause?: unknown;
}

/** An image could not be read: wrong type, truncated, zero-sized, too large, or unsafe SVG. */
export class InvalidImageError extends Error {
  private readonly [marker] = true;
  private readonly [baseMarker] = true;
  override readonly name = 'Saccade_InvalidImageError';
  readonly reason: InvalidImageReason;
  readonly expected: string;
  readonly received: string;
  readonly source: string | undefined;
  readonly width: number | undefined;
  readonly height: number | undefined;
  readonly maxPixels: number | undefined;

  constructor(options: InvalidImageErrorOptions) {
    const from = options.source === undefined ? '' : ` (from ${options.source})`;
    super(`Invalid image${from}: expected ${options.expected}, received ${options.received}.`, {
      cause: options.cause,
    });
    this.reason = options.reason;
    this.expected = options.expected;
    this.received = options.received;
    this.source = options.source;
    this.width = options.width;
    this.height = options.height;
    this.maxPixels = options.maxPixels;
  }

  /** True for this class from any copy of the package (instanceof fails across copies). */
  static isInstance(error: unknown): error is InvalidImageError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
