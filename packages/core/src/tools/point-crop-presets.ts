import { InvalidArgumentError } from '@saccade/spec';

/**
 * ViGoRL's point-crop settings: V* visual search (offset 182, 672 px) and web grounding (offset 100,
 * 512 px, red dot of radius 7). They live here, beside the tool registry, because the env that picks
 * one per task (env-grounded) and the point-crop tool that applies it (tool-zoom) never import each other.
 */
export const POINT_CROP_PRESETS = {
  'visual-search': { offset: 182, cropSize: 672, dot: false },
  web: { offset: 100, cropSize: 512, dot: { radius: 7 } },
} as const satisfies Record<string, { offset: number; cropSize: number; dot: false | { radius: number } }>;

/** A name of POINT_CROP_PRESETS. */
export type PointCropPresetName = keyof typeof POINT_CROP_PRESETS;
/** The preset names, in declaration order. */
export const POINT_CROP_PRESET_NAMES = Object.keys(POINT_CROP_PRESETS) as PointCropPresetName[];

/** The crop of a preset, with any field overridden. */
export interface CropSettings {
  offset: number;
  cropSize: number;
  dot: false | { radius: number };
}

const GROUNDING_DATASETS = new Set(['screenspot', 'osatlas', 'proceduralguigrounding']);
const key = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** What presetForTask reads of a task (a VQA task's own fields). */
export interface CropPresetTask {
  dataset: string;
  taskFamily: string;
  answerType?: string;
}

/** `web` for click tasks (ScreenSpot, OS-ATLAS, GUI grounding, point answers), `visual-search` otherwise. */
export function presetForTask(task: CropPresetTask): PointCropPresetName {
  if (task.answerType === 'point' || GROUNDING_DATASETS.has(key(task.dataset)) || ['grounding', 'web', 'gui'].includes(key(task.taskFamily))) return 'web';
  return 'visual-search';
}

/** Resolves a preset name and overrides to crop settings; throws InvalidArgumentError on bad values. */
export function resolveCropSettings(preset: PointCropPresetName, overrides: Partial<CropSettings> = {}): CropSettings {
  const base = POINT_CROP_PRESETS[preset];
  if (base === undefined) throw new InvalidArgumentError({ argument: 'preset', expected: `${POINT_CROP_PRESET_NAMES.join(' | ')} | auto`, value: preset });
  const settings: CropSettings = { offset: base.offset, cropSize: base.cropSize, dot: base.dot === false ? false : { radius: base.dot.radius }, ...overrides };
  for (const name of ['offset', 'cropSize'] as const) {
    if (!Number.isSafeInteger(settings[name]) || settings[name] <= 0) throw new InvalidArgumentError({ argument: `crop.${name}`, expected: 'a positive integer (pixels)', value: settings[name] });
  }
  return settings;
}
