import { registerEnv, VISION_QA_ID } from '@saccade/core';
import { VisionQAEnv, type VisionQAEnvOptions } from './env/vision-qa-env';

// The id lives with the task contract in @saccade/core; re-exported here, where it was first defined.
export { VISION_QA_ID } from '@saccade/core';

/**
 * Registers `saccade/VisionQA-v1` so `makeEnv(VISION_QA_ID, {taskFile})` or `{tasks}` creates it.
 * The env limits its own turns (`maxAttempts`), so no TimeLimit is added. Calling it again
 * re-registers it.
 */
export function registerVqaEnvs(): void {
  registerEnv<VisionQAEnvOptions & Record<string, unknown>>(
    {
      id: VISION_QA_ID,
      create: (options) => new VisionQAEnv({ ...options, id: VISION_QA_ID }),
      description: "Vision question answering over a task file or tasks, with VISTA-Gym's answer checkers, reflection and rewards.",
    },
    { override: true },
  );
}
