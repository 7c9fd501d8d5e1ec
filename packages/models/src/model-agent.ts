import type { Agent, AgentActOptions, AgentResponse, ImageData, Message } from '@saccade/spec';
import { applyChatTemplate } from './chat-template';
import { decodeImageData } from './decode-image-data';
import { imageTokenCount } from './model-config';
import type { RgbImage } from './rgb-image';
import type { VisionLanguageModel } from './vision-language-model';

export interface ModelAgentSettings {
  model: VisionLanguageModel;
  id?: string;
  /** Defaults for act() options the caller leaves out. */
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  stop?: string[];
  /** Seed of the first call's sampler; each call uses the next seed (reproducible runs). */
  seed?: number;
  /** Encoded image → RGB of the model's size (default: sharp, see decodeImageData). */
  decodeImage?: (image: ImageData, size: number) => Promise<RgbImage>;
  /**
   * Continue a final assistant message instead of answering after it (vLLM's
   * `continue_final_message`): the prompt ends with `<|assistant|>` and that text, not closed by
   * `<|end|>`, and the output is what the model writes after it. Default false.
   */
  continueFinalMessage?: boolean;
}

/** The text of the last message when it is the assistant's (a partial answer to continue), else undefined. */
export function partialAssistantText(messages: readonly Message[]): string | undefined {
  const last = messages[messages.length - 1];
  if (last?.role !== 'assistant') return undefined;
  return typeof last.content === 'string' ? last.content : last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}

/** The built-in model as a spec Agent: chat template, image decoding, KV-cache sampling. */
export function createModelAgent(settings: ModelAgentSettings): Agent {
  const { model } = settings;
  const decode = settings.decodeImage ?? decodeImageData;
  let seed = settings.seed ?? 0;
  return {
    specificationVersion: 'v1',
    id: settings.id ?? 'saccade/small-vlm',
    async act(options: AgentActOptions): Promise<AgentResponse> {
      options.signal?.throwIfAborted();
      const prefix = settings.continueFinalMessage ? partialAssistantText(options.messages) : undefined;
      const sequence = applyChatTemplate(model.tokenizer, prefix === undefined ? options.messages : options.messages.slice(0, -1), {
        imageTokens: imageTokenCount(model.config),
        addGenerationPrompt: true,
      });
      const tokens = prefix === undefined ? sequence.tokens : [...sequence.tokens, ...model.tokenizer.encode(prefix)];
      const images = await Promise.all(sequence.images.map((image) => decode(image, model.config.imageSize)));
      const stop = options.stop ?? settings.stop;
      const [samples = []] = await model.generate({
        prompts: [{ tokens, images }],
        n: options.n ?? 1,
        temperature: options.temperature ?? settings.temperature ?? 1,
        topP: options.topP ?? settings.topP ?? 1,
        maxTokens: options.maxTokens ?? settings.maxTokens ?? 64,
        seed: seed++,
        ...(stop ? { stop } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return {
        outputs: samples.map((sample) => ({
          text: sample.text,
          tokens: sample.tokens,
          logprobs: sample.logProbs,
          finishReason: sample.finishReason,
        })),
        usage: {
          inputTokens: tokens.length,
          outputTokens: samples.reduce((sum, sample) => sum + sample.tokens.length, 0),
        },
      };
    },
  };
}
