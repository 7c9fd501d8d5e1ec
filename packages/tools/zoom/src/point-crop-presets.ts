import type { Tool } from '@saccade/spec';
import { resolveCropSettings, type CropSettings, type PointCropPresetName } from '@saccade/core';
import { createPointCropTool, type PointCropInput } from './point-crop-tool';

// The presets are core's (the grounded env picks them without importing this package); re-exported here.
export { POINT_CROP_PRESET_NAMES, POINT_CROP_PRESETS, presetForTask, resolveCropSettings } from '@saccade/core';
export type { CropPresetTask, CropSettings, PointCropPresetName } from '@saccade/core';

/** ViGoRL's `search_coordinate` tool with a preset's offset, size and dot. */
export function createGroundedCropTool(preset: PointCropPresetName, overrides: Partial<CropSettings> = {}): Tool<PointCropInput> {
  const { offset, cropSize, dot } = resolveCropSettings(preset, overrides);
  return createPointCropTool({ offset, cropSize, dot });
}
