/** Decoded pixels: interleaved 8-bit RGB, row-major (what the model encodes). */
export interface RgbImage {
  width: number;
  height: number;
  /** width × height × 3 bytes. */
  data: Uint8Array;
}
