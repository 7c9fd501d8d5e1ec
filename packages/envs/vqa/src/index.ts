// The env and its registration.
export { VISION_QA_ENV_OPTION_NAMES, VisionQAEnv, oracleAnswer, type VisionQAEnvOptions } from './env/vision-qa-env';
export { VISION_QA_ID, registerVqaEnvs } from './register-vqa-envs';

// Rewards, reflection and prompts.
export { DEFAULT_VISTA_REWARDS, REWARD_SETS, vistaR1Terms, type RewardSet, type TurnRecord, type VistaRewards } from './env/vista-rewards';
export { detectRepetition, type RepetitionReport } from './env/detect-repetition';
export { directionHint, formatErrorFeedback, wrongAnswerFeedback } from './env/reflection-feedback';
export { formatInstruction, taskPrompt, vqaSystemPrompt, type AnswerFormat } from './env/prompts';

// Task sources.
export { indexForSeed, type TaskSource } from './sources/task-source';
export { ArrayTaskSource, type ArrayTaskSourceOptions } from './sources/array-task-source';
export { TaskFileSource } from './sources/task-file-source';

// The task file format.
export {
  ANSWER_TYPES,
  memoryTaskSchema,
  taskFileLineSchema,
  type AnswerType,
  type TaskImage,
  type VisionQATask,
  type VisionQATaskInput,
} from './task/vision-qa-task';
export { TaskFileError } from './task/task-file-error';
export { describeReceived, describeZodIssue, parseTaskLine, readTaskFile, type ParseTaskLineOptions, type ReadTaskFileOptions } from './task/read-task-file';
export { formatTaskLine, writeTaskFile } from './task/write-task-file';
