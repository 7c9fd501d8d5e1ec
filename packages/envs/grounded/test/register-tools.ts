// What the runner does for this package (saccade.usesTools): the point crop is registered with its
// factory, so the grounded envs make the crop of each task's preset through the tool registry.
import { registerTool } from '@saccade/core';
import { createPointCropTool, pointCropTool } from '@saccade/tool-zoom';

registerTool(pointCropTool, { override: true, create: createPointCropTool });
