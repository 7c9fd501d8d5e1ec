import { detectImageMediaType } from '@saccade/core';
import { ServerRequestError } from '../http/server-request-error';
import type { ImageData, ImageMediaType, Observation } from '@saccade/spec';

/** An image as the session API sends it: base64 of the encoded file. */
export interface WireImage {
  data: string;
  mediaType: ImageMediaType;
  width?: number;
  height?: number;
}

/** An observation as the session API sends it in JSON: its text and base64 images. */
export interface WireObservation {
  text: string;
  images: WireImage[];
}

/**
 * An observation ready for a JSON body: each image's bytes as base64, with its media type and size.
 */
export function toWireObservation(observation: Observation): WireObservation {
  return {
    text: observation.text,
    images: observation.images.map((image) => ({
      data: Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength).toString('base64'),
      mediaType: image.mediaType,
      ...(image.width === undefined ? {} : { width: image.width }),
      ...(image.height === undefined ? {} : { height: image.height }),
    })),
  };
}

/** The inverse of `toWireObservation`; a malformed one (a server that is not Saccade's) throws. */
export function fromWireObservation(value: unknown, url: string): Observation {
  const wire = value as Partial<WireObservation> | undefined;
  if (typeof wire?.text !== 'string' || !Array.isArray(wire.images)) {
    throw new ServerRequestError({ statusCode: 502, message: `${url} answered an observation that is not {text, images}: ${JSON.stringify(value)?.slice(0, 120)}.` });
  }
  return {
    text: wire.text,
    images: wire.images.map((image, index): ImageData => {
      const data = new Uint8Array(Buffer.from(String(image?.data ?? ''), 'base64'));
      const mediaType = detectImageMediaType(data);
      if (mediaType === undefined) throw new ServerRequestError({ statusCode: 502, message: `${url} answered images[${index}] that is not a PNG, JPEG or WebP file.` });
      return { data, mediaType, ...(image.width === undefined ? {} : { width: image.width }), ...(image.height === undefined ? {} : { height: image.height }) };
    }),
  };
}
