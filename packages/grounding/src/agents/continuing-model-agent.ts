import { applyChatTemplate, decodeImageData, imageTokenCount, type ModelAgentSettings } from '@saccade/models';
import type { Agent, AgentActOptions, AgentResponse } from '@saccade/spec';
import { partialAnswer, withoutPartialAnswer } from './continue-answer';

/**
 * The built-in model as an Agent that can continue a partial answer: when the messages end with
 * an assistant message, the prompt ends with `<|assistant|>` and that text (not closed by
 * `<|end|>`), and the output is what the model writes after it. Otherwise it answers as
 * `createModelAgent` does.
 */
export function createContinuingModelAgent(settings: ModelAgentSettings): Agent {
  const { model } = settings;
  const decode = settings.decodeImage ?? decodeImageData;
  let seed = settings.seed ?? 0;
  return {
    specificationVersion: 'v1',
    id: settings.id ?? 'saccade/small-vlm',
    async act(options: AgentActOptions): Promise<AgentResponse> {
      options.signal?.throwIfAborted();
      const prefix = partialAnswer(options.messages) ?? '';
      const sequence = applyChatTemplate(model.tokenizer, withoutPartialAnswer(options.messages), { imageTokens: imageTokenCount(model.config), addGenerationPrompt: true });
      const tokens = [...sequence.tokens, ...model.tokenizer.encode(prefix)];
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
        outputs: samples.map((sample) => ({ text: sample.text, tokens: sample.tokens, logprobs: sample.logProbs, finishReason: sample.finishReason })),
        usage: { inputTokens: tokens.length, outputTokens: samples.reduce((sum, sample) => sum + sample.tokens.length, 0) },
      };
    },
  };
}
