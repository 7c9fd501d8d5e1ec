import { IMAGE_PLACEHOLDER } from '@saccade/spec';

/** How many `<image>` placeholders a text holds. */
export function countImagePlaceholders(text: string): number {
  let count = 0;
  let index = text.indexOf(IMAGE_PLACEHOLDER);
  while (index !== -1) {
    count += 1;
    index = text.indexOf(IMAGE_PLACEHOLDER, index + IMAGE_PLACEHOLDER.length);
  }
  return count;
}
