import sharp from 'sharp';
import type { EncodedImage, ImageSource, OutputOptions } from './encoded-image.js';
import { finishImage, finishRaw } from './finish-image.js';
import { InvalidImageArgumentError } from './invalid-image-argument-error.js';
import { openImage, type OpenedImage } from './open-image.js';
import { checkColour, checkNumber } from './svg-markup.js';

/** One image pasted onto compose's canvas, at a pixel offset. */
export interface Layer {
  image: ImageSource;
  /** Offset of the layer's top-left corner on the canvas; may be negative or past the edge (the rest is cut). */
  left: number;
  top: number;
}

/**
 * The canvas compose pastes onto: its size in pixels and background, and how the result is encoded.
 */
export interface ComposeOptions extends OutputOptions {
  width: number;
  height: number;
  /** CSS colour or 'transparent'; default '#ffffff'. */
  background?: string;
}

/** Pastes layers in order (later on top, alpha-blended) onto a new canvas. Output defaults to PNG. */
export async function compose(layers: readonly Layer[], options: ComposeOptions): Promise<EncodedImage> {
  const { width, height } = options;
  for (const [name, value] of [['width', width], ['height', height]] as const) {
    if (!(Number.isInteger(value) && value >= 1)) {
      throw new InvalidImageArgumentError({ argument: name, expected: 'an integer ≥ 1', received: String(value), value });
    }
  }
  const background = checkColour(options.background ?? '#ffffff', 'background');
  const transparent = isTranslucent(background);
  // Decode each layer here, so a bad layer fails with its own explanation rather than the canvas's.
  const inputs = await Promise.all(
    layers.map(async (layer, index) => {
      const left = checkNumber(layer.left, `layers[${index}].left`);
      const top = checkNumber(layer.top, `layers[${index}].top`);
      const opened = await openImage(layer.image, options);
      const raw = await finishRaw(opened, opened.pipeline);
      return {
        input: raw.data,
        raw: { width: raw.width, height: raw.height, channels: raw.channels as 1 | 2 | 3 | 4 },
        left: Math.round(left),
        top: Math.round(top),
      };
    }),
  );
  const canvas = sharp({
    create: { width, height, channels: transparent ? 4 : 3, background },
    limitInputPixels: options.maxPixels ?? false,
  });
  const opened: OpenedImage = {
    pipeline: canvas,
    width,
    height,
    channels: transparent ? 4 : 3,
    hasAlpha: transparent,
    mediaType: undefined,
    format: 'raw',
    bytes: undefined,
    source: 'canvas',
    maxPixels: options.maxPixels ?? Infinity,
  };
  const pipeline = inputs.length === 0 ? canvas : canvas.composite(inputs);
  if (!transparent) pipeline.removeAlpha();
  return finishImage(opened, pipeline, options);
}

function isTranslucent(colour: string): boolean {
  return colour === 'transparent' || /^#(?:[0-9a-f]{4}|[0-9a-f]{8})$|^(?:rgba|hsla)\(/i.test(colour);
}
