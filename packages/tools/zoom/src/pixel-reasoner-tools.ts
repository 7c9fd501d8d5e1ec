import { crop, recordedImageSize } from '@saccade/image';
import { defineTool } from '@saccade/core';
import type { ImageData, Tool } from '@saccade/spec';
import { z } from 'zod';
import { formatNumber } from './seen-size';

/** The crop names verl-tool's pixel-reasoner server answers to; all three crop the same way. */
export const PIXEL_REASONER_CROP_NAMES = ['crop_image', 'zoom_in', 'crop_image_normalized'] as const;

/** One of {@link PIXEL_REASONER_CROP_NAMES}. */
export type PixelReasonerCropName = (typeof PIXEL_REASONER_CROP_NAMES)[number];

const cropInput = z.object({
  bbox_2d: z
    .array(z.number(), { error: 'an array [x1, y1, x2, y2] of 4 numbers' })
    .length(4, { error: 'exactly 4 numbers [x1, y1, x2, y2]' })
    .describe('The region, [x1, y1, x2, y2]: fractions of the image (all below 1) or pixels.'),
  target_image: z.coerce
    .number({ error: 'an image number, 1 for the first image of the conversation' })
    .int({ error: 'a whole image number' })
    .describe('Which image to crop: 1 is the first image of the conversation, later crops count on from there.'),
});

/** A Pixel-Reasoner crop's arguments: `bbox_2d` (fractions or pixels) and `target_image` (1-based). */
export type PixelReasonerCropInput = z.infer<typeof cropInput>;

/** Settings of {@link createPixelReasonerCropTool}. */
export interface PixelReasonerCropSettings {
  /** The name the model calls (default `crop_image`). */
  name?: PixelReasonerCropName | (string & {});
  /** Padding added to each side, as a fraction of the image (default 0.1; at most 600 px, as Pixel-Reasoner). */
  padding?: number;
}

/** The image numbered `target` (1-based) among the episode's images so far, or an error the model reads. */
function targetImage(images: readonly ImageData[], target: number, argument: string): ImageData {
  const image = target >= 1 ? images[target - 1] : undefined;
  if (image === undefined) throw new Error(`Invalid ${argument} index. It should be an integer between 1 and the number of previous images (${images.length}), received ${target}.`);
  return image;
}

/**
 * Pixel-Reasoner's crop (verl-tool's `pixel_reasoner` server): `bbox_2d` in fractions of the image
 * when all four numbers are below 1, else in pixels; the box grows by `padding` of the image on
 * each side (capped at 600 px) and is clipped to it; `target_image` picks which image (1-based,
 * crops included) to crop. The reply says the crop's size, as Pixel-Reasoner's does.
 */
export function createPixelReasonerCropTool({ name = 'crop_image', padding = 0.1 }: PixelReasonerCropSettings = {}): Tool<PixelReasonerCropInput> {
  return defineTool({
    name,
    description: 'Crop a region of an image: bbox_2d [x1, y1, x2, y2] (fractions of the image, or pixels) of the image numbered target_image (1 = the first image).',
    inputSchema: cropInput,
    async execute({ bbox_2d, target_image }, { images }) {
      const image = targetImage(images, target_image, 'target_image');
      const { width, height } = await recordedImageSize(image);
      const padX = Math.min(padding, 600 / width);
      const padY = Math.min(padding, 600 / height);
      const [x1, y1, x2, y2] = bbox_2d as [number, number, number, number];
      const normalised = bbox_2d.every((value) => value < 1);
      const box = normalised ? [x1, y1, x2, y2] : [x1 / width, y1 / height, x2 / width, y2 / height];
      const clamp = (value: number) => Math.min(Math.max(0, value), 1);
      const left = Math.trunc(clamp(box[0]! - padX) * width);
      const top = Math.trunc(clamp(box[1]! - padY) * height);
      const right = Math.trunc(clamp(box[2]! + padX) * width);
      const bottom = Math.trunc(clamp(box[3]! + padY) * height);
      if (right <= left || bottom <= top) {
        throw new Error(`expected a box with x1 < x2 and y1 < y2 inside the image, received [${bbox_2d.map(formatNumber).join(', ')}]`);
      }
      const cropped = await crop(image, { x1: left, y1: top, x2: right, y2: bottom });
      return { text: `Here is the cropped image. (Image Size: ${right - left}x${bottom - top})`, images: [cropped] };
    },
  });
}

const framesInput = z.object({
  target_frames: z.array(z.number().int(), { error: 'a list of frame numbers (1 = the first image)' }).min(1).max(64).describe('Which images to show again, 1-based.'),
});

/** `select_frames`' arguments: the 1-based numbers of the images to show again. */
export type SelectFramesInput = z.infer<typeof framesInput>;

/** Pixel-Reasoner's `select_frames`: shows the chosen images (1-based, of the episode so far) again. */
export function createSelectFramesTool({ name = 'select_frames' }: { name?: string } = {}): Tool<SelectFramesInput> {
  return defineTool({
    name,
    description: 'Select frames of a video (or images of the conversation) to look at again: target_frames, 1-based.',
    inputSchema: framesInput,
    async execute({ target_frames }, { images }) {
      const frames = target_frames.map((frame) => targetImage(images, frame, 'target_frames'));
      const first = frames[0]!;
      const { width, height } = await recordedImageSize(first);
      return { text: `Here are the selected frames. (Frame Size: ${width}x${height}, Numbered 1 to ${frames.length}):`, images: frames };
    },
  });
}

// verl-tool's pixel-reasoner tools under their names: crop_image, zoom_in, crop_image_normalized (all with target_image), select_frames.
/** Pixel-Reasoner's crop as `crop_image`. */
export const cropImageTool: Tool<PixelReasonerCropInput> = createPixelReasonerCropTool({ name: 'crop_image' });
/** Pixel-Reasoner's crop as `zoom_in`. */
export const zoomInTool: Tool<PixelReasonerCropInput> = createPixelReasonerCropTool({ name: 'zoom_in' });
/** Pixel-Reasoner's crop as `crop_image_normalized`. */
export const cropImageNormalizedTool: Tool<PixelReasonerCropInput> = createPixelReasonerCropTool({ name: 'crop_image_normalized' });
/** Pixel-Reasoner's `select_frames`. */
export const selectFramesTool: Tool<SelectFramesInput> = createSelectFramesTool();
