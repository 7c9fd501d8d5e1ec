import { InvalidArgumentError } from '@saccade/spec';
import pLimit from 'p-limit';

/**
 * Runs tasks with at most a fixed number in flight; the rest wait in order. One limiter can be
 * shared between agents (and episodes) so that together they never exceed a server's capacity.
 * A `p-limit` instance is a Limiter.
 */
export interface Limiter {
  <T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  readonly activeCount: number;
  /** Tasks waiting for a slot. */
  readonly pendingCount: number;
}

/**
 * A limiter that runs at most `concurrency` tasks at once.
 *
 * @example
 * const limiter = createLimiter(8);
 * const policy = createOpenAICompatibleAgent({ baseURL, model, concurrency: limiter });
 * const judge = createOpenAICompatibleAgent({ baseURL, model: 'judge', concurrency: limiter });
 */
export function createLimiter(concurrency: number): Limiter {
  if (!(concurrency === Infinity || (Number.isSafeInteger(concurrency) && concurrency >= 1))) {
    throw new InvalidArgumentError({ argument: 'concurrency', expected: 'an integer ≥ 1 or Infinity', value: concurrency });
  }
  const limit = pLimit(concurrency);
  const limiter = <T>(task: () => Promise<T>): Promise<T> => limit(task);
  Object.defineProperties(limiter, {
    activeCount: { get: () => limit.activeCount },
    pendingCount: { get: () => limit.pendingCount },
  });
  return limiter as Limiter;
}
