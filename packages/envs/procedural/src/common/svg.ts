/** The only fonts on the machines that render (sharp's librsvg + pango); nothing else is asked for. */
export const FONT_FAMILY = 'DejaVu Sans';

/** Escapes text for SVG content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Rounds drawing coordinates so the markup (and so the image bytes) never carries float noise. */
export const num = (value: number): string => String(Math.round(value * 100) / 100);

export interface TextOptions {
  size?: number;
  anchor?: 'start' | 'middle' | 'end';
  fill?: string;
  weight?: 'normal' | 'bold';
  /** Vertical alignment: the baseline at y (default) or the text's middle at y. */
  middle?: boolean;
}

export function svgText(x: number, y: number, content: string, { size = 14, anchor = 'start', fill = '#222222', weight = 'normal', middle = false }: TextOptions = {}): string {
  // librsvg ignores dominant-baseline on some versions; a third of the size centres DejaVu's digits and capitals.
  const baseline = middle ? y + size * 0.36 : y;
  return `<text x="${num(x)}" y="${num(baseline)}" font-family="${FONT_FAMILY}" font-size="${num(size)}" font-weight="${weight}" text-anchor="${anchor}" fill="${fill}">${escapeXml(content)}</text>`;
}

export function svgDocument(width: number, height: number, body: string, background = '#ffffff'): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="${width}" height="${height}" fill="${background}"/>${body}</svg>`;
}
