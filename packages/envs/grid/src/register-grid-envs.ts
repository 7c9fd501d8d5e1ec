import { registerEnv } from '@saccade/core';
import { FrozenLakeEnv, type FrozenLakeEnvOptions } from './frozen-lake/frozen-lake-env';
import { SokobanEnv, type SokobanEnvOptions } from './sokoban/sokoban-env';

/** FrozenLake's registry id. */
export const FROZEN_LAKE_ID = 'saccade/FrozenLake-v1';
/** Sokoban's registry id. */
export const SOKOBAN_ID = 'saccade/Sokoban-v1';

/**
 * Registers `saccade/FrozenLake-v1` and `saccade/Sokoban-v1` (3 turns, as in VAGEN's training
 * scripts, or `maxTurns`) so `makeEnv(id, options)` creates them. Calling it again re-registers them.
 */
export function registerGridEnvs(options: { maxTurns?: number } = {}): void {
  const maxTurns = options.maxTurns ?? 3;
  const settings = { override: true };
  registerEnv<FrozenLakeEnvOptions & Record<string, unknown>>(
    {
      id: FROZEN_LAKE_ID,
      create: (envOptions) => new FrozenLakeEnv(envOptions, FROZEN_LAKE_ID),
      maxTurns,
      defaultOptions: { maxSolutionSteps: maxTurns * 3 },
      description: "FrozenLake with VAGEN's rules: 4×4, p(frozen) 0.8, maps drawn from the seed, solvable within the turn limit.",
    },
    settings,
  );
  registerEnv<SokobanEnvOptions & Record<string, unknown>>(
    {
      id: SOKOBAN_ID,
      create: (envOptions) => new SokobanEnv(envOptions, SOKOBAN_ID),
      maxTurns,
      description: "Sokoban with VAGEN's rules: 6×6 room, 1 box, levels solvable in ≤ 5 moves drawn from the seed.",
    },
    settings,
  );
}
