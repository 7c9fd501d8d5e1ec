import { renderSvg } from '@saccade/image';
import type { ImageData } from '@saccade/spec';

export interface TextLine {
  text: string;
  x: number;
  y: number;
  size?: number;
  color?: string;
}

const escape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** Lines of DejaVu Sans text on a background, rendered with @saccade/image's renderSvg. */
export function textImage(lines: readonly TextLine[], width: number, height: number, background = '#ffffff'): Promise<ImageData> {
  const body = lines
    .map(({ text, x, y, size = 24, color = '#000000' }) => `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${size}" fill="${color}">${escape(text)}</text>`)
    .join('');
  return renderSvg(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="${background}"/>${body}</svg>`);
}
