import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RawImage } from '@saccade/image';
import { InvalidArgumentError } from '@saccade/spec';
import type { Segmenter, SegmenterMask, SegmentPrompt } from './segmenter';

/** Settings of {@link createSamSegmenter}. */
export interface SamSegmenterSettings {
  /** The model folder: config.json (model_type sam), preprocessor_config.json, and vision_encoder.onnx + prompt_encoder_mask_decoder.onnx (in it or in its onnx/). */
  modelPath: string;
  /** Mask logits above this are in the mask (default 0, SAM's). */
  maskThreshold?: number;
}

const ONNX_FILES = ['vision_encoder', 'prompt_encoder_mask_decoder'] as const;

// The parts of transformers.js' SamProcessor, SamModel and Tensor this segmenter calls.
interface Tensor {
  dims: number[];
  data: ArrayLike<number | bigint | boolean>;
}
interface SamInputs {
  original_sizes: [number, number][];
  reshaped_input_sizes: [number, number][];
  [name: string]: unknown;
}
interface SamProcessor {
  (image: unknown, prompts: Record<string, unknown>): Promise<SamInputs>;
  post_process_masks(masks: Tensor, original: [number, number][], reshaped: [number, number][], options: { mask_threshold: number }): Promise<Tensor[]>;
}
interface SamModel {
  get_image_embeddings(inputs: { pixel_values: unknown }): Promise<Record<string, unknown>>;
  (inputs: Record<string, unknown>): Promise<{ iou_scores: Tensor; pred_masks: Tensor }>;
  dispose(): Promise<unknown>;
  sessions: Record<string, { inputNames: string[] }>;
}

const folderError = (modelPath: string, expected: string, found: string): InvalidArgumentError =>
  new InvalidArgumentError({ argument: 'modelPath', expected, value: modelPath, message: `expected a SAM model folder at ${modelPath} with ${expected}, found ${found}` });

/** Checks the folder before transformers.js reads it, so that a wrong folder names what it lacks; returns the ONNX files' subfolder. */
function inspectFolder(modelPath: string): string {
  if (!existsSync(modelPath)) throw folderError(modelPath, 'config.json, preprocessor_config.json and the ONNX files', 'no such folder');
  for (const file of ['config.json', 'preprocessor_config.json']) {
    if (!existsSync(join(modelPath, file))) throw folderError(modelPath, file, `only ${readdirSync(modelPath).join(', ') || 'nothing'}`);
  }
  let modelType: unknown;
  try {
    modelType = (JSON.parse(readFileSync(join(modelPath, 'config.json'), 'utf8')) as { model_type?: unknown }).model_type;
  } catch (error) {
    throw folderError(modelPath, 'a JSON config.json', `text that is not JSON (${(error as Error).message})`);
  }
  if (modelType !== 'sam') throw folderError(modelPath, 'a config.json whose model_type is "sam" (SAM, SlimSAM, MobileSAM exports)', `model_type ${JSON.stringify(modelType)}`);
  for (const subfolder of ['onnx', '']) {
    if (ONNX_FILES.every((name) => existsSync(join(modelPath, subfolder, `${name}.onnx`)))) return subfolder;
  }
  throw folderError(modelPath, `${ONNX_FILES.map((name) => `${name}.onnx`).join(' and ')} (in the folder or its onnx/)`, 'neither pair');
}

/**
 * A SAM-family segmenter from an ONNX export on disk (Xenova/slimsam-77-uniform, Xenova/sam-vit-base
 * layout), run by transformers.js' SamProcessor and SamModel on onnxruntime-node: the image is
 * resized and padded by the processor, encoded once per call, the prompt decoded into SAM's three
 * candidate masks, which post_process_masks scales back to the image's pixels. Files are read from
 * the folder only: transformers.js is told never to fetch or cache.
 */
export async function createSamSegmenter(settings: SamSegmenterSettings): Promise<Segmenter> {
  const modelPath = resolve(settings.modelPath);
  const subfolder = inspectFolder(modelPath);
  const transformers = await import('@huggingface/transformers');
  const { env } = transformers;
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.useFSCache = false;
  env.useBrowserCache = false;
  const options = { local_files_only: true };
  let processor: SamProcessor;
  let model: SamModel;
  try {
    processor = (await transformers.SamProcessor.from_pretrained(modelPath, options)) as unknown as SamProcessor;
    model = (await transformers.SamModel.from_pretrained(modelPath, { ...options, subfolder, device: 'cpu', dtype: 'fp32' })) as unknown as SamModel;
  } catch (error) {
    throw folderError(modelPath, 'a SAM export transformers.js loads', `an error while loading it: ${(error as Error).message}`);
  }
  const threshold = settings.maskThreshold ?? 0;
  const takesBoxes = model.sessions['prompt_encoder_mask_decoder']?.inputNames.includes('input_boxes') ?? false;
  return {
    async segment(image: RawImage, prompt: SegmentPrompt): Promise<SegmenterMask[]> {
      const points = prompt.points ?? [];
      if (points.length === 0 && prompt.box === undefined) throw new InvalidArgumentError({ argument: 'prompt', expected: 'points or a box', value: prompt });
      const raw = new transformers.RawImage(image.data, image.width, image.height, image.channels);
      const xy = points.map(({ x, y }) => [x, y]);
      const labels: number[] = points.map(({ label }) => label);
      const prompts: Record<string, unknown> = {};
      if (prompt.box !== undefined && takesBoxes) prompts['input_boxes'] = [[prompt.box]];
      else if (prompt.box !== undefined) {
        // A decoder without input_boxes (the original segment-anything ONNX export) reads a box as its
        // two corners, labelled 2 (top left) and 3 (bottom right).
        const [x1, y1, x2, y2] = prompt.box;
        xy.push([x1, y1], [x2, y2]);
        labels.push(2, 3);
      }
      // A box alone goes with one padding point (label -10), which SAM's prompt encoder ignores.
      if (xy.length === 0) {
        xy.push([0, 0]);
        labels.push(-10);
      }
      prompts['input_points'] = [[xy]];
      prompts['input_labels'] = [[labels]];
      const inputs = await processor(raw, prompts);
      const embeddings = await model.get_image_embeddings(inputs as unknown as { pixel_values: unknown });
      const outputs = await model({ ...inputs, ...embeddings });
      const [masks] = await processor.post_process_masks(outputs.pred_masks, inputs.original_sizes, inputs.reshaped_input_sizes, { mask_threshold: threshold });
      // masks: [point batch 1, candidates, height, width]; iou_scores: [1, 1, candidates].
      const candidates = masks!.dims[1]!;
      const size = image.width * image.height;
      const found = Array.from({ length: candidates }, (_, index): SegmenterMask => {
        const mask = new Uint8Array(size);
        for (let i = 0; i < size; i++) mask[i] = masks!.data[index * size + i] ? 1 : 0;
        return { mask, score: Number(outputs.iou_scores.data[index]) };
      });
      return found.sort((a, b) => b.score - a.score);
    },
    async close(): Promise<void> {
      await model.dispose();
    },
  };
}
