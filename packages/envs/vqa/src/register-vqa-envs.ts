import { registerEnv, VISION_QA_ID } from '@saccade/core';
import { VisionQAEnv, type VisionQAEnvOptions } from './env/vision-qa-env';

// The id lives with the task contract in @saccade/core; re-exported here, where it was first defined.
export { VISION_QA_ID } from '@saccade/core';

/**
 * Registers `saccade/VisionQA-v1` so `makeEnv(VISION_QA_ID, {taskFile})`, `{tasks}` or `{source}`
 * creates it. The env limits its own turns (`maxAttempts`), so no TimeLimit is added. Its `id`
 * option names the env it is part of (the procedural envs play their generated sources in it
 * through the registry as `saccade/Charts-v1`, …); by default it is `saccade/VisionQA-v1`.
 * Calling it again re-registers it.
 */
export function registerVqaEnvs(): void {
  registerEnv<VisionQAEnvOptions & Record<string, unknown>>(
    {
      id: VISION_QA_ID,
      create: (options) => new VisionQAEnv(options),
      description: "Vision question answering over a task file or tasks, with VISTA-Gym's answer checkers, reflection and rewards.",
    },
    { override: true },
  );
}
