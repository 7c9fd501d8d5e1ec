import type { RawImage } from '@saccade/image';

/** What to segment: points (label 1 in the object, 0 outside it) and/or one box [x1, y1, x2, y2], in the image's pixels. */
export interface SegmentPrompt {
  points?: { x: number; y: number; label: 0 | 1 }[];
  box?: [number, number, number, number];
}

/** One mask a segmenter found: row-major 0/1 pixels of the image's size, and the model's quality estimate. */
export interface SegmenterMask {
  mask: Uint8Array;
  score: number;
}

/** A promptable segmenter (SAM, SlimSAM, …): one prompt → candidate masks, best first. */
export interface Segmenter {
  segment(image: RawImage, prompt: SegmentPrompt): Promise<SegmenterMask[]>;
  close(): Promise<void>;
}
