// What the runner does before a command runs: the grounded envs are registered with the tool they
// crop with (saccade.usesTools: the point crop and its factory), so generateSftData makes its
// multi-turn env from the env registry and the env makes each task's crop from the tool registry;
// and the procedural generators are registered as task sources (registerProceduralEnvs does it),
// which the procedural grounded envs build their tasks with.
import { registerTool } from '@saccade/core';
import { registerGroundingEnvs } from '@saccade/env-grounded';
import { registerProceduralTaskSources } from '@saccade/env-procedural';
import { createPointCropTool, pointCropTool } from '@saccade/tool-zoom';

registerTool(pointCropTool, { override: true, create: createPointCropTool });
registerProceduralTaskSources();
registerGroundingEnvs();
