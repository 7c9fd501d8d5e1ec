import { parseGroundedResponse } from '@saccade/core';
import type { Agent, Env } from '@saccade/spec';
import { lines, type ReasoningChain } from '../search/chain-text';
import { playGroundedEpisodes, type PlayedGroundedEpisode } from './play-grounded-episode';

/** What the env's reward set said of a played sample (its last step's `info.signals`), each 0 or 1. */
export interface SampleSignals {
  accuracy: number;
  format: number;
  /** Single turn: at least one point of `<think>` on the image. */
  grounded?: number;
}

/** One sampled response (single turn) or episode (multi turn), played in the grounded env, and how the env scored it. */
export interface ScoredSample {
  /** The last response (single turn: the whole response). */
  text: string;
  /** The episode as played: the chat, its images, the last step (the env's reward and info). */
  played: PlayedGroundedEpisode;
  /** The env's reward for the episode (its reward set's, on the last step). */
  reward: number;
  signals: SampleSignals;
  /** The final answer the env read (`info.prediction`), when there is one. */
  answer?: string;
  /** A single-turn response as a chain (think lines as steps), when it has an answer. */
  chain?: ReasoningChain;
  /** Correct and well formed (single turn: grounded too): what best-of-n keeps. */
  keep: boolean;
}

/**
 * Which task of the env best-of-n samples, how many episodes, at what temperature and length, and
 * whether only well-formed grounded ones are kept.
 */
export interface SampleBestOfNOptions {
  /** The task of the env to sample (its index in the env's source). */
  taskIndex: number;
  /** Samples (generations) to draw. */
  n: number;
  temperature?: number;
  /** Token limit per response (default: the agent's). */
  maxTokens?: number;
  /** Keep only well-formed (single turn: and grounded) responses (default true); false keeps every correct one. */
  requireWellFormed?: boolean;
  signal?: AbortSignal;
}

const signalsOf = (played: PlayedGroundedEpisode): SampleSignals => {
  const signals = played.final.info.signals as Partial<SampleSignals> | undefined;
  const value = (name: keyof SampleSignals) => (typeof signals?.[name] === 'number' ? signals[name] : undefined);
  const grounded = value('grounded');
  return { accuracy: value('accuracy') ?? 0, format: value('format') ?? 0, ...(grounded === undefined ? {} : { grounded }) };
};

/**
 * Best-of-n for one task: `n` episodes played one after the other in a grounded env (the
 * single-turn `saccade/GroundedSearch-v1` for one grounded response each, stopping at
 * `</answer>`; the multi-turn one for crop dialogues), each scored by the env's reward set as it
 * plays; the correct and well-formed (single turn: grounded) ones are marked `keep`. The env
 * stays the caller's.
 */
export async function sampleBestOfN(env: Env, agent: Agent, options: SampleBestOfNOptions): Promise<ScoredSample[]> {
  const { taskIndex, n, temperature = 1, maxTokens, requireWellFormed = true, signal } = options;
  const episodes = await playGroundedEpisodes(env, agent, { taskIndex, count: n, temperature, ...(maxTokens === undefined ? {} : { maxTokens }), ...(signal ? { signal } : {}) });
  return episodes.map((played) => {
    const text = played.responses.at(-1) ?? '';
    const signals = signalsOf(played);
    const prediction = played.final.info.prediction;
    const keep = signals.accuracy === 1 && (!requireWellFormed || (signals.format === 1 && (signals.grounded ?? 1) === 1));
    const sample: ScoredSample = { text, played, reward: played.final.reward, signals, keep, ...(typeof prediction === 'string' ? { answer: prediction } : {}) };
    if (played.responses.length === 1) {
      const parsed = parseGroundedResponse(text);
      if (parsed.answer !== undefined) sample.chain = { steps: lines(parsed.think ?? ''), answer: parsed.answer };
    }
    return sample;
  });
}
