import { InvalidArgumentError, type Env, type EnvResetOptions, type ResetResult, type StepResult } from '@saccade/spec';
import { EnvWrapper } from './env-wrapper';

/**
 * Truncates an episode after `maxTurns` steps: the last step gets `truncated: true` and
 * `info.truncatedBy = 'time-limit'` (unless the env terminated on that step).
 */
export class TimeLimit extends EnvWrapper {
  readonly maxTurns: number;
  #turns = 0;

  constructor(env: Env, { maxTurns }: { maxTurns: number }) {
    super(env);
    if (!Number.isSafeInteger(maxTurns) || maxTurns <= 0) {
      throw new InvalidArgumentError({ argument: 'maxTurns', expected: 'a positive integer', value: maxTurns });
    }
    this.maxTurns = maxTurns;
  }

  /** Steps taken since the last reset. */
  get turns(): number {
    return this.#turns;
  }

  override async reset(options?: EnvResetOptions): Promise<ResetResult> {
    const result = await this.env.reset(options);
    this.#turns = 0;
    return result;
  }

  override async step(action: string): Promise<StepResult> {
    const result = await this.env.step(action);
    this.#turns += 1;
    if (this.#turns >= this.maxTurns && !result.terminated && !result.truncated) {
      return { ...result, truncated: true, info: { ...result.info, truncatedBy: 'time-limit' } };
    }
    return result;
  }
}
