import { rotate } from '@saccade/image';
import { defineTool } from '@saccade/core';
import type { Tool } from '@saccade/spec';
import { z } from 'zod';

/** Settings of {@link createRotateTool}. */
export interface RotateToolSettings {
  /** The name the model calls (default DeepEyes' `image_rotate_tool`). */
  name?: string;
}

const rotateInput = z.object({
  angle: z.number().min(-360).max(360).describe('Degrees, counter-clockwise.'),
});

/** The rotate tool's arguments: `angle` in degrees, counter-clockwise, from −360 to 360. */
export type RotateInput = z.infer<typeof rotateInput>;

/** DeepEyes' rotate: the original image turned `angle` degrees counter-clockwise, canvas expanded. */
export function createRotateTool({ name = 'image_rotate_tool' }: RotateToolSettings = {}): Tool<RotateInput> {
  return defineTool({
    name,
    description: 'Rotate the original image by angle degrees counter-clockwise (the canvas grows so nothing is cut).',
    inputSchema: rotateInput,
    async execute({ angle }, { images }) {
      const image = images[0];
      if (image === undefined) throw new Error('expected an image in the episode to rotate, but the episode has none');
      return { text: `Rotated by ${angle}°.`, images: [await rotate(image, angle)] };
    },
  });
}

/** The rotate tool with DeepEyes' name. */
export const rotateTool: Tool<RotateInput> = createRotateTool();
