import { IMAGE_MEDIA_TYPES, type EncodedImage, type ImageMediaType } from './encoded-image.js';
import { InvalidImageError } from './invalid-image-error.js';
import { describeBytes, sniffMediaType } from './sniff-media-type.js';

/** `data:image/png;base64,...`: the form OpenAI-compatible servers (vLLM, SGLang) accept inline. */
export function toDataUrl(image: EncodedImage): string {
  return `data:${image.mediaType};base64,${Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength).toString('base64')}`;
}

/**
 * Parses a base64 data URL of a PNG, JPEG or WebP image. The bytes must be what the URL says they
 * are, so a mislabelled payload fails here rather than in a model server.
 */
export function fromDataUrl(url: string): EncodedImage {
  const match = /^data:([\w.+-]+\/[\w.+-]+)((?:;[\w-]+=[^;,]*)*);base64,/i.exec(url);
  if (match === null) {
    throw new InvalidImageError({
      reason: 'bad-data-url',
      expected: 'a base64 data URL such as "data:image/png;base64,..."',
      received: JSON.stringify(url.slice(0, 40)),
      source: 'data URL',
    });
  }
  const mediaType = (match[1] ?? '').toLowerCase();
  if (!IMAGE_MEDIA_TYPES.includes(mediaType as ImageMediaType)) {
    throw new InvalidImageError({
      reason: 'unsupported-format',
      expected: `a media type among ${IMAGE_MEDIA_TYPES.join(', ')}`,
      received: JSON.stringify(mediaType),
      source: 'data URL',
    });
  }
  const payload = url.slice(match[0].length);
  if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(payload)) {
    throw new InvalidImageError({
      reason: 'bad-data-url',
      expected: 'base64 text after ";base64,"',
      received: 'characters outside the base64 alphabet',
      source: 'data URL',
    });
  }
  const data: Uint8Array = Buffer.from(payload, 'base64');
  const sniffed = sniffMediaType(data);
  if (sniffed !== mediaType) {
    throw new InvalidImageError({
      reason: data.length === 0 ? 'empty' : 'unsupported-format',
      expected: `${mediaType} bytes, as the URL says`,
      received: sniffed ?? describeBytes(data),
      source: 'data URL',
    });
  }
  return { data, mediaType: sniffed };
}
