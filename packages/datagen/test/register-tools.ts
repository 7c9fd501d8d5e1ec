// What the runner does for env-grounded (saccade.usesTools): the point crop is registered with its
// factory, so the grounded envs these tests play make each task's crop through the tool registry.
import { registerTool } from '@saccade/core';
import { createPointCropTool, pointCropTool } from '@saccade/tool-zoom';

registerTool(pointCropTool, { override: true, create: createPointCropTool });
