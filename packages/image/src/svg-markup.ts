import { InvalidImageArgumentError } from './invalid-image-argument-error.js';

/** Escapes text for SVG content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * Accepts CSS colours that cannot break out of an attribute: #rgb(a), #rrggbb(aa), rgb()/rgba()/
 * hsl()/hsla() with numbers, or a colour name.
 */
export function checkColour(colour: string, argument = 'color'): string {
  if (/^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$|^(?:rgba?|hsla?)\([\d\s.,%/-]+\)$|^[a-z]+$/i.test(colour)) {
    return colour;
  }
  throw new InvalidImageArgumentError({
    argument,
    expected: 'a CSS colour such as "#ff0000", "rgb(255,0,0)" or "red"',
    received: JSON.stringify(colour),
    value: colour,
  });
}

/** Checks a drawing coordinate or length so NaN never reaches the SVG. */
export function checkNumber(value: number, argument: string, minimum = -Infinity): number {
  if (Number.isFinite(value) && value >= minimum) return value;
  throw new InvalidImageArgumentError({
    argument,
    expected: minimum === -Infinity ? 'a finite number' : `a finite number ≥ ${minimum}`,
    received: String(value),
    value,
  });
}

/** An SVG document the size of the image, to composite over it in one pass. */
export function overlaySvg(width: number, height: number, body: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`,
  );
}
