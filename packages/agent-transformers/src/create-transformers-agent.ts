import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { applyHistoryWindow, untilAborted } from '@saccade/core';
import { decodeImage, recordedImageSize, resize } from '@saccade/image';
import type * as TransformersModule from '@huggingface/transformers';
import { InvalidArgumentError, InvalidStateError, type Agent, type AgentActOptions, type AgentFinishReason, type AgentOutput, type AgentResponse, type ImageData, type Message } from '@saccade/spec';
import { ModelFolderError } from './errors/model-folder-error';
import { DTYPE_SUFFIXES, inspectModelFolder, type DtypeSetting, type ModelFolder } from './model-folder';
import { createStopWatcher, truncateAtStop } from './stop-strings';
import { applyTopPRows } from './top-p';
import { taskPrompt, toProcessorChat } from './to-processor-chat';

type Transformers = typeof TransformersModule;

/**
 * What createTransformersAgent loads (a local ONNX export, its weight types and device) and how it
 * samples: everything it needs is on disk, nothing is downloaded.
 */
export interface TransformersAgentSettings {
  /** The local folder of an ONNX export: config.json, tokenizer and processor files, onnx/*.onnx. Nothing is downloaded. */
  modelPath: string;
  /** The agent's id in trajectories (default `transformers:<folder name>`). */
  id?: string;
  /**
   * Which ONNX weights to load: `'fp32'`, `'fp16'`, `'q8'`, `'q4'`, `'q4f16'`, … for every part, or one
   * per part (`{ vision_encoder: 'fp32', decoder_model_merged: 'q4' }`). Default: the folder's
   * `transformers.js_config.dtype`, else fp32.
   */
  dtype?: DtypeSetting;
  /** onnxruntime execution device (default 'cpu'). */
  device?: string;
  /** Images with more pixels are resized down to this many (aspect ratio kept) before the processor sees them (default: no limit). */
  maxImagePixels?: number;
  /** Keep the system messages and the last K user/assistant exchanges (default: all). */
  historyWindow?: number;
  /** Sampling defaults; `act` options override them. Temperature 0 is greedy; unset: the model's generation_config. */
  temperature?: number;
  topP?: number;
  /** Most new tokens per answer (default 256). */
  maxTokens?: number;
  stop?: string[];
  /** Seeds transformers.js' sampler (a process-wide generator) when the agent is made, for repeatable samples. */
  seed?: number;
}

/**
 * An Agent that runs a Hugging Face VLM in-process through transformers.js and onnxruntime; it
 * holds ONNX sessions, so call `dispose` when done.
 */
export interface TransformersAgent extends Agent {
  readonly modelPath: string;
  /** config.json's model_type, e.g. 'idefics3'. */
  readonly modelType: string;
  /** The ONNX files loaded, relative to the folder. */
  readonly onnxFiles: readonly string[];
  /** Frees the ONNX sessions; `act` throws afterwards. */
  dispose(): Promise<void>;
}

/** The parts of a transformers.js processor, tokenizer and model this agent calls. */
interface Tokenizer {
  decode(ids: readonly bigint[] | readonly number[], options?: { skip_special_tokens?: boolean }): string;
  (text: string | string[], options?: Record<string, unknown>): { input_ids: TensorLike } & Record<string, unknown>;
}
interface TensorLike {
  dims: number[];
  tolist(): unknown[];
}
interface Processor {
  (...args: unknown[]): Promise<{ input_ids: TensorLike } & Record<string, unknown>>;
  image_processor?: ((image: unknown) => Promise<{ pixel_values: TensorLike; image_grid_thw: TensorLike }>) & { config: { merge_size?: number } };
  tokenizer?: Tokenizer & { chat_template?: unknown };
  chat_template?: unknown;
  apply_chat_template(messages: unknown[], options: Record<string, unknown>): string;
}
interface Model {
  config: Record<string, unknown> & { is_encoder_decoder?: boolean };
  generation_config?: { eos_token_id?: number | number[] | null };
  generate(options: Record<string, unknown>): Promise<TensorLike | { sequences: TensorLike }>;
  dispose(): Promise<unknown>;
}

const DEFAULT_MAX_TOKENS = 256;

/** The processor each model type's preprocessor_config.json names, for error messages. */
const PROCESSOR_CLASSES: Record<string, string> = {
  idefics3: 'Idefics3Processor',
  smolvlm: 'SmolVLMProcessor',
  qwen2_vl: 'Qwen2VLProcessor',
  qwen2_5_vl: 'Qwen2_5_VLProcessor',
  florence2: 'Florence2Processor',
};

function checkSettings(settings: TransformersAgentSettings): void {
  if (typeof settings?.modelPath !== 'string' || settings.modelPath.length === 0) {
    throw new InvalidArgumentError({ argument: 'modelPath', expected: 'the path of a local model folder', value: settings?.modelPath });
  }
  const positive = (name: keyof TransformersAgentSettings, integer: boolean): void => {
    const value = settings[name];
    if (value === undefined || value === Infinity) return;
    if (typeof value !== 'number' || !(value > 0) || (integer && !Number.isSafeInteger(value))) {
      throw new InvalidArgumentError({ argument: name, expected: integer ? 'an integer ≥ 1' : 'a number > 0', value });
    }
  };
  positive('maxImagePixels', true);
  positive('maxTokens', true);
  if (settings.historyWindow !== undefined && !(settings.historyWindow === Infinity || (Number.isSafeInteger(settings.historyWindow) && settings.historyWindow >= 0))) {
    throw new InvalidArgumentError({ argument: 'historyWindow', expected: 'an integer ≥ 0 or Infinity', value: settings.historyWindow });
  }
  if (settings.seed !== undefined && !Number.isSafeInteger(settings.seed)) throw new InvalidArgumentError({ argument: 'seed', expected: 'an integer', value: settings.seed });
  const { dtype } = settings;
  const known = (value: unknown): boolean => typeof value === 'string' && (value === 'auto' || value in DTYPE_SUFFIXES);
  if (dtype !== undefined && !(known(dtype) || (typeof dtype === 'object' && dtype !== null && Object.values(dtype).every(known)))) {
    throw new InvalidArgumentError({ argument: 'dtype', expected: `one of auto, ${Object.keys(DTYPE_SUFFIXES).join(', ')}, or an object of them by part`, value: dtype });
  }
  checkSampling(settings, 'settings');
}

function checkSampling(options: { temperature?: number; topP?: number; maxTokens?: number; stop?: string[] }, where: string): void {
  const { temperature, topP, maxTokens, stop } = options;
  if (temperature !== undefined && !(typeof temperature === 'number' && temperature >= 0)) {
    throw new InvalidArgumentError({ argument: `${where}.temperature`, expected: 'a number ≥ 0', value: temperature });
  }
  if (topP !== undefined && !(typeof topP === 'number' && topP > 0 && topP <= 1)) throw new InvalidArgumentError({ argument: `${where}.topP`, expected: 'a number in (0, 1]', value: topP });
  if (maxTokens !== undefined && !(Number.isSafeInteger(maxTokens) && maxTokens >= 1)) throw new InvalidArgumentError({ argument: `${where}.maxTokens`, expected: 'an integer ≥ 1', value: maxTokens });
  if (stop !== undefined && !(Array.isArray(stop) && stop.every((item) => typeof item === 'string' && item.length > 0))) {
    throw new InvalidArgumentError({ argument: `${where}.stop`, expected: 'an array of non-empty strings', value: stop });
  }
}

/** An error's message without its closing full stops (ours adds one). */
function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/[.\s]+$/, '');
}

/** Loads the processor and model, turning transformers.js' and onnxruntime's errors into ModelFolderErrors that name the folder. */
async function load(transformers: Transformers, folder: ModelFolder, settings: TransformersAgentSettings): Promise<{ processor: Processor; model: Model }> {
  const { env } = transformers;
  // Local files only: never the hub, and no copies in (or reads from) transformers.js' own cache.
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = `${dirname(folder.path)}/`;
  env.useFSCache = false;
  env.useBrowserCache = false;
  const options = { local_files_only: true };

  let processor: Processor;
  try {
    processor = (await transformers.AutoProcessor.from_pretrained(folder.path, options)) as unknown as Processor;
  } catch (cause) {
    throw new ModelFolderError({
      modelPath: folder.path,
      expected: `processor files a ${folder.family.label} processor can read (${folder.family.files.join(', ')})`,
      found: `an error while loading them: ${messageOf(cause)}`,
      cause,
    });
  }
  if (processor.tokenizer === undefined) {
    const preprocessor = JSON.parse(readFileSync(join(folder.path, 'preprocessor_config.json'), 'utf8')) as { processor_class?: unknown };
    throw new ModelFolderError({
      modelPath: folder.path,
      path: join(folder.path, 'preprocessor_config.json'),
      expected: `a "processor_class" naming a ${folder.family.label} processor (with a tokenizer), e.g. "${PROCESSOR_CLASSES[folder.modelType] ?? 'Idefics3Processor'}"`,
      found: preprocessor.processor_class === undefined ? 'no processor_class' : `processor_class ${JSON.stringify(preprocessor.processor_class)}, which transformers.js does not know`,
    });
  }
  if (folder.family.prompt === 'chat' && !processor.chat_template && !processor.tokenizer?.chat_template) {
    throw new ModelFolderError({
      modelPath: folder.path,
      path: join(folder.path, 'tokenizer_config.json'),
      expected: 'a "chat_template" (the agent builds each prompt with the model\'s chat template)',
      found: 'none',
    });
  }

  const modelClass = transformers[folder.family.modelClass];
  let model: Model;
  try {
    model = (await modelClass.from_pretrained(folder.path, {
      ...options,
      device: (settings.device ?? 'cpu') as never,
      ...(settings.dtype === undefined ? {} : { dtype: settings.dtype as never }),
    })) as unknown as Model;
  } catch (cause) {
    const message = messageOf(cause);
    const onnx = /onnx|protobuf|InferenceSession|Load model/i.test(message);
    throw new ModelFolderError({
      modelPath: folder.path,
      expected: onnx
        ? `valid ONNX files for a ${folder.family.label} export (${folder.onnxFiles.join(', ')})`
        : `a ${folder.family.label} export that transformers.js ${transformers.env.version} loads (config.json, ${folder.onnxFiles.join(', ')})`,
      found: `an error while loading the model: ${message}`,
      cause,
    });
  }
  return { processor, model };
}

/** An ImageData → transformers.js RawImage (RGB), resized down to at most `maxPixels`. */
async function toRawImage(transformers: Transformers, image: ImageData, maxPixels: number): Promise<InstanceType<Transformers['RawImage']>> {
  let source: ImageData = image;
  if (maxPixels !== Infinity) {
    const size = await recordedImageSize(image);
    const pixels = size.width * size.height;
    if (pixels > maxPixels) {
      const scale = Math.sqrt(maxPixels / pixels);
      source = (await resize(image, {
        width: Math.max(1, Math.floor(size.width * scale)),
        height: Math.max(1, Math.floor(size.height * scale)),
        fit: 'fill',
      })) as ImageData;
    }
  }
  const raw = await decodeImage(source, { channels: 3 });
  return new transformers.RawImage(raw.data, raw.width, raw.height, 3);
}

function sequencesOf(result: TensorLike | { sequences: TensorLike }): bigint[][] {
  const tensor = 'sequences' in result ? result.sequences : result;
  return tensor.tolist() as bigint[][];
}

/**
 * An agent that runs a vision-language model exported to ONNX (SmolVLM, Qwen2-VL / Qwen2.5-VL,
 * Florence-2) on this machine through `@huggingface/transformers` and onnxruntime-node, from a
 * local folder. Remote models are turned off: nothing is fetched. The folder is checked first
 * (`inspectModelFolder`), so a missing folder, config.json, processor file or ONNX file, or an
 * unsupported `model_type`, is a `ModelFolderError` naming the path and what was expected.
 *
 * Chat models get the whole conversation through the processor's chat template, images in place;
 * Florence-2 gets the last user message's text as its task prompt and that message's first image.
 * Calls run one at a time (the model uses every core); `n` samples are `n` generations; `signal`
 * stops a generation between two tokens, or a call still waiting its turn.
 *
 * @example
 * const agent = await createTransformersAgent({ modelPath: 'models/SmolVLM-256M-Instruct', dtype: 'q4', maxTokens: 64, stop: ['</answer>'] });
 * const { outputs, usage } = await agent.act({ messages: buildMessages({ systemPrompt: env.systemPrompt(), observation }) });
 * await agent.dispose();
 */
export async function createTransformersAgent(settings: TransformersAgentSettings): Promise<TransformersAgent> {
  checkSettings(settings);
  const folder = inspectModelFolder(settings.modelPath, { dtype: settings.dtype, device: settings.device ?? 'cpu' });
  const transformers = await import('@huggingface/transformers');
  const { processor, model } = await load(transformers, folder, settings);
  if (settings.seed !== undefined) transformers.random.seed(settings.seed);

  const { maxImagePixels = Infinity, historyWindow = Infinity } = settings;
  const encoderDecoder = model.config.is_encoder_decoder === true;
  const eos = new Set([model.generation_config?.eos_token_id ?? []].flat().map((id) => BigInt(id)));
  const tokenizer = processor.tokenizer!;
  // Florence-2 writes boxes as <loc_N> tokens: keep them, and drop only what its own post-processing drops.
  const decode =
    folder.family.prompt === 'task'
      ? (ids: readonly bigint[]): string => tokenizer.decode(ids, { skip_special_tokens: false }).replace(/<\/?s>|<pad>/g, '')
      : (ids: readonly bigint[]): string => tokenizer.decode(ids, { skip_special_tokens: true });

  // The model uses every core: one generation at a time, in call order.
  let queue: Promise<unknown> = Promise.resolve();
  let disposed = false;

  /** The processor's tensors for a call: the chat through the template (images in place), or Florence-2's task prompt and image. */
  const prepare = async (messages: readonly Message[]): Promise<{ input_ids: TensorLike } & Record<string, unknown>> => {
    if (folder.family.prompt === 'task') {
      const { text, image } = taskPrompt(messages);
      return processor(await toRawImage(transformers, image, maxImagePixels), text);
    }
    const { chat, images } = toProcessorChat(applyHistoryWindow(messages, historyWindow));
    const prompt = processor.apply_chat_template(chat, { add_generation_prompt: true });
    if (images.length === 0) return tokenizer(prompt);
    const raw = await Promise.all(images.map((image) => toRawImage(transformers, image, maxImagePixels)));
    return folder.family.imagesOneByOne === true && raw.length > 1 ? qwenInputs(prompt, raw) : processor(prompt, raw);
  };

  /** What Qwen2VLProcessor does, with each image through the image processor alone (see ModelFamily.imagesOneByOne). */
  const qwenInputs = async (prompt: string, images: unknown[]): Promise<{ input_ids: TensorLike } & Record<string, unknown>> => {
    const imageProcessor = processor.image_processor!;
    const each = [];
    for (const image of images) each.push(await imageProcessor(image));
    const grids = each.map((item) => (item.image_grid_thw.tolist() as bigint[][])[0]!.map(Number));
    const merge = (imageProcessor.config.merge_size ?? 2) ** 2;
    const imageToken = (processor.constructor as { image_token?: string }).image_token ?? '<|image_pad|>';
    let index = 0;
    const text = prompt.replaceAll(imageToken, () => {
      const [t = 1, h = 1, w = 1] = grids[index++] ?? [];
      return '\u0000'.repeat(Math.floor((t * h * w) / merge));
    });
    return {
      ...tokenizer(text.replaceAll('\u0000', imageToken)),
      pixel_values: transformers.cat(each.map((item) => item.pixel_values) as never[], 0),
      image_grid_thw: transformers.cat(each.map((item) => item.image_grid_thw) as never[], 0),
    };
  };

  const run = async (options: AgentActOptions): Promise<AgentResponse> => {
    if (disposed) throw new InvalidStateError({ operation: 'act()', expected: 'an agent not yet disposed', actual: 'dispose() was called' });
    options.signal?.throwIfAborted();
    const n = options.n ?? 1;
    const stop = options.stop ?? settings.stop ?? [];
    const temperature = options.temperature ?? settings.temperature;
    const topP = options.topP ?? settings.topP;
    const maxTokens = options.maxTokens ?? settings.maxTokens ?? DEFAULT_MAX_TOKENS;
    const sampling: Record<string, unknown> = { max_new_tokens: maxTokens };
    if (temperature !== undefined) Object.assign(sampling, temperature === 0 ? { do_sample: false } : { do_sample: true, temperature });

    const inputs = await prepare(options.messages);
    const promptLength = inputs.input_ids.dims.at(-1) ?? 0;
    // Decoder-only models return the prompt before the answer; encoder-decoders return the decoder's start token.
    const generatedFrom = encoderDecoder ? 1 : promptLength;
    const watch = createStopWatcher({ promptLength: generatedFrom, stop, decode, signal: options.signal });
    class StopCriteria extends transformers.StoppingCriteria {
      override _call(rows: never): boolean[] {
        return watch(rows as readonly bigint[][]);
      }
    }
    // transformers.js ignores top_p: filter the (temperature-scaled) logits here.
    class TopP extends transformers.LogitsProcessor {
      override _call(_ids: never, logits: never): never {
        const tensor = logits as { data: Float32Array; dims: number[] };
        applyTopPRows(tensor.data, tensor.dims.at(-1) ?? tensor.data.length, topP!);
        return logits;
      }
    }
    const outputs: AgentOutput[] = [];
    let outputTokens = 0;
    for (let sample = 0; sample < n; sample++) {
      const [row = []] = sequencesOf(
        await model.generate({
          ...inputs,
          ...sampling,
          stopping_criteria: [new StopCriteria()],
          ...(topP !== undefined && topP < 1 ? { logits_processor: [new TopP()] } : {}),
        }),
      );
      options.signal?.throwIfAborted();
      const ids = row.slice(generatedFrom);
      const cut = truncateAtStop(decode(ids), stop);
      const last = ids.at(-1);
      const endedByModel = cut.matched !== undefined || (last !== undefined && eos.has(last));
      const finishReason: AgentFinishReason = !endedByModel && ids.length >= maxTokens ? 'length' : 'stop';
      outputs.push({ text: cut.text, tokens: ids.map(Number), finishReason });
      outputTokens += ids.length;
    }
    return { outputs, usage: { inputTokens: promptLength, outputTokens } };
  };

  return {
    specificationVersion: 'v1',
    id: settings.id ?? `transformers:${basename(folder.path)}`,
    modelPath: folder.path,
    modelType: folder.modelType,
    onnxFiles: folder.onnxFiles,
    act(options: AgentActOptions): Promise<AgentResponse> {
      const n = options.n ?? 1;
      if (!(Number.isSafeInteger(n) && n >= 1)) return Promise.reject(new InvalidArgumentError({ argument: 'n', expected: 'an integer ≥ 1', value: n }));
      if (!Array.isArray(options.messages) || options.messages.length === 0) {
        return Promise.reject(new InvalidArgumentError({ argument: 'messages', expected: 'a non-empty array of messages', value: options.messages }));
      }
      try {
        checkSampling(options, 'act');
      } catch (error) {
        return Promise.reject(error);
      }
      const turn = queue.then(() => (options.signal?.aborted ? Promise.reject(options.signal.reason) : run(options)));
      queue = turn.catch(() => undefined);
      return untilAborted(turn, options.signal);
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await queue;
      await model.dispose();
    },
  };
}
