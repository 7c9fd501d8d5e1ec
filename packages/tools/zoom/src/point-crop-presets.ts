import { InvalidArgumentError, type Tool } from '@saccade/spec';
import { createPointCropTool, type PointCropInput, type PointCropToolSettings } from './point-crop-tool';

/** ViGoRL's point-crop settings: V* visual search (offset 182, 672 px) and web grounding (offset 100, 512 px, red dot of radius 7). */
export const POINT_CROP_PRESETS = {
  'visual-search': { offset: 182, cropSize: 672, dot: false },
  web: { offset: 100, cropSize: 512, dot: { radius: 7 } },
} as const satisfies Record<string, Pick<PointCropToolSettings, 'offset' | 'cropSize' | 'dot'>>;

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

/** ViGoRL's `search_coordinate` tool with a preset's offset, size and dot. */
export function createGroundedCropTool(preset: PointCropPresetName, overrides: Partial<CropSettings> = {}): Tool<PointCropInput> {
  const { offset, cropSize, dot } = resolveCropSettings(preset, overrides);
  return createPointCropTool({ offset, cropSize, dot });
}
