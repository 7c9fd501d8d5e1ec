import { fromDataUrl as parseDataUrl, InvalidImageError } from '@saccade/image';
import { detectImageMediaType, type ImageData } from '@saccade/spec';
import { ServerRequestError } from './server-request-error';

export { toDataUrl } from '@saccade/image';

/**
 * An image in a request: a base64 data URL (parsed by `@saccade/image`'s `fromDataUrl`, so the
 * bytes must be what the URL says) or bare base64 (the media type read from the bytes). Remote URLs
 * are refused: services fetch nothing from the network. A bad image is a 400 naming `where`.
 */
export function fromDataUrl(value: unknown, where: string): ImageData {
  if (typeof value !== 'string') throw new ServerRequestError({ statusCode: 400, message: `${where}: expected an image as a data URL string, received ${value === null ? 'null' : typeof value}.` });
  if (/^https?:\/\//i.test(value)) {
    throw new ServerRequestError({ statusCode: 400, message: `${where}: remote image URLs are not fetched (no network at run time); expected a data URL such as "data:image/png;base64,…".` });
  }
  if (/^data:/i.test(value)) {
    try {
      return parseDataUrl(value);
    } catch (error) {
      if (InvalidImageError.isInstance(error)) throw new ServerRequestError({ statusCode: 400, message: `${where}: ${error.message}` });
      throw error;
    }
  }
  const data = new Uint8Array(Buffer.from(value, 'base64'));
  const mediaType = detectImageMediaType(data);
  if (mediaType === undefined) {
    throw new ServerRequestError({ statusCode: 400, message: `${where}: expected a PNG, JPEG or WebP image, received ${data.length} bytes that are none of these.` });
  }
  return { data, mediaType };
}
