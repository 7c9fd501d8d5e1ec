/**
 * Named colours with exact RGB values, far apart from each other and from the greys used for
 * text and axes, so tests (and tools) can find a colour's pixels exactly.
 */
export const COLOURS = {
  red: '#e02020',
  green: '#20a040',
  blue: '#2050e0',
  yellow: '#f0c000',
  purple: '#9030c0',
  orange: '#f07010',
  cyan: '#10b0c0',
  brown: '#8a5020',
} as const;

export type ColourName = keyof typeof COLOURS;
export const COLOUR_NAMES = Object.keys(COLOURS) as ColourName[];

export function hexToRgb(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}
