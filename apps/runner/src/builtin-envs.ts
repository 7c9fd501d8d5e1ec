import { registerGridEnvs } from '@saccade/env-grid';
import { registerProceduralEnvs } from '@saccade/env-procedural';
import { registerVqaEnvs } from '@saccade/env-vqa';
import { registerGroundingEnvs } from '@saccade/grounding';

/** Registers the envs that ship with Saccade, so that `makeEnv(id)` finds them by id. */
export function registerBuiltinEnvs(): void {
  registerGridEnvs();
  registerVqaEnvs();
  registerProceduralEnvs();
  registerGroundingEnvs();
}
