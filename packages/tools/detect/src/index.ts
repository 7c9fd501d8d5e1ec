export { closeDetectors, createDetectTool, detectTool } from './detect-tool';
export type { DetectToolSettings } from './detect-tool';
export { createOnnxDetector, DETECTOR_LAYOUTS, nonMaximumSuppression, parseClassNames, readLabelsFile, readOnnxMetadata } from './onnx-detector';
export type { DetectorLayout, ObjectDetection, OnnxDetector, OnnxDetectorSettings } from './onnx-detector';
export { colourBlobsTool, createColourBlobsTool } from './colour-blobs-tool';
export type { ColourBlobsToolSettings } from './colour-blobs-tool';
export { COLOURS, SHAPES, colourName, detectShapes, matchQuery, shapeName } from './detect-shapes';
export type { Colour, Detection, Shape } from './detect-shapes';
