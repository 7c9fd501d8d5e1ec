/**
 * The media types an image may travel as. Saccade passes images as encoded bytes so that the spec
 * depends on no image library.
 */
export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/webp';

/**
 * An image in memory: its encoded bytes (PNG, JPEG or WebP) and, when known, its size in pixels.
 */
export interface ImageData {
  /** The encoded file bytes (not raw pixels). */
  data: Uint8Array;
  mediaType: ImageMediaType;
  /** Width in pixels, when the producer knows it. */
  width?: number;
  /** Height in pixels, when the producer knows it. */
  height?: number;
}
