/**
 * The registry id of the env that plays a task file one question at a time (`@saccade/env-vqa`
 * registers it). Named here, beside the task-file format it reads, so that other envs and the
 * commands that take task files by env id name it without depending on env-vqa.
 */
export const VISION_QA_ID = 'saccade/VisionQA-v1';

/**
 * The options the env registered as {@link VISION_QA_ID} takes (`makeEnv(VISION_QA_ID, options)`);
 * it refuses any other. Named here with its id, so that an env which plays its own task source in
 * it through the registry (the procedural envs) can tell its own options from the env's.
 */
export const VISION_QA_ENV_OPTION_NAMES: readonly string[] = ['taskFile', 'tasks', 'source', 'baseDirectory', 'format', 'maxAttempts', 'retryOnFormatError', 'rewardSet', 'rewards', 'repetitionPenalty', 'hints', 'checker', 'resendImages', 'maxPixels', 'id'];
