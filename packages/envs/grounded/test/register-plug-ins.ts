// What the runner does for this package: the point crop is registered with its factory
// (saccade.usesTools), so the grounded envs make the crop of each task's preset through the tool
// registry; and env-procedural's task sources are registered (registerProceduralEnvs, as for every
// env package), which the procedural grounded envs build their tasks with.
import { registerTool } from '@saccade/core';
import { registerProceduralTaskSources } from '@saccade/env-procedural';
import { createPointCropTool, pointCropTool } from '@saccade/tool-zoom';

registerTool(pointCropTool, { override: true, create: createPointCropTool });
registerProceduralTaskSources();
