import { getTaskSourceSpec, makeTaskSource, registerEnv, SEARCH_COORDINATE, TaskFileSource, VISION_QA_ID, type TaskSource, type TaskSourceSpec } from '@saccade/core';
import { InvalidArgumentError, InvalidStateError } from '@saccade/spec';
import { GroundedSearchEnv, type GroundedSearchEnvOptions } from './grounded-search-env';

/** The grounded env over a task file, in-memory tasks or any task source. */
export const GROUNDED_SEARCH_ID = 'saccade/GroundedSearch-v1';
/** The grounded env over procedural visual-search tasks. */
export const GROUNDED_VISUAL_SEARCH_ID = 'saccade/GroundedVisualSearch-v1';
/** The grounded env over procedural GUI screens (click an element). */
export const GROUNDED_GUI_GROUNDING_ID = 'saccade/GroundedGuiGrounding-v1';
// The procedural envs over the same generators (@saccade/env-procedural's ids): their tasks too.
const VISUAL_SEARCH_ID = 'saccade/VisualSearch-v1';
const GUI_GROUNDING_ID = 'saccade/GuiGrounding-v1';

/**
 * The task sources the grounded envs build their tasks with, by env id: the procedural generators,
 * which `registerProceduralEnvs()` of @saccade/env-procedural registers (the runner registers every
 * env package before a command runs). Reached through the task-source registry: env packages never
 * import one another.
 */
export const GROUNDING_TASK_SOURCES: Readonly<Record<string, string>> = {
  [GROUNDED_VISUAL_SEARCH_ID]: 'saccade/visual-search',
  [VISUAL_SEARCH_ID]: 'saccade/visual-search',
  [GROUNDED_GUI_GROUNDING_ID]: 'saccade/gui-grounding',
  [GUI_GROUNDING_ID]: 'saccade/gui-grounding',
};

/** Env ids whose tasks `groundingTaskSource` can make. */
export const GROUNDING_TASK_ENV_IDS = [GROUNDED_VISUAL_SEARCH_ID, GROUNDED_GUI_GROUNDING_ID, GROUNDED_SEARCH_ID, VISUAL_SEARCH_ID, GUI_GROUNDING_ID, VISION_QA_ID] as const;

/** The registered task source an env id builds its tasks with; an InvalidStateError naming the register call when it is missing. */
function taskSourceSpec(envId: string, sourceId: string): TaskSourceSpec {
  const spec = getTaskSourceSpec(sourceId);
  if (spec === undefined) {
    throw new InvalidStateError({
      operation: `make ${envId}`,
      expected: `the task source ${sourceId} to be registered`,
      actual: 'it is not',
      message: `${envId} builds its tasks with the task source ${sourceId}, which is not registered: call registerProceduralEnvs() (or registerProceduralTaskSources()) of @saccade/env-procedural first (the saccade CLI registers it).`,
    });
  }
  return spec;
}

/** Splits env options into the task source's (split, difficulty, the generator's own) and the env's. */
function splitOptions(spec: TaskSourceSpec, options: Record<string, unknown>): { source: Record<string, unknown>; env: Record<string, unknown> } {
  const sourceKeys = new Set(spec.options);
  const source: Record<string, unknown> = {};
  const env: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options ?? {})) (sourceKeys.has(key) ? source : env)[key] = value;
  return { source, env };
}

/**
 * The task source behind an env id: the registered visual-search or GUI-grounding generator
 * (grounded or plain procedural id; `options` holds split, difficulty and the generator's own
 * options), or a task file for `saccade/GroundedSearch-v1` / `saccade/VisionQA-v1`
 * (`options.taskFile`). Throws InvalidStateError when the generator's task source is not registered.
 */
export function groundingTaskSource(envId: string, options: Record<string, unknown> = {}): TaskSource {
  const sourceId = GROUNDING_TASK_SOURCES[envId];
  if (sourceId !== undefined) {
    const spec = taskSourceSpec(envId, sourceId);
    return makeTaskSource(sourceId, splitOptions(spec, options).source);
  }
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
 * the task source (split, difficulty, the generator's own) or the env (mode, rewardSet, preset,
 * maxCrops, …). The procedural envs' tasks come from the task-source registry when one is made
 * (`registerProceduralEnvs()` of @saccade/env-procedural registers them), so the order of
 * registration does not matter. Calling it again re-registers them.
 */
export function registerGroundingEnvs(): void {
  for (const [id, description] of [
    [GROUNDED_VISUAL_SEARCH_ID, "ViGoRL's multi-turn visual search on the procedural visual-search generator: point crops (offset 182, 672 px), original + 4 crops."],
    [GROUNDED_GUI_GROUNDING_ID, "ViGoRL's multi-turn web grounding on the procedural GUI screens: point crops (offset 100, 512 px, red dot), original + 4 crops."],
  ] as const) {
    registerEnv<Record<string, unknown>>(
      {
        id,
        description,
        usesTools: [SEARCH_COORDINATE],
        create: (options) => {
          const sourceId = GROUNDING_TASK_SOURCES[id]!;
          const { source, env } = splitOptions(taskSourceSpec(id, sourceId), options);
          return new GroundedSearchEnv({ ...(env as GroundedSearchEnvOptions), source: makeTaskSource(sourceId, source), id });
        },
      },
      { override: true },
    );
  }
  registerEnv<GroundedSearchEnvOptions & Record<string, unknown>>(
    {
      id: GROUNDED_SEARCH_ID,
      description: "ViGoRL's grounded search over a task file or tasks (V*Bench, ScreenSpot): single- or multi-turn, the crop preset picked per task.",
      usesTools: [SEARCH_COORDINATE],
      create: (options) => new GroundedSearchEnv({ ...options, id: GROUNDED_SEARCH_ID }),
    },
    { override: true },
  );
}
