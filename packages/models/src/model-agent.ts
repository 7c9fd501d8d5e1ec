import { partialAssistantText, type Agent, type AgentActBatchOptions, type AgentActOptions, type AgentResponse, type ImageData } from '@saccade/spec';
import type { GeneratedSample, GenerateOptions } from './generate';
import { applyChatTemplate } from './chat-template';
import { decodeImageData } from './decode-image-data';
import { imageTokenCount } from './model-config';
import { timePhase } from './phase-timer';
import type { RgbImage } from './rgb-image';
import type { Tokenizer } from './tokenizer';
import type { VisionLanguageModel } from './vision-language-model';

/**
 * The built-in model createModelAgent plays, its sampling defaults and seed, how it decodes images,
 * and what generates in the model's place.
 */
export interface ModelAgentSettings {
  model: VisionLanguageModel;
  id?: string;
  /** Defaults for act() options the caller leaves out. */
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  stop?: string[];
  /** Seed of the first call's sampler; each call without its own `seed` uses the next one (reproducible runs). */
  seed?: number;
  /** Encoded image → RGB of the model's size (default: @saccade/image, see decodeImageData). */
  decodeImage?: (image: ImageData, size: number) => Promise<RgbImage>;
  /**
   * Continue a final assistant message instead of answering after it (vLLM's
   * `continue_final_message`): the prompt ends with `<|assistant|>` and that text, not closed by
   * `<|end|>`, and the output is what the model writes after it. Default false.
   */
  continueFinalMessage?: boolean;
  /** Generates in the model's place: a trainer's DataParallel, so that sampling uses every thread. Default: the model. */
  generator?: ModelGenerator;
}

/** What generates for the agent: the model itself, or a trainer's DataParallel sharing the work over its threads. */
export interface ModelGenerator {
  generate(options: GenerateOptions): Promise<GeneratedSample[][]>;
}

/**
 * The built-in model as a spec Agent: chat template, image decoding, KV-cache sampling. `actBatch`
 * decodes many chats as one batch (one generate call), which is how the rollout manager plays the
 * built-in model's episodes in lock step.
 */
export function createModelAgent(settings: ModelAgentSettings): Agent {
  const { model } = settings;
  const decode = settings.decodeImage ?? ((image: ImageData, size: number) => timePhase('image.decode', () => decodeImageData(image, size)));
  const generator: ModelGenerator = settings.generator ?? model;
  let seed = settings.seed ?? 0;
  const actBatch = async (options: AgentActBatchOptions): Promise<AgentResponse[]> => {
    options.signal?.throwIfAborted();
    const maxTokens = options.maxTokens ?? settings.maxTokens ?? 64;
    // Room kept for the answer when a prompt must be cut: the answer's budget, at most half the context.
    const answerRoom = Math.min(maxTokens, Math.floor(model.config.maxSequenceLength / 2));
    const prompts = await timePhase('prompts', () =>
      Promise.all(
        options.messages.map(async (messages) => {
          const { whole, tokens, kept } = timePhase('chat-template', () => {
            const prefix = settings.continueFinalMessage ? partialAssistantText(messages) : undefined;
            const sequence = applyChatTemplate(model.tokenizer, prefix === undefined ? messages : messages.slice(0, -1), {
              imageTokens: imageTokenCount(model.config),
              addGenerationPrompt: true,
            });
            const whole = prefix === undefined ? sequence.tokens : [...sequence.tokens, ...model.tokenizer.encode(prefix)];
            const { tokens, images: kept } = fitPrompt(whole, sequence.images, model.config.maxSequenceLength - answerRoom, model.tokenizer);
            return { whole, tokens, kept };
          });
          const images = await Promise.all(kept.map((image) => decode(image, model.config.imageSize)));
          return { tokens, images, kept: kept.length, truncated: whole.length - tokens.length };
        }),
      ),
    );
    const stop = options.stop ?? settings.stop;
    const results = await timePhase('generate', () => generator.generate({
      prompts: prompts.map(({ tokens, images }) => ({ tokens, images })),
      n: options.n ?? 1,
      temperature: options.temperature ?? settings.temperature ?? 1,
      topP: options.topP ?? settings.topP ?? 1,
      maxTokens,
      seed: options.seed ?? seed++,
      ...(stop ? { stop } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    }));
    return prompts.map((prompt, index) => {
      const samples = results[index] ?? [];
      return {
        outputs: samples.map((sample) => ({
          text: sample.text,
          tokens: sample.tokens,
          logprobs: sample.logProbs,
          finishReason: sample.finishReason,
        })),
        usage: {
          inputTokens: prompt.tokens.length,
          outputTokens: samples.reduce((sum, sample) => sum + sample.tokens.length, 0),
        },
        // What the samples were drawn from, cut as it was: the context a trainer must score them in.
        prompt: { tokens: [...prompt.tokens], images: prompt.kept, ...(prompt.truncated > 0 ? { truncatedTokens: prompt.truncated } : {}) },
      };
    });
  };
  return {
    specificationVersion: 'v1',
    id: settings.id ?? 'saccade/small-vlm',
    actBatch,
    async act({ messages, ...options }: AgentActOptions): Promise<AgentResponse> {
      const [response] = await actBatch({ ...options, messages: [messages] });
      return response!;
    },
  };
}

/**
 * A prompt cut to at most `limit` tokens: `<bos>`, then its last tokens, an image kept whole or
 * dropped with its bytes (the oldest context goes first, as a history window does by turns).
 */
export function fitPrompt<Image>(tokens: readonly number[], images: readonly Image[], limit: number, tokenizer: Tokenizer): { tokens: number[]; images: Image[] } {
  if (tokens.length <= limit) return { tokens: [...tokens], images: [...images] };
  const imageTag = tokenizer.encode('<image>')[0];
  let cut = tokens.length - limit + 1;
  // Never keep part of an image: its pad tokens would have no features.
  while (cut < tokens.length && tokens[cut] === tokenizer.imagePadId) cut++;
  let dropped = 0;
  for (let position = 1; position < cut; position++) if (tokens[position] === imageTag && tokens[position + 1] === tokenizer.imagePadId) dropped++;
  return { tokens: [tokens[0]!, ...tokens.slice(cut)], images: images.slice(dropped) };
}

/**
 * `decodeImageData` with a cache by image object: the rollout manager keeps each observation's
 * image as one object, so the agent (every turn that shows it) and the trainer decode it once.
 */
export function createImageDecoder(): (image: ImageData, size: number) => Promise<RgbImage> {
  const cache = new WeakMap<ImageData, Map<number, Promise<RgbImage>>>();
  return (image, size) => {
    let sizes = cache.get(image);
    if (!sizes) cache.set(image, (sizes = new Map()));
    let decoded = sizes.get(size);
    if (!decoded) {
      decoded = timePhase('image.decode', () => decodeImageData(image, size));
      sizes.set(size, decoded);
      // A failed decode is not kept: the next caller gets the error afresh.
      decoded.catch(() => sizes!.delete(size));
    }
    return decoded;
  };
}
