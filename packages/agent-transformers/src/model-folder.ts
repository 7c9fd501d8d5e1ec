import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ModelFolderError } from './errors/model-folder-error';

/** ONNX weight types of transformers.js exports: the file suffix each selects (`onnx/<part><suffix>.onnx`). */
export const DTYPE_SUFFIXES = {
  fp32: '',
  fp16: '_fp16',
  int8: '_int8',
  uint8: '_uint8',
  q8: '_quantized',
  q4: '_q4',
  q4f16: '_q4f16',
  bnb4: '_bnb4',
  q2: '_q2',
  q2f16: '_q2f16',
  q1: '_q1',
  q1f16: '_q1f16',
} as const;

/**
 * A weight type a transformers.js export may ship (fp32, fp16, q8, q4, …): the key that picks an
 * `onnx/*.onnx` file by its suffix.
 */
export type ModelDtype = keyof typeof DTYPE_SUFFIXES;

/** How the agent talks to a model family. */
export interface ModelFamily {
  /** Who exports it, for messages. */
  label: string;
  /** The transformers.js auto class that loads it. */
  modelClass: 'AutoModelForVision2Seq' | 'AutoModelForImageTextToText';
  /** The ONNX parts transformers.js loads from `onnx/` (before the dtype suffix). */
  parts: readonly string[];
  /** Files besides config.json and the ONNX parts that the processor reads. */
  files: readonly string[];
  /**
   * 'chat': the whole conversation through the processor's chat template, images in place;
   * 'task': Florence-2's task prompts: the last user message's text and its first image.
   */
  prompt: 'chat' | 'task';
  /**
   * Run the image processor on each image alone and join the results. transformers.js 4.x's
   * Qwen2VLImageProcessor reads a list of images as the frames of one video (one grid for all),
   * so a chat with two images would get one image's worth of tokens.
   */
  imagesOneByOne?: boolean;
}

const PROCESSOR_FILES = ['tokenizer.json', 'tokenizer_config.json', 'preprocessor_config.json'];
const CHAT_PARTS = ['vision_encoder', 'embed_tokens', 'decoder_model_merged'];

const IDEFICS3: ModelFamily = {
  label: 'SmolVLM (Idefics3)',
  modelClass: 'AutoModelForVision2Seq',
  parts: CHAT_PARTS,
  files: [...PROCESSOR_FILES, 'processor_config.json'],
  prompt: 'chat',
};
const QWEN2_VL: ModelFamily = { label: 'Qwen2-VL', modelClass: 'AutoModelForImageTextToText', parts: CHAT_PARTS, files: PROCESSOR_FILES, prompt: 'chat', imagesOneByOne: true };

/** The `model_type`s of config.json this agent runs, and how. */
export const SUPPORTED_MODEL_TYPES: Readonly<Record<string, ModelFamily>> = {
  idefics3: IDEFICS3,
  smolvlm: { ...IDEFICS3, label: 'SmolVLM2' },
  qwen2_vl: QWEN2_VL,
  qwen2_5_vl: { ...QWEN2_VL, label: 'Qwen2.5-VL' },
  florence2: {
    label: 'Florence-2',
    modelClass: 'AutoModelForImageTextToText',
    parts: ['embed_tokens', 'vision_encoder', 'encoder_model', 'decoder_model_merged'],
    files: PROCESSOR_FILES,
    prompt: 'task',
  },
};

/** A dtype for every part, or one per part (`{ vision_encoder: 'fp32', decoder_model_merged: 'q4' }`), as transformers.js takes it. */
export type DtypeSetting = ModelDtype | 'auto' | Partial<Record<string, ModelDtype | 'auto'>>;

/** What a checked model folder holds. */
export interface ModelFolder {
  /** The folder, absolute. */
  path: string;
  /** config.json, parsed. */
  config: Record<string, unknown>;
  modelType: string;
  family: ModelFamily;
  /** The ONNX files that will be loaded, relative to the folder (`onnx/decoder_model_merged_q4.onnx`, …). */
  onnxFiles: string[];
}

type TransformersJsConfig = {
  dtype?: DtypeSetting;
  device_config?: Record<string, { dtype?: DtypeSetting }>;
  use_external_data_format?: boolean | number | Record<string, boolean | number>;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pick(setting: DtypeSetting | undefined, part: string): string | undefined {
  return typeof setting === 'string' ? setting : setting?.[part];
}

/**
 * The dtype transformers.js picks for one part, resolved the way it does: the `dtype` option, else
 * config.json's `transformers.js_config` (its `device_config` for the device first), else fp32.
 */
export function resolvePartDtype(part: string, dtype: DtypeSetting | undefined, config: Record<string, unknown>, device: string): string {
  const custom = (isRecord(config['transformers.js_config']) ? config['transformers.js_config'] : {}) as TransformersJsConfig;
  const configDtype = custom.device_config?.[device]?.dtype ?? custom.dtype;
  let chosen = pick(dtype ?? configDtype, part);
  if (chosen === 'auto') chosen = pick(configDtype, part);
  return chosen !== undefined && chosen !== 'auto' && chosen in DTYPE_SUFFIXES ? chosen : 'fp32';
}

function externalDataChunks(custom: TransformersJsConfig, fileName: string, part: string): number {
  const setting = custom.use_external_data_format;
  if (setting === undefined) return 0;
  if (typeof setting === 'object') return Number(setting[fileName] ?? setting[part] ?? 0);
  return Number(setting);
}

function readConfig(modelPath: string): Record<string, unknown> {
  const file = join(modelPath, 'config.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new ModelFolderError({
      modelPath,
      path: file,
      expected: 'config.json with the model_type (the folder of an ONNX export, e.g. HuggingFaceTB/SmolVLM-256M-Instruct)',
      found: (cause as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : `a file that cannot be read (${(cause as Error).message})`,
      cause,
    });
  }
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (cause) {
    throw new ModelFolderError({ modelPath, path: file, expected: 'a JSON object', found: `text that is not JSON (${(cause as Error).message})`, cause });
  }
  if (!isRecord(config)) throw new ModelFolderError({ modelPath, path: file, expected: 'a JSON object', found: Array.isArray(config) ? 'an array' : String(config) });
  return config;
}

/**
 * Checks a local model folder before anything is loaded: the folder, config.json and its
 * `model_type`, the processor's files, and the ONNX files transformers.js will open for the given
 * dtype and device. Throws a `ModelFolderError` naming the path and what was expected.
 *
 * @example
 * const folder = inspectModelFolder('models/SmolVLM-256M-Instruct', { dtype: 'q4' });
 * folder.family.label; // 'SmolVLM (Idefics3)'
 * folder.onnxFiles;    // ['onnx/vision_encoder_q4.onnx', 'onnx/embed_tokens_q4.onnx', 'onnx/decoder_model_merged_q4.onnx']
 */
export function inspectModelFolder(modelPath: string, { dtype, device = 'cpu' }: { dtype?: DtypeSetting; device?: string } = {}): ModelFolder {
  const path = resolve(modelPath);
  let isFolder: boolean;
  try {
    isFolder = statSync(path).isDirectory();
  } catch (cause) {
    throw new ModelFolderError({ modelPath: path, expected: 'a folder holding an ONNX export (config.json, tokenizer files, onnx/*.onnx)', found: 'nothing at that path', cause });
  }
  if (!isFolder) throw new ModelFolderError({ modelPath: path, expected: 'a folder holding an ONNX export (config.json, tokenizer files, onnx/*.onnx)', found: 'a file' });

  const config = readConfig(path);
  const modelType = config['model_type'];
  const supported = Object.keys(SUPPORTED_MODEL_TYPES).join(', ');
  if (typeof modelType !== 'string') {
    throw new ModelFolderError({ modelPath: path, path: join(path, 'config.json'), expected: `a "model_type" string (one of ${supported})`, found: modelType === undefined ? 'no model_type' : `model_type ${JSON.stringify(modelType)}` });
  }
  const family = SUPPORTED_MODEL_TYPES[modelType];
  if (family === undefined) {
    throw new ModelFolderError({
      modelPath: path,
      path: join(path, 'config.json'),
      expected: `a vision-language model_type this agent runs: ${supported}`,
      found: `model_type "${modelType}"`,
    });
  }

  for (const file of family.files) {
    const filePath = join(path, file);
    let size = -1;
    try {
      size = statSync(filePath).size;
    } catch {
      // reported below
    }
    if (size <= 0) {
      throw new ModelFolderError({ modelPath: path, path: filePath, expected: `${file}, which the ${family.label} processor reads`, found: size === 0 ? 'an empty file' : 'no such file' });
    }
  }

  const onnxFolder = join(path, 'onnx');
  let present: string[] = [];
  try {
    present = readdirSync(onnxFolder).filter((name) => name.endsWith('.onnx') || name.includes('.onnx_data')).sort();
  } catch {
    // no onnx folder: every part is missing, reported below
  }
  const custom = (isRecord(config['transformers.js_config']) ? config['transformers.js_config'] : {}) as TransformersJsConfig;
  const onnxFiles: string[] = [];
  for (const part of family.parts) {
    const partDtype = resolvePartDtype(part, dtype, config, device);
    const fileName = `${part}${DTYPE_SUFFIXES[partDtype as ModelDtype]}.onnx`;
    const chunks = externalDataChunks(custom, fileName, part);
    const needed = [fileName, ...Array.from({ length: chunks }, (_, index) => `${fileName}_data${index === 0 ? '' : `_${index}`}`)];
    for (const name of needed) {
      const filePath = join(onnxFolder, name);
      let size = -1;
      try {
        size = statSync(filePath).size;
      } catch {
        // reported below
      }
      if (size > 0) continue;
      const others = present.filter((file) => file.startsWith(part));
      throw new ModelFolderError({
        modelPath: path,
        path: filePath,
        expected: `onnx/${name} (the ${part} part of a ${family.label} export, dtype ${partDtype}; ${family.label} needs ${family.parts.join(', ')})`,
        found:
          size === 0
            ? 'an empty file'
            : present.length === 0
              ? 'no such file, and no .onnx files in onnx/'
              : `no such file; onnx/ holds ${others.length > 0 ? others.join(', ') : present.join(', ')}${others.length > 0 ? ' (choose one with the dtype setting)' : ''}`,
      });
    }
    onnxFiles.push(`onnx/${fileName}`);
  }
  return { path, config, modelType, family, onnxFiles };
}
