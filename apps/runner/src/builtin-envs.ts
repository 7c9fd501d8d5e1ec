import { registerGridEnvs } from '@saccade/env-grid';

/** Registers the envs that ship with Saccade, so that `makeEnv(id)` finds them by id. */
export function registerBuiltinEnvs(): void {
  registerGridEnvs();
}
