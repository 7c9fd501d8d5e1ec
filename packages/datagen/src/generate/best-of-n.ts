import type { Agent } from '@saccade/spec';
import { parseGroundedResponse, scoreGroundedEpisode, type GroundedReward } from '@saccade/env-grounded';
import { lines, type ReasoningChain } from '../search/chain-text';
import type { PreparedTask } from './prepare-task';
import { singleTurnMessages } from './prepare-task';

/** One sampled single-turn response and how the single-turn reward set scored it. */
export interface ScoredSample {
  text: string;
  reward: GroundedReward;
  /** The response as a chain (think lines as steps), when it has an answer. */
  chain?: ReasoningChain;
  /** Correct, well formed and grounded: what best-of-n keeps. */
  keep: boolean;
}

/**
 * How best-of-n samples one task: how many responses, at what temperature and length, in batches of
 * what size, and whether only well-formed grounded ones are kept.
 */
export interface SampleSingleTurnOptions {
  /** Samples (generations) to draw. */
  n: number;
  temperature?: number;
  /** Token limit per response (default: the agent's). */
  maxTokens?: number;
  /** Samples asked per `act` call (default all n in one call). */
  batchSize?: number;
  /** Keep only well-formed, grounded responses (default true); false keeps every correct one. */
  requireWellFormed?: boolean;
  signal?: AbortSignal;
}

/**
 * Best-of-n for one task, single turn: `n` responses sampled independently (stopping at
 * `</answer>`), each scored with `vigorl-single-turn`; the correct (and, by default, well-formed
 * and grounded) ones are marked `keep`.
 */
export async function sampleSingleTurn(agent: Agent, prepared: PreparedTask, options: SampleSingleTurnOptions): Promise<ScoredSample[]> {
  const { n, temperature = 1, maxTokens, requireWellFormed = true, signal } = options;
  const batchSize = options.batchSize ?? n;
  const messages = singleTurnMessages(prepared);
  const samples: ScoredSample[] = [];
  for (let drawn = 0; drawn < n; drawn += batchSize) {
    const count = Math.min(batchSize, n - drawn);
    const response = await agent.act({ messages, n: count, temperature, stop: ['</answer>'], ...(maxTokens === undefined ? {} : { maxTokens }), ...(signal ? { signal } : {}) });
    for (const output of response.outputs) {
      const reward = scoreGroundedEpisode('vigorl-single-turn', {
        responses: [output.text],
        imageSize: prepared.size,
        target: prepared.task,
        answerType: prepared.task.answerType,
        checker: prepared.checker,
      });
      const { accuracy, format, grounded } = reward.signals;
      const keep = accuracy === 1 && (!requireWellFormed || (format === 1 && grounded === 1));
      const parsed = parseGroundedResponse(output.text, { answerType: prepared.task.answerType });
      const sample: ScoredSample = { text: output.text, reward, keep };
      if (parsed.answer !== undefined) sample.chain = { steps: lines(parsed.think ?? ''), answer: parsed.answer };
      samples.push(sample);
    }
  }
  return samples;
}
