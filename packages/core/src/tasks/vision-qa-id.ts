/**
 * The registry id of the env that plays a task file one question at a time (`@saccade/env-vqa`
 * registers it). Named here, beside the task-file format it reads, so that other envs and the
 * commands that take task files by env id name it without depending on env-vqa.
 */
export const VISION_QA_ID = 'saccade/VisionQA-v1';
