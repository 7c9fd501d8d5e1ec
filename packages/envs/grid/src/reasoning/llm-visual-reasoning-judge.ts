import { InvalidArgumentError } from '@saccade/spec';
import { frozenLakeJudgePrompt, sokobanJudgePrompt } from './judge-prompts';
import { parseJudgeRelations, scoreJudgeRelations } from './judge-relations';
import type { GridSymbolicState } from './symbolic-state';
import type { VisualReasoningJudge } from './visual-reasoning-judge';

/**
 * Sends a prompt to a language model and resolves with its answer text, e.g. one user message to
 * an OpenAI-compatible chat-completions server. It rejects when no answer came (after its own
 * retries): the judge counts that as a failure and rejects too.
 */
export type JudgeCompletion = (prompt: string) => Promise<string>;

/** Settings of `createLlmVisualReasoningJudge`. */
export interface LlmVisualReasoningJudgeOptions {
  /** The model call (its concurrency limit, retries and time limit are its own). */
  complete: JudgeCompletion;
  /** Scores kept by (prompt, state), oldest dropped first (default 10 000; 0: no cache). */
  cacheSize?: number;
}

/** What an LLM judge has done since it was made. */
export interface LlmJudgeStatistics {
  /** Descriptions scored or failed. */
  calls: number;
  /** Calls answered from the cache (or sharing a call in flight with the same prompt and state). */
  cacheHits: number;
  /** Calls that reached the model. */
  requests: number;
  /** Calls whose model call failed (unreachable, an error status after retries, a timeout): terms the env scores 0. */
  failures: number;
  /** Answers with no JSON array of relations in them (scored as no relations stated). */
  unparsed: number;
  /** The message of the latest failure. */
  lastError?: string;
}

/** A visual reasoning judge backed by a language model, with its counts. */
export interface LlmVisualReasoningJudge extends VisualReasoningJudge {
  readonly statistics: Readonly<LlmJudgeStatistics>;
}

/** VAGEN's prompt for a description of this env's state. */
export function judgePrompt(description: string, state: GridSymbolicState): string {
  return state.env === 'sokoban' ? sokobanJudgePrompt(description) : frozenLakeJudgePrompt(description);
}

/**
 * VAGEN-Full's LLM judge for the grid envs' `grounding` / `worldmodel` terms: the model reads the
 * description with VAGEN's prompt and answers the relations it states as JSON; those are scored
 * against the true state (`scoreJudgeRelations`). Scores are cached by (prompt, state) and a
 * second call with the same pair while the first is in flight shares it. A failed model call
 * rejects (and is not cached): `GridEnv` then scores the term 0 and counts the failure.
 *
 * @example
 * const judge = createLlmVisualReasoningJudge({ complete: (prompt) => askMyModel(prompt) });
 * const env = new SokobanEnv({ format: 'grounding_worldmodeling', visualReasoningReward: true, judge });
 */
export function createLlmVisualReasoningJudge(options: LlmVisualReasoningJudgeOptions): LlmVisualReasoningJudge {
  if (typeof options?.complete !== 'function') throw new InvalidArgumentError({ argument: 'complete', expected: 'a function (prompt) => Promise<string>', value: options?.complete });
  const cacheSize = options.cacheSize ?? 10_000;
  if (!Number.isSafeInteger(cacheSize) || cacheSize < 0) throw new InvalidArgumentError({ argument: 'cacheSize', expected: 'an integer ≥ 0', value: cacheSize });
  const statistics: LlmJudgeStatistics = { calls: 0, cacheHits: 0, requests: 0, failures: 0, unparsed: 0 };
  // A Map keeps insertion order: the first key is the oldest.
  const cache = new Map<string, number>();
  const inFlight = new Map<string, Promise<number>>();

  const request = async (prompt: string, state: GridSymbolicState): Promise<number> => {
    statistics.requests++;
    const answer = await options.complete(prompt);
    const relations = parseJudgeRelations(typeof answer === 'string' ? answer : '');
    if (relations === undefined) statistics.unparsed++;
    return scoreJudgeRelations(relations ?? [], state);
  };

  const score = async (text: string, state: GridSymbolicState): Promise<number> => {
    const prompt = judgePrompt(text, state);
    const key = `${prompt}\u0000${JSON.stringify(state)}`;
    const cached = cache.get(key);
    if (cached !== undefined) {
      statistics.cacheHits++;
      return cached;
    }
    const pending = inFlight.get(key);
    if (pending !== undefined) {
      statistics.cacheHits++;
      return pending;
    }
    const promise = request(prompt, state);
    inFlight.set(key, promise);
    try {
      const value = await promise;
      if (cacheSize > 0) {
        cache.set(key, value);
        if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
      }
      return value;
    } finally {
      inFlight.delete(key);
    }
  };

  const judge = (async (_kind, text, state) => {
    statistics.calls++;
    try {
      return await score(text, state);
    } catch (error) {
      statistics.failures++;
      statistics.lastError = error instanceof Error ? error.message : String(error);
      throw error;
    }
  }) as LlmVisualReasoningJudge;
  Object.defineProperty(judge, 'statistics', { value: statistics, enumerable: true });
  return judge;
}
