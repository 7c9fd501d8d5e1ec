export { createDetectTool, detectTool } from './detect-tool';
export type { DetectToolSettings } from './detect-tool';
export { COLOURS, SHAPES, colourName, detectShapes, matchQuery, shapeName } from './detect-shapes';
export type { Colour, Detection, Shape } from './detect-shapes';
