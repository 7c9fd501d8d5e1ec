export { closeSegmenters, createSegmentTool, segmentTool } from './segment-tool';
export type { SegmentToolSettings } from './segment-tool';
export { createSamSegmenter } from './sam-segmenter';
export type { SamSegmenterSettings } from './sam-segmenter';
export { drawMasks, MASK_COLOURS } from './draw-masks';
export type { Segmenter, SegmenterMask, SegmentPrompt } from './segmenter';
