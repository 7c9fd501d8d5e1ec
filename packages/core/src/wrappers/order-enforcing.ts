import { InvalidStateError, type EnvResetOptions, type ResetResult, type StepResult } from '@saccade/spec';
import { EnvWrapper } from './env-wrapper';

/**
 * Refuses calls out of order with a clear `InvalidStateError`: `step()` before `reset()`, and
 * `reset()` or `step()` after `close()`. `close()` may be called any number of times; the env
 * is closed once.
 */
export class OrderEnforcing extends EnvWrapper {
  #hasReset = false;
  #closed = false;

  override async reset(options?: EnvResetOptions): Promise<ResetResult> {
    if (this.#closed) {
      throw new InvalidStateError({ operation: 'reset()', expected: 'an open env', actual: `env "${this.id}" was closed` });
    }
    const result = await this.env.reset(options);
    this.#hasReset = true;
    return result;
  }

  override step(action: string): Promise<StepResult> {
    if (this.#closed) {
      return Promise.reject(
        new InvalidStateError({ operation: 'step()', expected: 'an open env', actual: `env "${this.id}" was closed` }),
      );
    }
    if (!this.#hasReset) {
      return Promise.reject(
        new InvalidStateError({
          operation: 'step()',
          expected: 'reset() to be called first',
          actual: `env "${this.id}" has not been reset`,
        }),
      );
    }
    return this.env.step(action);
  }

  override async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.env.close();
  }
}
