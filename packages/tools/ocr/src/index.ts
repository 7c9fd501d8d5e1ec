export { closeOcrEngines, createOcrTool, ocrTool } from './ocr-tool';
export type { OcrInput, OcrToolSettings } from './ocr-tool';
export { createOcrEngine, defaultOcrModelPaths, loadOcrEngine, readingOrder } from './ocr-engine';
export type { OcrEngine, OcrLine } from './ocr-engine';
export { createPaddleDetector, createPaddleRecognizer } from './paddle-ocr';
export type { OnnxSessionSettings, PaddleDetectorSettings, PaddleRecognizerSettings } from './paddle-ocr';
export type { DetectedText, OcrModelPaths, OcrRunOptions, RecognizedText, TextBox, TextDetector, TextRecognizer } from './ocr-models';
