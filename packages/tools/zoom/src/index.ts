export { createZoomTool, zoomTool } from './zoom-tool';
export type { ZoomInput, ZoomToolSettings } from './zoom-tool';
export { createPointCropTool, pointCropTool } from './point-crop-tool';
export type { PointCropInput, PointCropToolSettings } from './point-crop-tool';
export { createGroundedCropTool, POINT_CROP_PRESET_NAMES, POINT_CROP_PRESETS, presetForTask, resolveCropSettings } from './point-crop-presets';
export type { CropPresetTask, CropSettings, PointCropPresetName } from './point-crop-presets';
export { createRotateTool, rotateTool } from './rotate-tool';
export type { RotateInput, RotateToolSettings } from './rotate-tool';
export type { SeenSize, Size } from './seen-size';
export {
  createPixelReasonerCropTool,
  createSelectFramesTool,
  cropImageNormalizedTool,
  cropImageTool,
  PIXEL_REASONER_CROP_NAMES,
  selectFramesTool,
  zoomInTool,
} from './pixel-reasoner-tools';
export type { PixelReasonerCropInput, PixelReasonerCropName, PixelReasonerCropSettings, SelectFramesInput } from './pixel-reasoner-tools';
