import type { RawImage } from '@saccade/image';

/** An axis-aligned box in pixels: [x1, y1, x2, y2], x2 and y2 exclusive. */
export type TextBox = [number, number, number, number];

/** A text box the detector found. */
export interface DetectedText {
  box: TextBox;
  /** The detector's mean probability over the box, 0–1. */
  score: number;
}

/** What the recogniser read from one box. */
export interface RecognizedText {
  text: string;
  /** Mean probability of the characters read, 0–1 (0 for an empty line). */
  confidence: number;
}

/** Options of one detection or recognition run: `signal` aborts it between model calls. */
export interface OcrRunOptions {
  signal?: AbortSignal;
}

/** Finds lines of text in an image. Implement it to plug in another detection model. */
export interface TextDetector {
  detect(image: RawImage, options?: OcrRunOptions): Promise<DetectedText[]>;
  close?(): Promise<void>;
}

/** Reads single lines of text (crops). Implement it to plug in another recognition model. */
export interface TextRecognizer {
  recognize(lines: readonly RawImage[], options?: OcrRunOptions): Promise<RecognizedText[]>;
  close?(): Promise<void>;
}

/** Where a PaddleOCR-style ONNX model set lies on disk. */
export interface OcrModelPaths {
  /** DB text detection model (.onnx): input [1, 3, H, W], output a [1, 1, H, W] probability map. */
  detectionPath: string;
  /** CTC recognition model (.onnx): input [N, 3, 48, W], output [N, T, classes] probabilities. */
  recognitionPath: string;
  /** One character per line; class i + 1 is line i, class 0 the CTC blank, the last class a space. */
  dictionaryPath: string;
}
