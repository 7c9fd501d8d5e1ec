import { makeEnv } from '@saccade/core';
import { applyChatTemplate, decodeImageData, imageTokenCount, type DataParallel, type ModelSequence, type VisionLanguageModel } from '@saccade/models';
import type { Env, Observation } from '@saccade/spec';
import { policyMessages, type PolicyView } from './policy-messages';

export interface PlayEpisodesOptions {
  envId: string;
  envOptions?: Record<string, unknown>;
  /** One episode per entry; repeat a seed to play it several times (a GRPO group). */
  seeds: readonly number[];
  view: PolicyView;
  /** Turn cap per episode (the registered env's time limit applies too). */
  maxTurns: number;
  /** 0 is greedy (evaluation); 1 samples the policy as it is (rollouts). */
  temperature: number;
  topP?: number;
  maxTokens?: number;
  /** Seed of the sampler: same seed, same episodes. */
  samplingSeed?: number;
  /** Episodes played side by side: one batched generate call per turn serves them all (default 128). */
  batchSize?: number;
  /** Share each turn's generation over these threads (a trainer's DataParallel); default: this thread. */
  parallel?: DataParallel;
  signal?: AbortSignal;
}

export interface PlayedTurn {
  /** What the policy read (chat template with the generation prompt) and its decoded images. */
  prompt: ModelSequence;
  /** What it wrote, and the log-probability of each token when it was sampled. */
  tokens: number[];
  logProbs: number[];
  text: string;
  finishReason: 'stop' | 'length';
  reward: number;
  formatCorrect: boolean;
}

export interface PlayedEpisode {
  seed: number;
  turns: PlayedTurn[];
  /** Sum of the turns' rewards. */
  return: number;
  success: boolean;
  /** Reward by term, summed over the turns. */
  rewardTerms: Record<string, number>;
}

/**
 * Episodes of the built-in model on an env. Episodes advance in lock step so that each turn is one
 * batched, KV-cached generate call for every live episode instead of a call per episode.
 */
export async function playEpisodes(model: VisionLanguageModel, options: PlayEpisodesOptions): Promise<PlayedEpisode[]> {
  const batchSize = options.batchSize ?? 128;
  const episodes: PlayedEpisode[] = [];
  for (let start = 0; start < options.seeds.length; start += batchSize) {
    const seeds = options.seeds.slice(start, start + batchSize);
    // The run's turn cap replaces the registered one (a registered 3-turn limit would cut longer runs short).
    const envs: Env[] = seeds.map(() => makeEnv(options.envId, options.envOptions ?? {}, { maxTurns: options.maxTurns }));
    const played: PlayedEpisode[] = seeds.map((seed) => ({ seed, turns: [], return: 0, success: false, rewardTerms: {} }));
    try {
      let live = await Promise.all(
        envs.map(async (env, index) => ({ index, env, observation: (await env.reset({ seed: seeds[index] })).observation })),
      );
      for (let turn = 0; turn < options.maxTurns && live.length > 0; turn++) {
        options.signal?.throwIfAborted();
        const prompts = await Promise.all(live.map((episode) => policyPrompt(model, episode.observation, options.view)));
        const generator = options.parallel ?? model;
        const samples = await generator.generate({
          prompts,
          temperature: options.temperature,
          topP: options.topP ?? 1,
          maxTokens: options.maxTokens ?? 48,
          stop: ['</answer>'],
          seed: (options.samplingSeed ?? 0) + start * 1_000 + turn,
          ...(options.signal ? { signal: options.signal } : {}),
        });
        const next: typeof live = [];
        for (const [row, episode] of live.entries()) {
          const sample = samples[row]?.[0];
          const text = sample?.text ?? '';
          const result = await episode.env.step(text);
          const record = played[episode.index]!;
          record.turns.push({
            prompt: prompts[row]!,
            tokens: sample?.tokens ?? [],
            logProbs: sample?.logProbs ?? [],
            text,
            finishReason: sample?.finishReason ?? 'length',
            reward: result.reward,
            formatCorrect: result.info.formatCorrect === true,
          });
          record.return += result.reward;
          for (const [term, value] of Object.entries(result.info.rewardTerms ?? {})) {
            record.rewardTerms[term] = (record.rewardTerms[term] ?? 0) + value;
          }
          const done = result.terminated || result.truncated || turn === options.maxTurns - 1;
          if (done) record.success = result.info.metrics?.success === true;
          else next.push({ index: episode.index, env: episode.env, observation: result.observation });
        }
        live = next;
      }
    } finally {
      await Promise.all(envs.map((env) => env.close()));
    }
    episodes.push(...played);
  }
  return episodes;
}

async function policyPrompt(model: VisionLanguageModel, observation: Observation, view: PolicyView): Promise<ModelSequence> {
  const sequence = applyChatTemplate(model.tokenizer, policyMessages(observation, view), { imageTokens: imageTokenCount(model.config) });
  const images = await Promise.all(sequence.images.map((image) => decodeImageData(image, model.config.imageSize)));
  return { tokens: sequence.tokens, images };
}
