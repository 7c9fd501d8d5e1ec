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

/** A colour of the palette, by name. */
export type ColourName = keyof typeof COLOURS;
/** The palette's colour names, in the palette's order. */
export const COLOUR_NAMES = Object.keys(COLOURS) as ColourName[];

/** `#rrggbb` as [red, green, blue], 0–255 each. */
export function hexToRgb(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}
