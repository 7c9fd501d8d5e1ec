import { contentHash } from '@saccade/image';
import { InvalidArgumentError, type ImageData, type ImageRef, type Observation, type StoredObservation } from '@saccade/spec';

/**
 * An observation as a trajectory stores it: its images replaced by references to their content
 * hash. Each image's bytes are added to `images` under that hash, so an image seen on every turn
 * (or by every episode of a group) is written once.
 */
export function storeObservation(observation: Observation, images: Map<string, ImageData>): StoredObservation {
  return {
    text: observation.text,
    images: observation.images.map((image) => {
      const hash = contentHash(image.data);
      if (!images.has(hash)) images.set(hash, image);
      const reference: ImageRef = { hash, mediaType: image.mediaType };
      if (image.width !== undefined) reference.width = image.width;
      if (image.height !== undefined) reference.height = image.height;
      return reference;
    }),
  };
}

const extensions: Record<ImageRef['mediaType'], string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** The file name an image is stored under: `<hash>.png`, `<hash>.jpg` or `<hash>.webp`. */
export function imageFileName(image: Pick<ImageRef, 'hash' | 'mediaType'>): string {
  return `${image.hash}.${extensions[image.mediaType] ?? 'bin'}`;
}

/**
 * The observation a stored one was made from: each image reference back to its bytes, looked up by
 * hash in `images` (a rollout's `images`, or a store's). Throws when an image is missing.
 */
export function restoreObservation(stored: StoredObservation, images: ReadonlyMap<string, ImageData>): Observation {
  return {
    text: stored.text,
    images: stored.images.map((reference) => {
      const image = images.get(reference.hash);
      if (image === undefined) {
        throw new InvalidArgumentError({ argument: 'images', expected: `the bytes of image ${reference.hash} the observation refers to`, value: `${images.size} images without it` });
      }
      return image;
    }),
  };
}
