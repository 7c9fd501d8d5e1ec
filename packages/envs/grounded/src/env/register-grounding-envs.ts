import { registerEnv, TaskFileSource, VISION_QA_ID, type TaskSource } from '@saccade/core';
import { GUI_GROUNDING_ID, guiGroundingGenerator, ProceduralSource, VISUAL_SEARCH_ID, visualSearchGenerator, type GeneratorDefinition } from '@saccade/env-procedural';
import { InvalidArgumentError } from '@saccade/spec';
import { GroundedSearchEnv, type GroundedSearchEnvOptions } from './grounded-search-env';

/** The grounded env over a task file, in-memory tasks or any task source. */
export const GROUNDED_SEARCH_ID = 'saccade/GroundedSearch-v1';
/** The grounded env over procedural visual-search tasks. */
export const GROUNDED_VISUAL_SEARCH_ID = 'saccade/GroundedVisualSearch-v1';
/** The grounded env over procedural GUI screens (click an element). */
export const GROUNDED_GUI_GROUNDING_ID = 'saccade/GroundedGuiGrounding-v1';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each generator has its own settings type
const GENERATORS: Readonly<Record<string, GeneratorDefinition<any>>> = {
  [GROUNDED_VISUAL_SEARCH_ID]: visualSearchGenerator,
  [VISUAL_SEARCH_ID]: visualSearchGenerator,
  [GROUNDED_GUI_GROUNDING_ID]: guiGroundingGenerator,
  [GUI_GROUNDING_ID]: guiGroundingGenerator,
};

/** Env ids whose tasks `groundingTaskSource` can make. */
export const GROUNDING_TASK_ENV_IDS = [GROUNDED_VISUAL_SEARCH_ID, GROUNDED_GUI_GROUNDING_ID, GROUNDED_SEARCH_ID, VISUAL_SEARCH_ID, GUI_GROUNDING_ID, VISION_QA_ID] as const;

/** Splits env options into the generator's (split, difficulty, its own) and the env's. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any generator
function splitOptions(generator: GeneratorDefinition<any>, options: Record<string, unknown>): { source: Record<string, unknown>; env: Record<string, unknown> } {
  const sourceKeys = new Set(['split', 'difficulty', ...generator.options]);
  const source: Record<string, unknown> = {};
  const env: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options ?? {})) (sourceKeys.has(key) ? source : env)[key] = value;
  return { source, env };
}

/**
 * The task source behind an env id: the visual-search or GUI-grounding generator (grounded or
 * plain procedural id; `options` holds split, difficulty and the generator's own options), or a task
 * file for `saccade/GroundedSearch-v1` / `saccade/VisionQA-v1` (`options.taskFile`).
 */
export function groundingTaskSource(envId: string, options: Record<string, unknown> = {}): TaskSource {
  const generator = GENERATORS[envId];
  if (generator !== undefined) return new ProceduralSource(generator, splitOptions(generator, options).source);
  if (envId === GROUNDED_SEARCH_ID || envId === VISION_QA_ID) {
    const { taskFile } = options;
    if (typeof taskFile !== 'string' || taskFile.length === 0) {
      throw new InvalidArgumentError({ argument: 'taskFile', expected: `a task file (JSONL, the task-file format of @saccade/core) for ${envId}`, value: taskFile });
    }
    return new TaskFileSource(taskFile);
  }
  throw new InvalidArgumentError({ argument: 'env', expected: `one of ${GROUNDING_TASK_ENV_IDS.join(', ')}`, value: envId });
}

/**
 * Registers `saccade/GroundedVisualSearch-v1` (the visual-search generator, V* crops),
 * `saccade/GroundedGuiGrounding-v1` (GUI grounding, web crops with a red dot) and
 * `saccade/GroundedSearch-v1` (a task file, tasks or a source: V*Bench, ScreenSpot). Options go to
 * the generator (split, difficulty, …) or the env (mode, rewardSet, preset, maxCrops, …). Calling
 * it again re-registers them.
 */
export function registerGroundingEnvs(): void {
  for (const [id, description] of [
    [GROUNDED_VISUAL_SEARCH_ID, "ViGoRL's multi-turn visual search on the procedural visual-search generator: point crops (offset 182, 672 px), original + 4 crops."],
    [GROUNDED_GUI_GROUNDING_ID, "ViGoRL's multi-turn web grounding on the procedural GUI screens: point crops (offset 100, 512 px, red dot), original + 4 crops."],
  ] as const) {
    const generator = GENERATORS[id]!;
    registerEnv<Record<string, unknown>>(
      {
        id,
        description,
        create: (options) => {
          const { source, env } = splitOptions(generator, options);
          return new GroundedSearchEnv({ ...(env as GroundedSearchEnvOptions), source: new ProceduralSource(generator, source), id });
        },
      },
      { override: true },
    );
  }
  registerEnv<GroundedSearchEnvOptions & Record<string, unknown>>(
    {
      id: GROUNDED_SEARCH_ID,
      description: "ViGoRL's grounded search over a task file or tasks (V*Bench, ScreenSpot): single- or multi-turn, the crop preset picked per task.",
      create: (options) => new GroundedSearchEnv({ ...options, id: GROUNDED_SEARCH_ID }),
    },
    { override: true },
  );
}
