/** What the runner passes the services, for the tests: the grid, VQA and procedural envs and the zoom tools. */
import { FROZEN_LAKE_ID, registerGridEnvs, SOKOBAN_ID } from '@saccade/env-grid';
import { registerProceduralEnvs, SVG_RECONSTRUCTION_ID } from '@saccade/env-procedural';
import { registerVqaEnvs } from '@saccade/env-vqa';
import { cropImageTool, pointCropTool, rotateTool, zoomTool } from '@saccade/tool-zoom';

export const VAGEN_NAMES = { frozenlake: FROZEN_LAKE_ID, sokoban: SOKOBAN_ID, svg: SVG_RECONSTRUCTION_ID };

export function registerTestEnvs(): void {
  registerGridEnvs();
  // The procedural VQA envs play their tasks in env-vqa's env, reached through the registry.
  registerVqaEnvs();
  registerProceduralEnvs();
}

export const TEST_TOOLS = [zoomTool, pointCropTool, rotateTool, cropImageTool];
