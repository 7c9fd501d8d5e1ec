export { closeSegmenters, createSegmentTool, segmentTool } from './segment-tool';
export type { SegmentToolSettings } from './segment-tool';
export { createSamSegmenter } from './sam-segmenter';
export type { SamSegmenterSettings } from './sam-segmenter';
export { drawMasks } from './draw-masks';
// The colours the overlay uses, from the spec (the viewer draws masks in the same ones).
export { MASK_COLOURS } from '@saccade/spec';
export type { Segmenter, SegmenterMask, SegmentPrompt } from './segmenter';
