import { getAnswerChecker, getEnvSpec, registerAnswerChecker, registerEnv, registerTaskSource, VISION_QA_ENV_OPTION_NAMES, VISION_QA_ID } from '@saccade/core';
import { InvalidArgumentError, InvalidStateError, type Env } from '@saccade/spec';
import { chartsGenerator } from './charts/charts-generator';
import { ProceduralSource, type GeneratorDefinition } from './common/procedural-source';
import { countingGenerator } from './counting/counting-generator';
import { geometryGenerator } from './geometry/geometry-generator';
import { guiGroundingGenerator } from './gui-grounding/gui-grounding-generator';
import { SvgReconstructionEnv, type SvgReconstructionEnvOptions } from './svg-reconstruction/svg-reconstruction-env';
import { visualSearchGenerator } from './visual-search/visual-search-generator';

/** The charts env's registry id. */
export const CHARTS_ID = 'saccade/Charts-v1';
/** The geometry env's registry id. */
export const GEOMETRY_ID = 'saccade/Geometry-v1';
/** The counting env's registry id. */
export const COUNTING_ID = 'saccade/Counting-v1';
/** The visual-search env's registry id. */
export const VISUAL_SEARCH_ID = 'saccade/VisualSearch-v1';
/** The GUI-grounding env's registry id. */
export const GUI_GROUNDING_ID = 'saccade/GuiGrounding-v1';
/** The SVG-reconstruction env's registry id. */
export const SVG_RECONSTRUCTION_ID = 'saccade/SvgReconstruction-v1';

/** The vision-QA envs: id, generator, and what the registry says about them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry has its own settings type
export const PROCEDURAL_VQA_ENVS: readonly { id: string; generator: GeneratorDefinition<any>; description: string }[] = [
  { id: CHARTS_ID, generator: chartsGenerator, description: 'Bar, grouped-bar, line and pie charts; value, extreme, difference, ratio, trend and threshold questions; ChartQA relaxed accuracy.' },
  { id: GEOMETRY_ID, generator: geometryGenerator, description: 'Triangles, parallel lines and circles drawn to scale; a missing angle or length, free answer or multiple choice; Geometry3K check.' },
  { id: COUNTING_ID, generator: countingGenerator, description: 'CLEVR-like 2D scenes: counts, extremes and spatial relations; CLEVR check.' },
  { id: VISUAL_SEARCH_ID, generator: visualSearchGenerator, description: "A 2048 px image with one small target among distractors; multiple choice on its colour, the shape of the object of a colour, or V*'s left/right of two objects; look-alike distractors, target size and named levels (grid, anywhere, lookalikes, two-look, relation); the target box is recorded." },
  { id: GUI_GROUNDING_ID, generator: guiGroundingGenerator, description: 'Synthetic app screens; an instruction names an element; a click inside its box is correct (ScreenSpot).' },
];

/** The task-source id of a generator: `saccade/<its name>` (`saccade/visual-search`, …). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any generator
export const proceduralTaskSourceId = (generator: GeneratorDefinition<any>): string => `saccade/${generator.name}`;

/**
 * Registers each vision-QA generator as a task source (`saccade/charts`, `saccade/geometry`,
 * `saccade/counting`, `saccade/visual-search`, `saccade/gui-grounding`): `makeTaskSource(id, {split,
 * difficulty, …its own options})` is a ProceduralSource over it. Other env packages (the grounded
 * envs) build their tasks with them through the registry, never importing this package.
 */
export function registerProceduralTaskSources(): void {
  for (const { generator } of PROCEDURAL_VQA_ENVS) {
    registerTaskSource(
      {
        id: proceduralTaskSourceId(generator),
        description: `Procedural ${generator.name} tasks (${generator.dataset}), endless; split train | test, difficulty 0 to 1.`,
        options: ['split', 'difficulty', ...generator.options],
        create: (options) => new ProceduralSource(generator, options),
      },
      { override: true },
    );
  }
}

/**
 * The vision-QA env (`saccade/VisionQA-v1`, registered by `@saccade/env-vqa`) over a generator,
 * named `id`. Options are split: `split`, `difficulty` and the generator's own options make the
 * source; the rest (format, maxAttempts, rewards, …) go to the env. The checker is the generator's
 * unless one is given. The env comes from the registry's factory (unwrapped; `makeEnv` of `id`
 * wraps it), so `saccade/VisionQA-v1` has to be registered: an InvalidStateError says so otherwise.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any generator
export function createProceduralVqaEnv(id: string, generator: GeneratorDefinition<any>, options: Record<string, unknown> = {}): Env {
  const sourceKeys = new Set(['split', 'difficulty', ...generator.options]);
  const sourceOptions: Record<string, unknown> = {};
  const envOptions: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options ?? {})) {
    if (value !== undefined && !sourceKeys.has(key) && !VISION_QA_ENV_OPTION_NAMES.includes(key)) {
      throw new InvalidArgumentError({ argument: key, expected: `an option of ${id}: ${[...sourceKeys, ...VISION_QA_ENV_OPTION_NAMES.filter((name) => name !== 'id' && name !== 'source')].join(', ')}`, value });
    }
    (sourceKeys.has(key) ? sourceOptions : envOptions)[key] = value;
  }
  // The generated tasks are played by env-vqa's env, reached through the registry: envs never import one another.
  const vqa = getEnvSpec(VISION_QA_ID);
  if (vqa === undefined) {
    throw new InvalidStateError({
      operation: `createProceduralVqaEnv(${JSON.stringify(id)})`,
      expected: `${VISION_QA_ID} to be registered`,
      actual: 'it is not',
      message: `${id} plays its generated tasks in ${VISION_QA_ID}, which is not registered: call registerVqaEnvs() of @saccade/env-vqa first (the saccade CLI registers it).`,
    });
  }
  const source = new ProceduralSource(generator, sourceOptions);
  return vqa.create({ ...vqa.defaultOptions, checker: generator.checker, ...envOptions, source, id });
}

/**
 * Registers each generator's dataset name (`Procedural-Charts`, …) as an alias of its checker, so
 * generated tasks written to a task file are checked the same way by `saccade/VisionQA-v1`.
 */
export function registerProceduralAnswerCheckers(): void {
  for (const { generator } of PROCEDURAL_VQA_ENVS) registerAnswerChecker(generator.dataset, getAnswerChecker(generator.checker), { override: true });
}

/**
 * Registers `saccade/Charts-v1`, `Geometry-v1`, `Counting-v1`, `VisualSearch-v1`, `GuiGrounding-v1`
 * (`saccade/VisionQA-v1` over a generator, which `registerVqaEnvs()` of `@saccade/env-vqa` has to
 * register before one is made; one turn unless `maxAttempts`) and `SvgReconstruction-v1`
 * (multi-turn; it limits its own turns), the generators as task sources
 * (`registerProceduralTaskSources`) and the answer-checker aliases. Calling it again re-registers them.
 */
export function registerProceduralEnvs(): void {
  for (const { id, generator, description } of PROCEDURAL_VQA_ENVS) {
    registerEnv<Record<string, unknown>>({ id, create: (options) => createProceduralVqaEnv(id, generator, options), description }, { override: true });
  }
  registerEnv<SvgReconstructionEnvOptions & Record<string, unknown>>(
    {
      id: SVG_RECONSTRUCTION_ID,
      create: (options) => new SvgReconstructionEnv({ ...options, id: SVG_RECONSTRUCTION_ID }),
      description: "VAGEN's SVG reconstruction: a target of simple shapes, SVG code as the answer, its render as the next observation; reward = format + SSIM.",
    },
    { override: true },
  );
  registerProceduralTaskSources();
  registerProceduralAnswerCheckers();
}
