import { averagePixels, decodeImage, imageMetadata, resize, type ImageSource } from '@saccade/image';

/** One terminal cell of a thumbnail: the upper half block `▀` in `top`'s colour on `bottom`'s. */
export interface ThumbnailCell {
  top: string;
  bottom: string;
}

/** Rows of cells; each cell shows two pixels, one above the other, so pixels come out square. */
export type Thumbnail = ThumbnailCell[][];

/** Larger images are first scaled down to this many pixels a side, to keep averaging cheap. */
const MAX_SOURCE_SIDE = 256;

/**
 * Scales an image to fit `columns` × `rows` terminal cells (aspect kept) and returns its pixels
 * as `#rrggbb` pairs for half-block drawing. Each thumbnail pixel is the mean of the source pixels
 * it covers, so a grid world's flat cells keep their exact colours instead of ringing.
 */
export async function renderThumbnail(source: ImageSource, size: { columns: number; rows: number }): Promise<Thumbnail> {
  let { width, height } = await imageMetadata(source);
  let input = source;
  if (Math.max(width, height) > MAX_SOURCE_SIDE) {
    input = await resize(source, width >= height ? { width: MAX_SOURCE_SIDE } : { height: MAX_SOURCE_SIDE });
    ({ width, height } = await imageMetadata(input));
  }
  const pixels = await decodeImage(input, { channels: 3 });
  const scale = Math.min(size.columns / width, (size.rows * 2) / height);
  const targetWidth = Math.max(1, Math.min(width, Math.round(width * scale)));
  // An even pixel height fills whole cells.
  const targetHeight = Math.max(2, 2 * Math.round(Math.min(height, height * scale) / 2));
  // Each thumbnail pixel is the mean of the source pixels it covers.
  const shrunk = averagePixels(pixels, { width: targetWidth, height: targetHeight });
  const hex = (x: number, y: number): string => {
    const offset = (y * targetWidth + x) * 3;
    return `#${[0, 1, 2].map((channel) => shrunk.data[offset + channel]!.toString(16).padStart(2, '0')).join('')}`;
  };
  const rows: Thumbnail = [];
  for (let y = 0; y < targetHeight; y += 2) {
    const row: ThumbnailCell[] = [];
    for (let x = 0; x < targetWidth; x++) row.push({ top: hex(x, y), bottom: hex(x, y + 1) });
    rows.push(row);
  }
  return rows;
}
