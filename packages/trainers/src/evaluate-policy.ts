import { makeEnv } from '@saccade/core';
import { applyChatTemplate, decodeImageData, imageTokenCount, type VisionLanguageModel } from '@saccade/models';
import type { Env, Observation } from '@saccade/spec';
import { policyMessages, type PolicyView } from './policy-messages';

export interface EvaluatePolicyOptions {
  envId: string;
  envOptions?: Record<string, unknown>;
  seeds: readonly number[];
  view: PolicyView;
  /** Turn cap per episode (the registered env's time limit applies too). */
  maxTurns: number;
  maxTokens?: number;
  /** Episodes played side by side: one batched generate call per turn serves them all. */
  batchSize?: number;
  signal?: AbortSignal;
}

export interface PolicyEvaluation {
  episodes: number;
  /** Fraction of episodes that ended in success (`info.metrics.success`). */
  success: number;
  meanReward: number;
  /** Fraction of turns whose response was well formed. */
  formatRate: number;
  meanTurns: number;
}

/**
 * Greedy episodes of the model on the given seeds. Episodes advance in lock step so that each
 * turn is one batched, KV-cached generate call instead of one call per episode.
 */
export async function evaluatePolicy(model: VisionLanguageModel, options: EvaluatePolicyOptions): Promise<PolicyEvaluation> {
  const batchSize = options.batchSize ?? 100;
  let successes = 0;
  let rewardSum = 0;
  let turns = 0;
  let wellFormed = 0;
  for (let start = 0; start < options.seeds.length; start += batchSize) {
    const seeds = options.seeds.slice(start, start + batchSize);
    const envs: Env[] = seeds.map(() => makeEnv(options.envId, options.envOptions ?? {}));
    try {
      let live = await Promise.all(
        envs.map(async (env, index) => ({ env, observation: (await env.reset({ seed: seeds[index] })).observation })),
      );
      for (let turn = 0; turn < options.maxTurns && live.length > 0; turn++) {
        options.signal?.throwIfAborted();
        const responses = await respond(model, live.map((episode) => episode.observation), options);
        const next: { env: Env; observation: Observation }[] = [];
        for (const [index, episode] of live.entries()) {
          const result = await episode.env.step(responses[index] ?? '');
          turns++;
          rewardSum += result.reward;
          if (result.info.formatCorrect === true) wellFormed++;
          const done = result.terminated || result.truncated || turn === options.maxTurns - 1;
          if (done && result.info.metrics?.success === true) successes++;
          if (!done) next.push({ env: episode.env, observation: result.observation });
        }
        live = next;
      }
    } finally {
      await Promise.all(envs.map((env) => env.close()));
    }
  }
  const episodes = options.seeds.length;
  return {
    episodes,
    success: episodes === 0 ? 0 : successes / episodes,
    meanReward: episodes === 0 ? 0 : rewardSum / episodes,
    formatRate: turns === 0 ? 0 : wellFormed / turns,
    meanTurns: episodes === 0 ? 0 : turns / episodes,
  };
}

async function respond(model: VisionLanguageModel, observations: Observation[], options: EvaluatePolicyOptions): Promise<string[]> {
  const imageTokens = imageTokenCount(model.config);
  const prompts = await Promise.all(
    observations.map(async (observation) => {
      const sequence = applyChatTemplate(model.tokenizer, policyMessages(observation, options.view), { imageTokens });
      const images = await Promise.all(sequence.images.map((image) => decodeImageData(image, model.config.imageSize)));
      return { tokens: sequence.tokens, images };
    }),
  );
  const samples = await model.generate({
    prompts,
    temperature: 0,
    maxTokens: options.maxTokens ?? 48,
    stop: ['</answer>'],
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return samples.map(([sample]) => sample?.text ?? '');
}
