import type { Env, EnvResetOptions, ResetResult, StepResult } from '@saccade/spec';

/**
 * The base of every wrapper (Gymnasium's `Wrapper`): holds `env` and forwards everything.
 * Subclasses override the one method they change.
 *
 * @example
 * class UppercaseActions extends EnvWrapper {
 *   override step(action: string) { return this.env.step(action.toUpperCase()); }
 * }
 */
export class EnvWrapper implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly env: Env;

  constructor(env: Env) {
    this.env = env;
  }

  get id(): string {
    return this.env.id;
  }

  /** The innermost env, under every wrapper. */
  get unwrapped(): Env {
    return this.env instanceof EnvWrapper ? this.env.unwrapped : this.env;
  }

  reset(options?: EnvResetOptions): Promise<ResetResult> {
    return this.env.reset(options);
  }

  step(action: string): Promise<StepResult> {
    return this.env.step(action);
  }

  systemPrompt(): string {
    return this.env.systemPrompt();
  }

  close(): Promise<void> {
    return this.env.close();
  }
}
