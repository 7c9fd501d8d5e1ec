import { FROZEN_LAKE_ID, registerGridEnvs, SOKOBAN_ID } from '@saccade/env-grid';
import { registerProceduralEnvs, SVG_RECONSTRUCTION_ID } from '@saccade/env-procedural';
import { registerVqaEnvs } from '@saccade/env-vqa';
import { registerGroundingEnvs } from '@saccade/grounding';

/** Registers the envs that ship with Saccade, so that `makeEnv(id)` finds them by id. */
export function registerBuiltinEnvs(): void {
  registerGridEnvs();
  registerVqaEnvs();
  registerProceduralEnvs();
  registerGroundingEnvs();
}

/** VAGEN's env names and the envs `saccade serve env` creates for them (VAGEN's config keys apply). */
export const VAGEN_ENV_NAMES: Readonly<Record<string, string>> = { frozenlake: FROZEN_LAKE_ID, sokoban: SOKOBAN_ID, svg: SVG_RECONSTRUCTION_ID };
