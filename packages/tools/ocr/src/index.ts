export { closeOcrEngines, createOcrTool, ocrTool, warmOcrEngines } from './ocr-tool';
export type { OcrInput, OcrToolSettings } from './ocr-tool';
export { createOcrEngine, DEFAULT_OCR_THREADS, defaultOcrModelPaths, joinRows, loadOcrEngine, readingOrder } from './ocr-engine';
export type { OcrEngine, OcrLine } from './ocr-engine';
export { optimizeOnnxModel } from './optimize-onnx-model';
export type { OnnxRewrites } from './optimize-onnx-model';
export { createPaddleDetector, createPaddleRecognizer, tidyNumbers } from './paddle-ocr';
export type { OnnxSessionSettings, PaddleDetectorSettings, PaddleRecognizerSettings } from './paddle-ocr';
export type { DetectedText, OcrModelPaths, OcrRunOptions, RecognizedText, TextBox, TextDetector, TextRecognizer } from './ocr-models';
