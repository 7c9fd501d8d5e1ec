import { IMAGE_PLACEHOLDER, InvalidArgumentError, type ContentPart, type Observation } from '@saccade/spec';

/**
 * Splits an observation's text on its `<image>` placeholders into text and image parts, in order.
 * Empty text pieces are dropped. Throws when the number of placeholders and images differ.
 *
 * @example
 * observationToContent({ text: 'Before <image> after', images: [png] });
 * // [{ type: 'text', text: 'Before ' }, { type: 'image', image: png }, { type: 'text', text: ' after' }]
 */
export function observationToContent(observation: Observation): ContentPart[] {
  const pieces = observation.text.split(IMAGE_PLACEHOLDER);
  const placeholders = pieces.length - 1;
  if (placeholders !== observation.images.length) {
    throw new InvalidArgumentError({
      argument: 'observation',
      expected: `one ${IMAGE_PLACEHOLDER} placeholder per image`,
      value: observation.text,
      message:
        `Invalid argument observation: its text has ${placeholders} ${IMAGE_PLACEHOLDER} placeholder${placeholders === 1 ? '' : 's'} ` +
        `but ${observation.images.length} image${observation.images.length === 1 ? '' : 's'} came with it; expected one placeholder per image.`,
    });
  }
  const parts: ContentPart[] = [];
  pieces.forEach((piece, index) => {
    if (piece.length > 0) parts.push({ type: 'text', text: piece });
    const image = observation.images[index];
    if (index < placeholders && image !== undefined) parts.push({ type: 'image', image });
  });
  return parts;
}
